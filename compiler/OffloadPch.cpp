// compiler/OffloadPch.cpp — see OffloadPch.h.
#include "OffloadPch.h"

#include "llvm/ADT/ScopeExit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <unistd.h>

using namespace llvm;

namespace offload::compiler {

static std::optional<std::string> cacheDir() {
  if (const char *Off = std::getenv("OFFLOAD_CXX_PCH"); Off && StringRef(Off) == "0")
    return std::nullopt;
  SmallString<256> Dir;
  if (const char *Chosen = std::getenv("OFFLOAD_CXX_PCH_CACHE"); Chosen && *Chosen) {
    Dir = Chosen;
  } else if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg) {
    Dir = Xdg;
    sys::path::append(Dir, "offload-cxx", "pch");
  } else if (const char *Home = std::getenv("HOME"); Home && *Home) {
    Dir = Home;
    sys::path::append(Dir, ".cache", "offload-cxx", "pch");
  } else {
    return std::nullopt;
  }
  if (sys::fs::create_directories(Dir))
    return std::nullopt;
  return std::string(Dir);
}

/// What the precompiled header depends on: the compiler, the flags, and every offload header
/// (name, size, time): an edited header or another clang makes another file.
static std::string cacheKey(const std::string &Clang, const std::string &IncludeDir,
                            ArrayRef<std::string> Flags) {
  SHA256 Hash;
  auto add = [&](StringRef S) {
    Hash.update(S);
    Hash.update(StringRef("\0", 1));
  };
  auto addFile = [&](StringRef Path) {
    sys::fs::file_status St;
    if (sys::fs::status(Path, St))
      return;
    add(Path);
    add(std::to_string(St.getSize()));
    add(std::to_string(St.getLastModificationTime().time_since_epoch().count()));
  };
  add(OFFLOAD_CXX_PCH_VERSION);
  addFile(Clang);
  for (const std::string &F : Flags)
    add(F);
  SmallString<256> Headers(IncludeDir);
  sys::path::append(Headers, "offload");
  std::error_code EC;
  std::vector<std::string> Files;
  for (sys::fs::recursive_directory_iterator It(Headers, EC), End; !EC && It != End;
       It.increment(EC))
    Files.push_back(It->path());
  llvm::sort(Files);
  for (const std::string &F : Files)
    addFile(F);
  return toHex(Hash.final(), /*LowerCase=*/true).substr(0, 32);
}

/// How many precompiled headers (~13 MB each) the cache keeps: $OFFLOAD_CXX_PCH_KEEP (1 to
/// 1000), else 12. A build whose files use many sets of flags (a test suite) keeps more.
static size_t pchKept() {
  constexpr size_t Default = 12;
  const char *Text = std::getenv("OFFLOAD_CXX_PCH_KEEP");
  unsigned long long N = 0;
  if (!Text || getAsUnsignedInteger(StringRef(Text).trim(), 10, N) || N < 1 || N > 1000)
    return Default;
  return static_cast<size_t>(N);
}

/// At most pchKept() precompiled headers stay: the least recently used go, with their checksums.
static void pruneCache(StringRef Dir) {
  const size_t MaxKept = pchKept();
  std::vector<std::pair<sys::TimePoint<>, std::string>> Files;
  std::error_code EC;
  const auto DayAgo = std::chrono::system_clock::now() - std::chrono::hours(24);
  for (sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End; It.increment(EC)) {
    sys::fs::file_status St;
    if (sys::fs::status(It->path(), St))
      continue;
    if (sys::path::extension(It->path()) == ".pch")
      Files.emplace_back(St.getLastModificationTime(), It->path());
    else if (StringRef(It->path()).contains(".pch.tmp") && St.getLastModificationTime() < DayAgo)
      sys::fs::remove_directories(It->path()), sys::fs::remove(It->path());  // an older build's, killed
  }
  if (Files.size() <= MaxKept)
    return;
  llvm::sort(Files);
  for (size_t I = 0; I + MaxKept < Files.size(); ++I) {
    sys::fs::remove(Files[I].second);
    sys::fs::remove(Files[I].second + ".sum");
  }
}

