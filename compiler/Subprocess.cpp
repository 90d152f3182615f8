// compiler/Subprocess.cpp — see Subprocess.h.
#include "Subprocess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace offload::compiler {

static void printCommand(ArrayRef<std::string> Argv) {
  for (size_t I = 0; I < Argv.size(); ++I) {
    StringRef A = Argv[I];
    bool Quote = A.find_first_of(" \t\"'$*?()<>;&|") != StringRef::npos || A.empty();
    errs() << (I ? " " : "  ") << (Quote ? "\"" : "") << A << (Quote ? "\"" : "");
  }
  errs() << "\n";
}

// An interrupted driver ends the commands it is running (runSignalCleanup).
static void watchChild(pid_t Pid);
static void forgetChild(pid_t Pid);
static sys::ProcessInfo spawnWatched(ArrayRef<StringRef> Args,
                                     ArrayRef<std::optional<StringRef>> Redirects,
                                     std::string *ErrMsg, bool *Failed);

static Error run(ArrayRef<std::string> Argv, const CommandOptions &Options,
                 const std::string *StderrFile);

Error runCommand(ArrayRef<std::string> Argv, const CommandOptions &Options) {
  return run(Argv, Options, nullptr);
}

Error runCommandCapturingErrors(ArrayRef<std::string> Argv, const CommandOptions &Options,
                                const std::string &StderrFile, std::string &Stderr) {
  Error E = run(Argv, Options, &StderrFile);
  if (!Options.DryRun)
    if (auto Text = MemoryBuffer::getFile(StderrFile)) {
      Stderr = (*Text)->getBuffer().str();
      sys::fs::remove(StderrFile);
    }
  return E;
}

static Error run(ArrayRef<std::string> Argv, const CommandOptions &Options,
                 const std::string *StderrFile) {
  assert(!Argv.empty() && "a command needs a program");
  if (Options.Verbose || Options.DryRun)
    printCommand(Argv);
  if (Options.DryRun)
    return Error::success();
  SmallVector<StringRef, 32> Args(Argv.begin(), Argv.end());
  std::string ErrMsg;
  auto Start = std::chrono::steady_clock::now();
  std::optional<StringRef> Redirects[3] = {std::nullopt, std::nullopt, std::nullopt};
  if (StderrFile)
    Redirects[2] = StringRef(*StderrFile);
  bool Failed = false;
  sys::ProcessInfo Child = spawnWatched(Args,
                                       StderrFile ? ArrayRef<std::optional<StringRef>>(Redirects)
                                                  : ArrayRef<std::optional<StringRef>>{},
                                       &ErrMsg, &Failed);
  int RC = -1;
  if (!Failed) {
    RC = sys::Wait(Child, /*SecondsToWait=*/std::nullopt, &ErrMsg).ReturnCode;
    forgetChild(Child.Pid);
  }
  std::chrono::duration<double, std::milli> Took = std::chrono::steady_clock::now() - Start;
  reportTime(sys::path::filename(Argv[0]), Took.count(), Options);
  StringRef Tool = sys::path::filename(Argv[0]);
  if (RC < 0)
    return createStringError(inconvertibleErrorCode(),
                             Failed ? "'%s' could not run: %s" : "'%s' was ended: %s (a limit such "
                                                                 "as `ulimit -v` or `ulimit -f`?)",
                             Tool.str().c_str(), ErrMsg.c_str());
  if (RC > 0)
    return createStringError(inconvertibleErrorCode(), "'%s' failed (exit %d)", Tool.str().c_str(),
                             RC);
  return Error::success();
}

std::string tempStem(StringRef Path) { return sys::path::stem(Path).take_front(48).str(); }

void appendUserCompileFlags(std::vector<std::string> &Args, ArrayRef<std::string> UserFlags) {
  if (llvm::none_of(UserFlags, [](StringRef A) { return A.starts_with("-std=") || A == "-ansi"; }))
    Args.push_back("-std=c++20");
  Args.insert(Args.end(), UserFlags.begin(), UserFlags.end());
}

static std::string GccHostCompiler;

void setGccHostCompiler(const std::string &HostCompiler) {
  const StringRef Name = sys::path::filename(HostCompiler);
  GccHostCompiler = Name.contains("clang") ? "" : HostCompiler;
}

