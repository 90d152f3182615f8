// compiler/DeviceDiagnostics.cpp — see DeviceDiagnostics.h.
#include "DeviceDiagnostics.h"
#include <cstring>

#include "llvm/Support/Path.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace offload::compiler {

std::string tidyDeviceDiagnostics(StringRef Text, StringRef TempDir, StringRef IncludeDir) {
  auto Ours = [&](StringRef Path) {
    return (!TempDir.empty() && Path.starts_with(TempDir)) ||
           (!IncludeDir.empty() && Path.starts_with(IncludeDir));
  };
  // "PATH:LINE:COL: KIND: ..." starts a diagnostic; the lines after it (the source line and its
  // caret) belong to it.
  static const Regex Start("^(.+):[0-9]+:[0-9]+: (fatal error|error|warning|note): ");
  SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  // A generated entry is numbered as its kernel's declaration (lineDirective): clang then quotes
  // the entry's text as that line of the user's file. The quote and its caret are left out, and
  // notes about the entry itself ("called by '__offload_entry...'").
  static const Regex EntryQuote("^ *[0-9]+ \\| .*__offload_(cpu_)?entry");
  bool Dropping = false, DropCaret = false;
  if (!Lines.empty() && Lines.back().empty())
    Lines.pop_back();
  for (StringRef Line : Lines) {
    SmallVector<StringRef, 3> M;
    if (DropCaret) {
      DropCaret = false;
      if (Line.trim().starts_with("|"))
        continue;
    }
    if (EntryQuote.match(Line)) {
      DropCaret = true;
      continue;
    }
    if (Line.starts_with("In file included from ") || Line.starts_with("                 from ")) {
      // "In file included from PATH:LINE:" / "                 from PATH:LINE,"
      StringRef Path = Line.drop_front(22).trim().rsplit(':').first;
      if (Ours(Path))
        continue;
      Dropping = false;
    } else if (Start.match(Line, &M)) {
      Dropping = M[2] == "note" && (Ours(M[1]) || Line.contains("'__offload_entry"));
    }
    if (!Dropping) {
      Out += Line;
      Out += '\n';
    }
  }
  return Out;
}