/// The checksum kept beside a precompiled header (`<file>.sum`): its size and xxh3 of its bytes.
static std::optional<std::string> checksum(StringRef Path) {
  sys::fs::file_status St;
  if (sys::fs::status(Path, St) || !sys::fs::is_regular_file(St))  // never open a pipe
    return std::nullopt;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Bytes =
      MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Bytes)
    return std::nullopt;
  return std::to_string((*Bytes)->getBufferSize()) + " " +
         utohexstr(xxh3_64bits(arrayRefFromStringRef((*Bytes)->getBuffer())));
}

/// Whether the cached file at Pch is whole: a regular file whose checksum is the one written
/// when it was made. clang reads a damaged one with no check of its own (random bytes in its
/// middle crashed the in-process parse: adversarial pass).
/// Removes a damaged cached PCH and its checksum (a pipe or socket in its place too: LLVM's
/// remove takes only files, folders and links); the error when the PCH stays.
static std::error_code removeCachedPch(const std::string &Pch) {
  std::error_code Removed = sys::fs::remove(Pch);
  if (Removed && ::unlink(Pch.c_str()) == 0)
    Removed.clear();
  sys::fs::remove(Pch + ".sum");
  return Removed;
}

static bool intact(StringRef Pch) {
  std::optional<std::string> Now = checksum(Pch);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Kept = MemoryBuffer::getFile(Pch + ".sum");
  return Now && Kept && (*Kept)->getBuffer().trim() == *Now;
}

bool pchKeepsMeaning(StringRef Source, ArrayRef<std::string> Flags) {
  for (const std::string &F : Flags)
    if (StringRef(F).starts_with("-include") || StringRef(F).starts_with("-imacros") ||
        StringRef(F).starts_with("--include"))
      return false;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Source);
  if (!Text)
    return false;
  StringRef Rest = (*Text)->getBuffer();
  while (true) {
    Rest = Rest.ltrim(" \t\r\n\f\v");
    if (Rest.consume_front("//")) {
      do {  // a `//` comment goes on past a backslash at its line's end
        const size_t End = Rest.find('\n');
        StringRef Line = Rest.substr(0, End);
        Rest = End == StringRef::npos ? StringRef() : Rest.drop_front(End + 1);
        if (!Line.rtrim(" \t\r").ends_with("\\"))
          break;
      } while (!Rest.empty());
      continue;
    }
    if (Rest.consume_front("/*")) {
      const size_t End = Rest.find("*/");
      if (End == StringRef::npos)
        return false;
      Rest = Rest.drop_front(End + 2);
      continue;
    }
    if (!Rest.consume_front("#"))
      return false;  // code, or the end: no offload include first
    const size_t End = Rest.find('\n');
    StringRef Directive = Rest.substr(0, End).trim();
    Rest = End == StringRef::npos ? StringRef() : Rest.drop_front(End + 1);
    if (Directive.contains("/*") || Directive.contains("//") || Directive.ends_with("\\"))
      return false;  // not worth reading further
    if (Directive == "pragma once" || Directive.starts_with("line ") ||
        (!Directive.empty() && isDigit(Directive.front())))
      continue;  // (a lambda file's rewrite starts with `#line 1 "k.cpp"`)
    if (!Directive.consume_front("include"))
      return false;  // #define, #undef, #if...: they may change what the headers mean
    Directive = Directive.ltrim(" \t");
    if (Directive.starts_with("<offload/") || Directive.starts_with("\"offload/"))
      return true;
    if (!Directive.starts_with("<"))
      return false;  // a project's header may define what the headers read
  }
}