/// "12.2.0" of `g++ -dumpfullversion`, once; empty if it cannot be read.
static const std::string &gccVersion() {
  static const std::string Version = [] {
    if (GccHostCompiler.empty())
      return std::string();
    ErrorOr<std::string> Path = sys::findProgramByName(GccHostCompiler);
    if (!Path)
      return std::string();
    SmallString<128> Out;
    if (sys::fs::createTemporaryFile("offload-cxx-gcc-version", "txt", Out))
      return std::string();
    const std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out), StringRef("")};
    const int Rc = sys::ExecuteAndWait(*Path, {*Path, "-dumpfullversion"}, std::nullopt, Redirects);
    auto Text = MemoryBuffer::getFile(Out);
    sys::fs::remove(Out);
    if (Rc != 0 || !Text)
      return std::string();
    const StringRef V = (*Text)->getBuffer().trim();
    const bool Dotted = !V.empty() && llvm::all_of(V, [](char C) { return llvm::isDigit(C) || C == '.'; });
    return Dotted ? V.str() : std::string();
  }();
  return Version;
}

/// g++'s predefined macros under `Flags` (a -std=, -fopenmp, -specs=F), from `g++ FLAGS -dM -E`
/// once per set of flags: name ("F" of `F(x)` too) to its definition as -D spells it
/// ("F(x)=x", "X=1"); empty if they cannot be read.
static const std::map<std::string, std::string> &gccMacros(ArrayRef<std::string> Flags) {
  static std::map<std::string, std::map<std::string, std::string>> Known;
  static std::mutex Lock;
  std::lock_guard Guard(Lock);
  std::string Key;
  for (const std::string &F : Flags)
    Key += F + '\n';
  auto [It, New] = Known.try_emplace(Key);
  if (!New || GccHostCompiler.empty())
    return It->second;
  ErrorOr<std::string> Path = sys::findProgramByName(GccHostCompiler);
  SmallString<128> Out;
  if (!Path || sys::fs::createTemporaryFile("offload-cxx-gcc-macros", "txt", Out))
    return It->second;
  std::vector<StringRef> Args = {*Path};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  Args.insert(Args.end(), {"-dM", "-E", "-x", "c++", "/dev/null"});
  const std::optional<StringRef> Redirects[] = {StringRef("/dev/null"), StringRef(Out), StringRef("")};
  const int Rc = sys::ExecuteAndWait(*Path, Args, std::nullopt, Redirects);
  auto Text = MemoryBuffer::getFile(Out);
  sys::fs::remove(Out);
  if (Rc != 0 || !Text)
    return It->second;
  SmallVector<StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  for (StringRef L : Lines)
    if (L.consume_front("#define ")) {
      // "NAME VALUE" or "NAME(ARGS) VALUE": the name ends at the first space or '('.
      const size_t NameEnd = L.find_first_of(" (");
      const StringRef Name = L.take_front(NameEnd);
      size_t DefEnd = NameEnd;
      if (NameEnd != StringRef::npos && L[NameEnd] == '(')
        if (DefEnd = L.find(')', NameEnd); DefEnd != StringRef::npos)
          ++DefEnd;
      const StringRef Head = L.take_front(DefEnd);
      const StringRef Value = DefEnd == StringRef::npos ? "" : L.drop_front(DefEnd).ltrim();
      It->second[Name.str()] = (Head + "=" + Value).str();
    }
  return It->second;
}

static std::string gccMacro(ArrayRef<std::string> Flags, StringRef Name) {
  const std::map<std::string, std::string> &Macros = gccMacros(Flags);
  auto M = Macros.find(Name.str());
  return M == Macros.end() ? "" : StringRef(M->second).split('=').second.str();
}

static std::vector<std::string> GccMacroFlags;

void setGccMacroFlags(std::vector<std::string> Flags) { GccMacroFlags = std::move(Flags); }

