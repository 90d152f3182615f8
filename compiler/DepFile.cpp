// compiler/DepFile.cpp — see DepFile.h.
#include "DepFile.h"

#include "Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace offload::compiler {

std::vector<std::string> readDepFileText(StringRef Text) {
  std::vector<std::string> Deps;
  std::string Word;
  bool InTarget = true;  // the words before a rule's `:` are its targets
  auto endWord = [&] {
    if (!Word.empty() && !InTarget)
      Deps.push_back(Word);
    Word.clear();
  };
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size()) {
      char N = Text[I + 1];
      if (N == '\n' || (N == '\r' && I + 2 < Text.size() && Text[I + 2] == '\n')) {
        endWord();  // a continued line
        I += N == '\r' ? 2 : 1;
        continue;
      }
      if (N == ' ' || N == '#' || N == '\\') {
        Word += N;
        ++I;
        continue;
      }
      Word += C;
    } else if (C == '$' && I + 1 < Text.size() && Text[I + 1] == '$') {
      Word += '$';
      ++I;
    } else if (C == ':' && InTarget && (I + 1 == Text.size() || Text[I + 1] == ' ' ||
                                        Text[I + 1] == '\n' || Text[I + 1] == '\t')) {
      Word.clear();
      InTarget = false;
    } else if (C == '\n') {
      endWord();
      InTarget = true;  // the next line is a new rule
    } else if (C == ' ' || C == '\t' || C == '\r') {
      if (InTarget)
        Word.clear();
      else
        endWord();
    } else {
      Word += C;
    }
  }
  endWord();
  return Deps;
}