/// The cached precompiled offload.hpp for KeyFlags (with Clang and the headers, the cache key),
/// built by the command Build(header, output) when the cache holds none.
static std::optional<std::string>
cachedPch(const std::string &Clang, const std::string &IncludeDir, ArrayRef<std::string> KeyFlags,
          function_ref<std::vector<std::string>(StringRef Header, StringRef Output)> BuildCommand,
          const CommandOptions &Commands) {
  std::optional<std::string> Dir = cacheDir();
  if (!Dir)
    return std::nullopt;
  SmallString<256> Pch(*Dir);
  sys::path::append(Pch, cacheKey(Clang, IncludeDir, KeyFlags) + ".pch");
  if (sys::fs::exists(Pch) && !Commands.DryRun && !intact(Pch)) {
    // Damaged (or made before checksums, or not a file at all): removed and made anew; where it
    // cannot be removed (a read-only cache), the compile parses the headers.
    std::error_code Removed = removeCachedPch(std::string(Pch));
    if (Removed || sys::fs::exists(Pch)) {
      errs() << "offload-cxx: warning: the precompiled offload.hpp '" << Pch
             << "' is damaged and cannot be removed (" << (Removed ? Removed.message() : "still there")
             << "): compiles parse the headers instead\n";
      return std::nullopt;
    }
  }
  if (sys::fs::exists(Pch)) {
    // Used: newest for the pruning below.
    int FD = -1;
    if (!sys::fs::openFileForWrite(Pch, FD, sys::fs::CD_OpenExisting, sys::fs::OF_Append)) {
      (void)sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
      sys::Process::SafelyCloseFileDescriptor(FD);
    }
    return std::string(Pch);
  }
  if (Commands.DryRun)  // not built by a dry run: the compile shown parses the headers
    return std::nullopt;
  // Built in a folder of its own beside its place and renamed there: builds that race each
  // write their own; an interrupted build removes the folder with what clang had written in it
  // (its output, its own temporary, the diagnostics), as it removes its temporary folder.
  SmallString<256> Work;
  if (sys::fs::createUniqueDirectory(Pch + ".tmp", Work))
    return std::nullopt;
  removeOnSignal(std::string(Work));
  llvm::scope_exit RemoveWork([&] { sys::fs::remove_directories(Work); });
  SmallString<256> Temp(Work);
  sys::path::append(Temp, "header.pch");
  SmallString<256> Header(IncludeDir);
  sys::path::append(Header, "offload", "offload.hpp");
  std::vector<std::string> Build = BuildCommand(Header, Temp);
  // A header the user's flags break (-DA=3 against a template parameter A) is no error of
  // theirs: the compile then parses the headers itself, and says what it says.
  std::string Diagnostics;
  if (Error E = runCommandCapturingErrors(Build, Commands, std::string(Temp) + ".stderr",
                                          Diagnostics)) {
    consumeError(std::move(E));
    return std::nullopt;
  }
  // Its checksum first, then the file: a reader that finds the file finds its checksum (a
  // build racing this one may pair another's; then the next use makes it again).
  std::optional<std::string> Sum = checksum(Temp);
  if (!Sum)
    return std::nullopt;
  {
    std::error_code EC;
    raw_fd_ostream Out((Temp + ".sum").str(), EC);
    if (EC)
      return std::nullopt;
    Out << *Sum << "\n";
    Out.close();
    if (Out.has_error()) {  // a disk full: no cached header this time (not the stream's abort)
      Out.clear_error();
      sys::fs::remove((Temp + ".sum").str());
      sys::fs::remove(Temp);
      return std::nullopt;
    }
  }
  if (sys::fs::rename((Temp + ".sum").str(), (Pch + ".sum").str()) || sys::fs::rename(Temp, Pch))
    return std::nullopt;
  pruneCache(*Dir);
  return std::string(Pch);
}


std::optional<std::string> offloadPch(const std::string &Clang, const std::string &IncludeDir,
                                      ArrayRef<std::string> Flags, const CommandOptions &Commands) {
  // The flags of the header's own compile: not the files the compile includes before its source
  // (-include: they come after the precompiled header, as the source's own lines do).
  std::vector<std::string> HeaderFlags;
  for (size_t I = 0; I < Flags.size(); ++I) {
    if ((Flags[I] == "-include" || Flags[I] == "-imacros" || Flags[I] == "-include-pch") &&
        I + 1 < Flags.size()) {
      ++I;
      continue;
    }
    HeaderFlags.push_back(Flags[I]);
  }
  return cachedPch(Clang, IncludeDir, HeaderFlags,
                   [&](StringRef Header, StringRef Output) {
                     std::vector<std::string> Build = {Clang, "-x", "c++-header"};
                     Build.insert(Build.end(), HeaderFlags.begin(), HeaderFlags.end());
                     Build.insert(Build.end(), {Header.str(), "-o", Output.str()});
                     return Build;
                   },
                   Commands);
}