void appendUserFlagsForClang(std::vector<std::string> &Args, ArrayRef<std::string> UserFlags) {
  appendUserCompileFlags(Args, UserFlags);
  // Past C++20 the two compilers' `__cplusplus` differ (g++ 12's -std=c++23 is 202100L, clang
  // 22's 202302L): code that picks a type by it gave a kernel's parameter one layout on the host
  // and another on the device, and the kernel read it wrong without a word (fourteenth
  // adversarial pass). Every clang compile of the file is told g++'s value.
  StringRef Std;
  for (StringRef A : UserFlags)
    if (A.starts_with("-std="))
      Std = A;
  if (!Std.empty() && !llvm::is_contained({"-std=c++20", "-std=gnu++20", "-std=c++2a", "-std=gnu++2a"}, Std))
    if (const std::string V = gccMacro({Std.str()}, "__cplusplus"); !V.empty())
      Args.push_back("-D__cplusplus=" + V);
  // The macros g++ defines or changes under -pthread, -fopenmp, -specs and --param (_REENTRANT,
  // _OPENMP, a specs file's, __GCC_DESTRUCTIVE_SIZE), which code may test to pick a type or a
  // value: clang's compiles get g++'s definitions (a GPU compile, an OpenMP device compile,
  // defines _OPENMP in any case).
  if (!GccMacroFlags.empty()) {
    const std::map<std::string, std::string> &With = gccMacros(GccMacroFlags), &Without = gccMacros({});
    for (const auto &[Name, Definition] : With)
      if (auto W = Without.find(Name); W == Without.end() || W->second != Definition)
        Args.push_back("-D" + Definition);
    for (const auto &[Name, Definition] : Without)
      if (!With.count(Name))
        Args.push_back("-U" + Name);
    // g++ -E does not apply --param to its macros (GCC 12: __GCC_DESTRUCTIVE_SIZE stays 64 under
    // `--param destructive-interference-size=128`, which its compiles see): read from the flag.
    for (size_t I = 0; I < GccMacroFlags.size(); ++I) {
      StringRef Param = GccMacroFlags[I];
      if (Param == "--param" && I + 1 < GccMacroFlags.size())
        Param = GccMacroFlags[++I];
      else if (!Param.consume_front("--param="))
        continue;
      auto [Name, Value] = Param.split('=');
      if (Name == "destructive-interference-size")
        Args.push_back(("-D__GCC_DESTRUCTIVE_SIZE=" + Value).str());
      else if (Name == "constructive-interference-size")
        Args.push_back(("-D__GCC_CONSTRUCTIVE_SIZE=" + Value).str());
    }
  }
  // glibc's fortified wrappers (-D_FORTIFY_SOURCE with -O, dpkg-buildflags' and Fedora's
  // defaults) are GCC's own (__builtin_va_arg_pack): with g++'s __GNUC__ and __OPTIMIZE__ they
  // broke every kernel file's clang compiles (adversarial pass). Kernels call no glibc I/O;
  // the host compile keeps the user's fortification.
  Args.push_back("-U_FORTIFY_SOURCE");
  Args.push_back("-w");
  // A clang that fails (memory runs out under `ulimit -v`) leaves no reproducer in our folder.
  Args.push_back("-fno-crash-diagnostics");
  if (const std::string &V = gccVersion(); !V.empty())
    Args.push_back("-fgnuc-version=" + V);
}

static std::vector<std::string> ProtectedFiles;

void protectFiles(ArrayRef<std::string> Paths) {
  for (const std::string &P : Paths)
    if (sys::fs::exists(P))
      ProtectedFiles.push_back(P);
}