std::string ptxasErrorsAtSource(StringRef PtxasStderr, StringRef PtxText, StringRef Arch) {
  SmallVector<StringRef> Ptx;
  PtxText.split(Ptx, '\n');
  // .file N "path"
  DenseMap<unsigned, std::string> Files;
  static const Regex FileDirective("^[[:space:]]*\\.file[[:space:]]+([0-9]+)[[:space:]]+\"([^\"]*)\"");
  for (StringRef L : Ptx) {
    SmallVector<StringRef, 3> M;
    if (FileDirective.match(L, &M)) {
      unsigned N = 0;
      if (!M[1].getAsInteger(10, N))
        Files[N] = M[2].str();
    }
  }
  static const Regex Loc("^[[:space:]]*\\.loc[[:space:]]+([0-9]+)[[:space:]]+([0-9]+)[[:space:]]+([0-9]+)");
  // (fatal: a syntax error, e.g. inline asm that is not PTX — said as an error at its line.)
  static const Regex PtxasError("^ptxas .*, line ([0-9]+); (error|warning|fatal)[[:space:]]*: (.*)$");
  SmallVector<StringRef> Lines;
  PtxasStderr.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Out;
  StringSet<> Said;
  for (StringRef Line : Lines) {
    SmallVector<StringRef, 4> M;
    unsigned At = 0;
    if (!PtxasError.match(Line, &M) || M[1].getAsInteger(10, At) || At == 0) {
      if (!Line.starts_with("ptxas fatal"))
        Out += (Line + "\n").str();
      continue;
    }
    std::string Place;
    // A syntax error is found at the token after the bad text ("near '.loc'"): the place is
    // that of the line before.
    const unsigned From = M[2] == "fatal" && At > 1 ? At - 1 : At;
    for (unsigned I = std::min<size_t>(From, Ptx.size()); I-- > 0;) {
      SmallVector<StringRef, 4> L;
      if (!Loc.match(Ptx[I], &L))
        continue;
      unsigned FileNo = 0;
      if (!L[1].getAsInteger(10, FileNo) && Files.count(FileNo) && L[2] != "0")
        Place = Files[FileNo] + ":" + L[2].str() + (L[3] != "0" ? ":" + L[3].str() : "");
      break;
    }
    std::string Said1 = (Place.empty() ? "the device code" : Place) + ": " +
                        (M[2] == "fatal" ? std::string("error") : M[2].str()) +
                        ": ptxas (" + Arch.str() + "): " + M[3].str();
    // A kernel's values by value travel in its parameters (offload/abi.hpp): too many of them
    // for the GPU's parameter space is said in the kernel's terms.
    static const Regex TooMuch("Entry function '__offload_entry(_[^']*)' uses too much parameter "
                               "space \\((0x[0-9a-fA-F]+) bytes, (0x[0-9a-fA-F]+) max\\)");
    SmallVector<StringRef, 4> T;
    if (TooMuch.match(M[3], &T)) {
      unsigned long long Bytes = 0, Max = 0;
      T[2].drop_front(2).getAsInteger(16, Bytes);
      T[3].drop_front(2).getAsInteger(16, Max);
      std::string Kernel = llvm::demangle(T[1].str());
      Kernel = Kernel.substr(0, Kernel.find('('));  // the name, not its parameters' types
      Said1 = (Place.empty() ? "the device code" : Place) + ": error: kernel '" + Kernel +
              "' takes " + std::to_string(Bytes) +
              " bytes of parameters, more than the " + std::to_string(Max) + " that " +
              Arch.str() +
              " accepts (each value of up to 1 KiB passed by value travels in them): pass some "
              "of the large structs by const pointer, or in an offload::buffer";
    }
    if (Said.insert(Said1).second)
      Out += Said1 + "\n";
  }
  return Out;
}

std::string deviceErrorSummary(StringRef Tidied, StringRef Arch,
                               ArrayRef<std::pair<std::string, std::string>> Kernels) {
  // The first error's place and words: "FILE:LINE:COL: error: MESSAGE".
  SmallVector<StringRef> Lines;
  Tidied.split(Lines, '\n');
  for (StringRef Line : Lines) {
    const size_t At = Line.find(": error: ");
    if (At == StringRef::npos)
      continue;
    StringRef Place = Line.take_front(At), Message = Line.drop_front(At + strlen(": error: "));
    // FILE:LINE[:COL]
    StringRef File = Place;
    unsigned ErrorLine = 0;
    for (int Part = 0; Part < 2; ++Part) {
      auto [Head, Tail] = File.rsplit(':');
      unsigned N = 0;
      if (Tail.empty() || Tail.getAsInteger(10, N))
        break;
      File = Head;
      ErrorLine = N;  // the last number taken is the line
    }
    // The kernel declared nearest before that line in that file, when one is.
    std::string Kernel;
    unsigned Best = 0;
    for (const auto &[Name, DeclaredAt] : Kernels) {
      auto [DeclFile, DeclLine] = StringRef(DeclaredAt).rsplit(':');
      unsigned N = 0;
      if (DeclLine.getAsInteger(10, N) || sys::path::filename(File) != DeclFile || N > ErrorLine ||
          N < Best)
        continue;
      Best = N;
      Kernel = Name;
    }
    if (Kernel.empty() && Kernels.size() == 1)
      Kernel = Kernels.front().first;
    return (Place + ": " + Message + " (" +
            (Kernel.empty() ? std::string("the device code") : "kernel '" + Kernel + "'") +
            ", compiled for " + Arch + ")")
        .str();
  }
  return "";
}

} // namespace offload::compiler