std::optional<std::string> deviceOffloadPch(ArrayRef<std::string> Cc1, const std::string &IncludeDir,
                                            const CommandOptions &Commands) {
  if (Cc1.size() < 2 || Cc1[1] != "-cc1" || !llvm::is_contained(Cc1, "-emit-llvm-bc"))
    return std::nullopt;
  // What names this compile's own files (its input, output, dependency file, temporary folder,
  // working folder) is left out: the header's compile is the same for every file with these
  // flags. The prefix maps name the temporary folder and the source, never offload's headers.
  // The driver's own `-include __clang_openmp_device_functions.h` is in the header's compile
  // (the user's -include never reaches here: pchKeepsMeaning); included again after the PCH,
  // its guard makes it nothing.
  std::vector<std::string> Flags;
  for (size_t I = 1; I < Cc1.size(); ++I) {
    StringRef A = Cc1[I];
    if (A == "-main-file-name" || A == "-o" || A == "-dumpdir" || A == "-dependency-file" ||
        A == "-MT" || A == "-MQ" || A == "-include-pch" || A == "-x") {
      I += A == "-x" ? 2 : 1;  // -x c++ SOURCE
      continue;
    }
    if (A == "-sys-header-deps" || A == "-MP" || A.starts_with("-fmacro-prefix-map=") ||
        A.starts_with("-fdebug-prefix-map=") || A.starts_with("-fcoverage-prefix-map=") ||
        A.starts_with("-ffile-prefix-map=") || A.starts_with("-fdebug-compilation-dir=") ||
        A.starts_with("-fcoverage-compilation-dir="))
      continue;
    Flags.push_back(A == "-emit-llvm-bc" ? "-emit-pch" : A.str());
  }
  return cachedPch(Cc1[0], IncludeDir, Flags,
                   [&](StringRef Header, StringRef Output) {
                     std::vector<std::string> Build = {Cc1[0]};
                     Build.insert(Build.end(), Flags.begin(), Flags.end());
                     Build.insert(Build.end(), {"-x", "c++-header", Header.str(), "-o", Output.str()});
                     return Build;
                   },
                   Commands);
}

Error compileWithCachedPch(ArrayRef<std::string> Compile, const std::optional<std::string> &Pch,
                           const std::string &StderrFile, const CommandOptions &Commands,
                           std::string *Kept) {
  std::string Messages;
  auto show = [&] {  // the compile's messages: its warnings, or the user's errors
    if (Kept)
      *Kept += Messages;
    else
      errs() << Messages;
    Messages.clear();
  };
  if (!Pch || Commands.DryRun) {
    if (!Kept)
      return runCommand(Compile, Commands);
    Error E = runCommandCapturingErrors(Compile, Commands, StderrFile, Messages);
    show();
    return E;
  }
  Error WithPch = runCommandCapturingErrors(Compile, Commands, StderrFile, Messages);
  if (!WithPch) {
    show();
    return Error::success();
  }
  std::vector<std::string> Without;
  for (size_t I = 0; I < Compile.size(); ++I) {
    if (Compile[I] == "-include-pch" && I + 1 < Compile.size() && Compile[I + 1] == *Pch) {
      ++I;
      continue;
    }
    Without.push_back(Compile[I]);
  }
  consumeError(std::move(WithPch));
  Messages.clear();
  Error Again = runCommandCapturingErrors(Without, Commands, StderrFile, Messages);
  show();
  if (Again)
    return Again;
  std::error_code Removed = removeCachedPch(*Pch);
  errs() << "offload-cxx: warning: the precompiled offload.hpp '" << *Pch << "' could not be read (damaged); "
         << (Removed ? "it cannot be removed (" + Removed.message() + "): compiles parse the headers instead\n"
                     : std::string("removed: the next build makes it again\n"));
  return Error::success();
}

} // namespace offload::compiler