Error writeFile(StringRef Path, StringRef Contents) {
  // A generated file never replaces an input (adversarial pass: `-save-temps solver.cpu.cpp -o
  // solver` kept its CPU image's source as solver.cpu.cpp, over the user's).
  for (const std::string &P : ProtectedFiles) {
    bool Same = false;
    if (!sys::fs::equivalent(P, Path, Same) && Same)
      return createStringError(inconvertibleErrorCode(),
                               "'%s' would be written over by a temporary file of this build "
                               "(-save-temps keeps them beside the output, named after it): "
                               "give the output another name, or leave -save-temps out",
                               P.c_str());
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return createFileError(Path, EC);
  OS << Contents;
  OS.close();
  if (std::error_code EC = OS.error()) {
    OS.clear_error();  // (reported here, by name: not by the stream's destructor; a disk full)
    sys::fs::remove(Path);  // no empty or partial file left
    return createFileError(Path, EC);
  }
  return Error::success();
}

static double nowMilliseconds() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Expected<RunningCommand> startCommand(ArrayRef<std::string> Argv, const CommandOptions &Options) {
  RunningCommand C;
  C.Argv.assign(Argv.begin(), Argv.end());
  if (Options.Verbose || Options.DryRun)
    printCommand(Argv);
  if (Options.DryRun)
    return C;
  SmallVector<StringRef, 32> Args(Argv.begin(), Argv.end());
  std::string ErrMsg;
  bool Failed = false;
  C.StartMilliseconds = nowMilliseconds();
  C.Process = spawnWatched(Args, {}, &ErrMsg, &Failed);
  if (Failed)
    return createStringError(inconvertibleErrorCode(), "'%s' could not run: %s",
                             sys::path::filename(Argv[0]).str().c_str(), ErrMsg.c_str());
  C.Started = true;
  return C;
}

Error finishCommand(RunningCommand &C, const CommandOptions &Options) {
  if (!C.Started)
    return Error::success();
  std::string ErrMsg;
  sys::ProcessInfo Done = sys::Wait(C.Process, /*SecondsToWait=*/std::nullopt, &ErrMsg);
  forgetChild(C.Process.Pid);
  C.Started = false;
  StringRef Tool = sys::path::filename(C.Argv[0]);
  reportTime(Tool, nowMilliseconds() - C.StartMilliseconds, Options);
  if (Done.ReturnCode < 0)
    return createStringError(inconvertibleErrorCode(),
                             "'%s' was ended: %s (a limit such as `ulimit -v` or `ulimit -f`?)",
                             Tool.str().c_str(), ErrMsg.c_str());
  if (Done.ReturnCode > 0)
    return createStringError(inconvertibleErrorCode(), "'%s' failed (exit %d)",
                             Tool.str().c_str(), Done.ReturnCode);
  if (C.AfterSuccess)
    return std::exchange(C.AfterSuccess, nullptr)();
  return Error::success();
}

void reportTime(StringRef What, double Milliseconds, const CommandOptions &Options) {
  if (Options.Verbose)
    errs() << "offload-cxx: " << What << " took " << format("%.0f", Milliseconds) << " ms\n";
}

Expected<std::string> findTool(StringRef Name, ArrayRef<std::string> Candidates) {
  for (const std::string &C : Candidates)
    if (!C.empty() && sys::fs::can_execute(C))
      return C;
  if (Name.contains('/')) {
    if (ErrorOr<std::string> P = sys::findProgramByName(Name))
      return *P;
  } else if (const char *Path = std::getenv("PATH")) {
    // PATH's folders in order, but never offload-cxx itself: linked as `g++` in a folder before
    // g++'s (ccache's masquerade folder), it ran itself forever (adversarial pass).
    static const std::string Self = [] {
      SmallString<256> Real;
      return sys::fs::real_path("/proc/self/exe", Real) ? std::string() : std::string(Real);
    }();
    SmallVector<StringRef> Dirs;
    StringRef(Path).split(Dirs, ':');
    for (StringRef Dir : Dirs) {
      SmallString<256> Candidate(Dir.empty() ? "." : Dir);
      sys::path::append(Candidate, Name);
      if (!sys::fs::can_execute(Candidate) || sys::fs::is_directory(Candidate))
        continue;
      SmallString<256> Real;
      if (!Self.empty() && !sys::fs::real_path(Candidate, Real) && Real == Self)
        continue;
      return std::string(Candidate);
    }
  } else if (ErrorOr<std::string> P = sys::findProgramByName(Name)) {
    return *P;
  }
  return createStringError(inconvertibleErrorCode(), "cannot find '%s'", Name.str().c_str());
}

namespace {
char RmProgram[] = "/bin/rm";
char RmForce[] = "-rf";
char RmEnd[] = "--";
constexpr int MaxCleanupDirs = 4;
char *RmArgv[3 + MaxCleanupDirs + 1] = {RmProgram, RmForce, RmEnd};
std::atomic<int> CleanupDirs{0};
/// The commands running now (startCommand, runCommand): an interrupted driver ends them before
/// it removes their folder (else a compile still writing there left it behind).
std::atomic<pid_t> Children[16];
/// A signal that came while a command was being started (spawnWatched): its pid was not yet
/// among Children, so the cleanup would have missed it, and it went on writing into TMPDIR after
/// the driver ended (a timing-dependent folder left in e2e/interrupted_build). The handler notes
/// the signal and returns; spawnWatched ends the driver once the command is watched.
std::atomic<bool> Spawning{false};
std::atomic<int> DeferredSignal{0};
constexpr int DeferredInterrupt = -1;  // exitAfterSignalCleanup's (LLVM's interrupt function)
} // namespace

void removeOnSignal(const std::string &Dir) {
  const int N = CleanupDirs.load();
  if (N >= MaxCleanupDirs)
    return;
  RmArgv[3 + N] = ::strdup(Dir.c_str());  // kept for the process's life
  CleanupDirs.store(N + 1);
}

static void watchChild(pid_t Pid) {
  for (std::atomic<pid_t> &Slot : Children) {
    pid_t Free = 0;
    if (Slot.compare_exchange_strong(Free, Pid))
      return;
  }
}

static void forgetChild(pid_t Pid) {
  for (std::atomic<pid_t> &Slot : Children) {
    pid_t Was = Pid;
    if (Slot.compare_exchange_strong(Was, 0))
      return;
  }
}

namespace {
// (SIGXFSZ, SIGXCPU: a file size or CPU time limit ends the driver as it ends g++, cleaned up; kept
// ignored when ignored, so that a write past the limit is an error naming the file.)
constexpr int EndingSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ, SIGXCPU};
bool IgnoredAtStart[sizeof(EndingSignals) / sizeof(int)] = {};

void endBySignal(int Sig) {
  if (Spawning.load()) {
    DeferredSignal.store(Sig);
    return;
  }
  runSignalCleanup();
  struct sigaction Default = {};
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  ::sigaction(Sig, &Default, nullptr);
  sigset_t Only;
  sigemptyset(&Only);
  sigaddset(&Only, Sig);
  ::pthread_sigmask(SIG_UNBLOCK, &Only, nullptr);
  ::raise(Sig);
  ::_exit(128 + Sig);  // (a signal whose default action did not end the process)
}
} // namespace