std::string escapeForMake(StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

std::string depFileText(ArrayRef<std::string> Targets, ArrayRef<std::string> Deps, bool Phony) {
  std::string Text;
  raw_string_ostream OS(Text);
  size_t Column = 0;
  for (size_t I = 0; I < Targets.size(); ++I) {
    OS << (I ? " " : "") << Targets[I];
    Column += Targets[I].size() + (I ? 1 : 0);
  }
  OS << ":";
  ++Column;
  for (const std::string &D : Deps) {
    std::string E = escapeForMake(D);
    if (Column + 1 + E.size() > 75 && Column > 1) {  // wrapped as compilers wrap
      OS << " \\\n";
      Column = 0;
    }
    OS << " " << E;
    Column += 1 + E.size();
  }
  OS << "\n";
  if (Phony)
    for (size_t I = 1; I < Deps.size(); ++I)
      OS << "\n" << escapeForMake(Deps[I]) << ":\n";
  return Text;
}

static std::vector<std::pair<std::string, std::string>> IncludeSpellings;

void setIncludeSpellings(std::vector<std::pair<std::string, std::string>> AbsoluteToSpelled) {
  IncludeSpellings = std::move(AbsoluteToSpelled);
}

/// D as g++ would spell it: under a -I folder given relative, by that folder's spelling.
static std::string asUserSpelled(std::string D) {
  for (const auto &[Absolute, Spelled] : IncludeSpellings)
    if (StringRef(D).starts_with(Absolute + "/")) {
      StringRef Rest = StringRef(D).drop_front(Absolute.size() + 1);
      StringRef Folder = StringRef(Spelled).rtrim('/');
      return Folder.empty() || Folder == "." ? Rest.str() : (Folder + "/" + Rest).str();
    }
  return D;
}

Error writeMergedDepFile(const std::string &PathAsGiven, ArrayRef<std::string> Targets,
                         ArrayRef<std::string> Inputs, bool Phony, StringRef SkipDir,
                         ArrayRef<std::string> Sources, ArrayRef<std::string> SkipFiles) {
  std::vector<std::string> Deps;
  StringSet<> Seen;  // by real path: g++ writes a header as the source named it, clang absolute
  StringMap<size_t> SpelledAt;  // real path -> its entry in Deps
  SmallString<256> Skip(SkipDir);
  sys::fs::make_absolute(Skip);
  SmallString<256> SkipReal;
  if (!SkipDir.empty() && sys::fs::real_path(Skip, SkipReal))
    SkipReal = Skip;
  // The sources first, as g++ writes them (a lambda file's compiles read its rewrite, which
  // named the source nowhere: make and Ninja then missed its edits).
  for (const std::string &Source : Sources) {
    SmallString<256> Real;
    if (sys::fs::real_path(Source, Real))
      Real = Source;
    if (Seen.insert(Real).second)
      Deps.push_back(Source);
  }
  for (const std::string &In : Inputs) {
    auto Buffer = MemoryBuffer::getFile(In, /*IsText=*/true);
    if (!Buffer)
      continue;  // that compile did not run (no kernels, no such architecture)
    for (std::string &D : readDepFileText((*Buffer)->getBuffer())) {
      SmallString<256> Real;
      if (sys::fs::real_path(D, Real))
        Real = D;
      StringRef Name = sys::path::filename(Real);
      if (sys::path::extension(Real) == ".pch")
        continue;  // offload's precompiled headers (OffloadPch.h): a cache, not a source
      (void)Name;
      if (!SkipDir.empty() && (StringRef(Real).starts_with((Skip + "/").str()) ||
                               StringRef(Real).starts_with((SkipReal + "/").str())))
        continue;  // offload-cxx's generated files (the device source, a lambda file's
                   // rewrite), gone after the build: make stopped at "No rule to make target"
      if (llvm::is_contained(SkipFiles, D) || llvm::is_contained(SkipFiles, Real))
        continue;
      if (Seen.insert(Real).second) {
        SpelledAt[Real] = Deps.size();
        Deps.push_back(asUserSpelled(std::move(D)));
      } else if (auto It = SpelledAt.find(Real); It != SpelledAt.end() &&
                 sys::path::is_absolute(Deps[It->second]) && sys::path::is_relative(D)) {
        // As g++ spelled it (`inc/gen.h` through -Iinc), not clang's absolute path: make and
        // Ninja take the two for different files, and a rule that makes the header was never
        // used (adversarial pass).
        Deps[It->second] = std::move(D);
      }
    }
  }
  // Whole or not at all: a temporary beside it, renamed over it (over the file a symbolic
  // link names: g++ writes through it).
  const std::string Path = throughSymlink(PathAsGiven);
  SmallString<256> Temp;
  int FD = -1;
  StringRef Dir = sys::path::parent_path(Path);
  SmallString<256> Model(Dir.empty() ? "." : Dir);
  sys::path::append(Model, sys::path::filename(Path) + ".tmp-%%%%%%");
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Temp))
    return createFileError(Path, EC);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << depFileText(Targets, Deps, Phony);
    OS.close();
    if (std::error_code EC = OS.error()) {
      OS.clear_error();  // (reported here, by name: not by the stream's destructor)
      sys::fs::remove(Temp);
      return createFileError(Path, EC);
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return createFileError(Path, EC);
  }
  return Error::success();
}

Error retargetRewriteDepFile(const std::string &Path, StringRef Source, StringRef Rewrite,
                             StringRef SkipDir, ArrayRef<std::string> More) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return Error::success();  // the compile wrote none (it failed, or the file went elsewhere)
  StringRef Text = (*Buffer)->getBuffer();
  // The first rule's targets, as written (already escaped for make).
  size_t Colon = 0;
  while ((Colon = Text.find(':', Colon)) != StringRef::npos &&
         Colon + 1 < Text.size() && !StringRef(" \t\n\r").contains(Text[Colon + 1]))
    ++Colon;
  std::string Targets = Colon == StringRef::npos ? "" : Text.take_front(Colon).rtrim().str();
  const std::string FromRewrite = sys::path::stem(Rewrite).str() + ".o";
  if (Targets.empty() || Targets == escapeForMake(FromRewrite))
    Targets = escapeForMake(sys::path::stem(Source).str() + ".o");
  std::vector<std::string> Inputs = {Path};
  Inputs.insert(Inputs.end(), More.begin(), More.end());
  return writeMergedDepFile(Path, {Targets}, Inputs, /*Phony=*/false, SkipDir, {Source.str()});
}

} // namespace offload::compiler