void rememberStartingSignals() {
  for (size_t I = 0; I < std::size(EndingSignals); ++I) {
    struct sigaction Now;
    IgnoredAtStart[I] = ::sigaction(EndingSignals[I], nullptr, &Now) == 0 && Now.sa_handler == SIG_IGN;
  }
}

void handleEndingSignals() {
  for (size_t I = 0; I < std::size(EndingSignals); ++I) {
    struct sigaction Handler = {};
    Handler.sa_handler = IgnoredAtStart[I] ? SIG_IGN : endBySignal;
    sigfillset(&Handler.sa_mask);  // nothing else runs during the cleanup
    ::sigaction(EndingSignals[I], &Handler, nullptr);
  }
}

void exitAfterSignalCleanup() noexcept {
  if (Spawning.load()) {
    DeferredSignal.store(DeferredInterrupt);
    return;
  }
  runSignalCleanup();
  ::_exit(130);
}

static sys::ProcessInfo spawnWatched(ArrayRef<StringRef> Args,
                                     ArrayRef<std::optional<StringRef>> Redirects,
                                     std::string *ErrMsg, bool *Failed) {
  // A command longer than the system takes (a link of a response file of thousands of objects,
  // which offload-cxx reads and passes on: "Argument list too long", adversarial pass) passes
  // its arguments in a response file of its own, in the build's temporary folder (TMPDIR).
  SmallVector<StringRef, 8> Short;
  std::string ArgsFile;
  if (Args.size() > 1 && !sys::commandLineFitsWithinSystemLimits(Args[0], Args)) {
    SmallString<128> Path;
    std::string Text;
    for (StringRef A : Args.drop_front()) {
      for (char C : A) {
        if (C == '\\' || C == '"' || C == '\'' || isSpace(C))
          Text += '\\';
        Text += C;
      }
      Text += '\n';
    }
    // Removed when the driver ends (a command run as written has the user's TMPDIR).
    static struct ArgsFiles {
      std::vector<std::string> Paths;
      ~ArgsFiles() {
        for (const std::string &P : Paths)
          sys::fs::remove(P);
      }
    } Made;
    if (!sys::fs::createTemporaryFile("offload-cxx-args", "rsp", Path) &&
        (Made.Paths.push_back(std::string(Path)), !sys::writeFileWithEncoding(Path, Text))) {
      ArgsFile = "@" + std::string(Path);
      Short = {Args[0], ArgsFile};
      Args = Short;
    }
  }
  Spawning.store(true);
  sys::ProcessInfo Child = sys::ExecuteNoWait(Args[0], Args, /*Env=*/std::nullopt, Redirects,
                                              /*MemoryLimit=*/0, ErrMsg, Failed);
  if (!*Failed)
    watchChild(Child.Pid);
  Spawning.store(false);
  if (const int Sig = DeferredSignal.exchange(0)) {
    if (Sig == DeferredInterrupt)
      exitAfterSignalCleanup();
    endBySignal(Sig);
  }
  return Child;
}

std::string asOperand(StringRef Path) {
  return Path.starts_with("-") ? ("./" + Path).str() : Path.str();
}

namespace {
char ShellProgram[] = "/bin/sh";
char ShellName[] = "sh";
char ShellCommand[] = "-c";
/// Stops the processes under $1, parents first (none starts another meanwhile), then ends them,
/// children first: a command's whole tree — g++'s cc1plus and as, and collect2's ld, which a
/// signal to g++ or its children alone left running and writing the program after the driver had
/// gone (adversarial passes). Every process stopped is sent SIGTERM and SIGCONT once more at the
/// end (one that left the tree meanwhile — a vfork child that became collect2 — stayed stopped,
/// holding the build's stdout). Nothing if procps is not installed.
char EndTreeScript[] =
    "P=/usr/bin/pgrep; [ -x $P ] || exit 0; L=; "
    "s() { for c in $($P -P $1); do kill -STOP $c 2>/dev/null; L=\"$L $c\"; s $c; done; }; "
    "t() { for c in $($P -P $1); do t $c; kill -TERM $c 2>/dev/null; kill -CONT $c 2>/dev/null; done; }; "
    "s $1; t $1; for c in $L; do kill -TERM $c 2>/dev/null; kill -CONT $c 2>/dev/null; done";
/// Runs EndTreeScript for the processes under Pid. _Fork, execve and waitpid only.
void endChildrenOf(pid_t Pid) noexcept {
  char Number[24];
  char *At = Number + sizeof Number;
  *--At = '\0';
  do
    *--At = char('0' + Pid % 10);
  while ((Pid /= 10) > 0);
  char *Argv[] = {ShellProgram, ShellCommand, EndTreeScript, ShellName, At, nullptr};
  const pid_t Helper = ::_Fork();
  if (Helper == 0) {
    char Path[] = "PATH=/usr/bin:/bin";
    char *Environment[] = {Path, nullptr};
    ::execve(ShellProgram, Argv, Environment);
    ::_exit(127);
  }
  if (Helper > 0) {
    int Status;
    while (::waitpid(Helper, &Status, 0) < 0 && errno == EINTR) {
    }
  }
}
} // namespace

void runSignalCleanup() noexcept {
  const int Saved = errno;
  for (std::atomic<pid_t> &Slot : Children)
    if (const pid_t Pid = Slot.load(); Pid > 0) {
      ::kill(Pid, SIGSTOP);  // no new process under it while its own are ended
      endChildrenOf(Pid);
      ::kill(Pid, SIGTERM);
      ::kill(Pid, SIGCONT);
    }
  for (std::atomic<pid_t> &Slot : Children)
    if (const pid_t Pid = Slot.exchange(0); Pid > 0) {
      int Status;
      while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
      }
    }
  if (CleanupDirs.load() == 0) {
    errno = Saved;
    return;
  }
  // Twice, 50 ms apart: a process the ended commands started (g++'s assembler) may still create
  // a file in a folder while the first removal walks it.
  for (int Pass = 0; Pass < 2; ++Pass) {
    if (Pass) {
      struct timespec Pause = {0, 50 * 1000 * 1000};
      ::nanosleep(&Pause, nullptr);
    }
    const pid_t Child = ::_Fork();  // unlike fork(), async-signal-safe (glibc 2.34)
    if (Child == 0) {
      char *NoEnvironment[] = {nullptr};
      ::execve(RmProgram, RmArgv, NoEnvironment);
      ::_exit(127);
    }
    if (Child > 0) {
      int Status;
      while (::waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  errno = Saved;
}

/// Path, or the file a symbolic link at Path names (followed to the end; one that does not exist
/// yet is made where the last link points, as open(2) makes it).
std::string throughSymlink(const std::string &Path) {
  std::string At = Path;
  for (int Hops = 0; Hops < 40 && sys::fs::is_symlink_file(At); ++Hops) {
    char Target[4096];
    const ssize_t N = ::readlink(At.c_str(), Target, sizeof Target - 1);
    if (N <= 0)
      break;
    StringRef To(Target, static_cast<size_t>(N));
    SmallString<256> Next;
    if (sys::path::is_relative(To))
      Next = sys::path::parent_path(At);
    sys::path::append(Next, To);
    At = std::string(Next);
  }
  return At;
}


} // namespace offload::compiler
