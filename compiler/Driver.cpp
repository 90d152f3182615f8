// compiler/Driver.cpp — `offload-cxx`, the compiler driver: its options (declared in one table
// below, each with the step that consumes it), the checks of inputs and output, and the choice
// of what to run: a program (buildProgram: every source compiled as a unit, device code linked
// per architecture, the host link), objects with -c (compileToObject), one pass at a time with
// --pass (host metadata -> manifest, device -> device.bin, host -> program, like the seed's
// -Zoffload=HostMetadata|Device|Host), or a subcommand (Commands.h, Launcher.h).
#include "Build.h"
#include "Commands.h"
#include "DepFile.h"
#include "DevicePass.h"
#include "HostFlags.h"
#include "HostMetadataPass.h"
#include "HostPass.h"
#include "Launcher.h"
#include "Manifest.h"
#include "ObjectFiles.h"
#include "OffloadMentions.h"
#include "Subprocess.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <csignal>
#include <cstdlib>
#include <iterator>
#include <map>
#include <optional>
#include <pthread.h>
#include <unistd.h>

#include "llvm/Support/ErrorHandling.h"

using namespace llvm;
using namespace offload::compiler;

namespace {

cl::OptionCategory Category("offload-cxx options");

// --- Inputs and outputs (all passes) ---
cl::list<std::string> Inputs(cl::Positional, cl::desc("<source.cpp>..."), cl::cat(Category));
cl::opt<std::string> Output("o", cl::desc("Write the output (program, manifest or device.bin) here"),
                            cl::value_desc("path"), cl::Prefix, cl::cat(Category));
cl::opt<std::string> Pass("pass",
                          cl::desc("Run one pass: host-metadata (writes the manifest), device "
                                   "(reads --manifest, writes device.bin), host (reads "
                                   "--device-image, writes the program); default: all three"),
                          cl::value_desc("name"), cl::init("all"), cl::cat(Category));
cl::opt<std::string> ManifestPath("manifest", cl::desc("The manifest the device pass reads"),
                                  cl::value_desc("path"), cl::cat(Category));
cl::opt<std::string> DeviceImagePath("device-image",
                                     cl::desc("The device.bin the host pass registers"),
                                     cl::value_desc("path"), cl::cat(Category));

// --- Compile flags passed to the host-metadata parse, the device compile and the host compile ---
cl::list<std::string> IncludeDirs("I", cl::desc("Add an include directory"), cl::Prefix,
                                  cl::value_desc("dir"), cl::cat(Category));
cl::list<std::string> Defines("D", cl::desc("Define a macro"), cl::Prefix, cl::value_desc("name[=value]"),
                              cl::cat(Category));
cl::list<std::string> Undefines("U", cl::desc("Undefine a macro"), cl::Prefix, cl::value_desc("name"),
                                cl::cat(Category));
cl::opt<std::string> Standard("std", cl::desc("C++ standard (default c++20; at least c++20)"),
                              cl::value_desc("c++20"), cl::cat(Category));
cl::opt<std::string> OptLevel("O", cl::desc("Optimisation level for host and device code"),
                              cl::Prefix, cl::ValueOptional, cl::value_desc("0-3"), cl::cat(Category));
cl::opt<std::string> CpuImage(
    "cpu-image", cl::init("auto"), cl::value_desc("auto|on|off"),
    cl::desc("The CPU device's image: one loop per kernel over a workgroup, the kernel inlined "
             "(fast CPU device). auto (default): built when no GPU architecture is asked for, or for "
             "a file whose kernels use barriers (work-item loops, not fibers); on: "
             "always; off: the CPU device runs your host compiler's kernels work-item by "
             "work-item (for sanitizer and debugger runs of kernels)"),
    cl::cat(Category));
cl::opt<bool> CompileOnly("c",
                          cl::desc("Compile each source to an object holding its host code and "
                                   "its device code (link the objects with offload-cxx)"),
                          cl::cat(Category));

// --- Device pass ---
cl::list<std::string> OffloadArchs(
    "offload-arch", cl::CommaSeparated,
    cl::desc("Device architectures to build: sm_XX (NVIDIA), gfxXXX (AMD), host (the CPU device, "
             "always available), native (the GPUs present). Default: native,host"),
    cl::value_desc("arch,..."), cl::cat(Category));

// --- Host pass ---
cl::opt<std::string> HostCompiler("host-compiler",
                                  cl::desc("The host C++ compiler (default: g++; e.g. clang++-22)"),
                                  cl::value_desc("compiler"), cl::init("g++"), cl::cat(Category));
cl::list<std::string> LinkLibs("l", cl::desc("Link a library"), cl::Prefix, cl::value_desc("name"),
                               cl::cat(Category));
cl::list<std::string> LinkDirs("L", cl::desc("Add a library directory"), cl::Prefix,
                               cl::value_desc("dir"), cl::cat(Category));

// --- Driver behaviour ---
cl::opt<bool> PrintOffloadArchs("print-offload-archs",
                                cl::desc("Print the architectures this installation can build "
                                         "for, one a line with a note, and exit"),
                                cl::cat(Category));
cl::opt<bool> Verbose("v", cl::desc("Print each pass and command with its time, and how each kernel runs on the CPU device (loops or fibers, and why)"), cl::cat(Category));
cl::opt<bool> DryRun("dry-run", cl::desc("Print the commands, run none (also -###)"),
                     cl::cat(Category));
cl::alias DryRunHash("###", cl::aliasopt(DryRun), cl::desc("Alias for --dry-run"));
cl::opt<std::string> SaveTempsWhere(
    "save-temps", cl::ValueOptional, cl::value_desc("obj|cwd"),
    cl::desc("Keep the manifest, generated device source, PTX and images beside the output "
             "(=cwd: in the current folder), and g++'s own temporaries as g++ keeps them"),
    cl::cat(Category));

/// What a failed build removes before it exits: its private temporary folder, and the output it
/// was asked for (so that no earlier build's program passes for this one's, as after a failed
/// GNU ld link).
struct FailureCleanup {
  std::string TempDir;  ///< empty under --save-temps
  std::string Output;   ///< empty until the inputs are known not to be the output
  void run() const {
    if (!TempDir.empty())
      sys::fs::remove_directories(TempDir);
    if (!Output.empty() && !sys::fs::is_directory(Output))
      sys::fs::remove(Output);
  }
};
FailureCleanup OnFailure;

/// The files `-l<Lib>` may name in folder Dir, the static archive first: `lib<Lib>.a` (or the
/// exact name of `-l:<name>`) and `lib<Lib>.so`.
std::vector<std::string> libraryFiles(const std::string &Dir, const std::string &Lib) {
  if (StringRef(Lib).starts_with(":"))
    return {Dir + "/" + Lib.substr(1)};
  return {Dir + "/lib" + Lib + ".a", Dir + "/lib" + Lib + ".so"};
}

/// The static libraries a link reads whose device code offload-cxx must see, as GNU ld finds
/// them: each -l<Lib> of Libs and of the linker's own options (`-Wl,-lk`, `-Xlinker -lk`),
/// searched folder by folder in SearchDirs (-L, then LIBRARY_PATH), `lib<Lib>.so` before
/// `lib<Lib>.a` unless the link is static (a shared library's kernels are its own: the GPU
/// compiled libh.a's function while the host linked libh.so's); and the archives named in the
/// linker's options (`-Wl,--whole-archive,libk.a`, `-Xlinker libk.a`: their kernels were lost,
/// adversarial pass). A linker script's INPUT() is not read.
std::vector<std::string> linkArchives(ArrayRef<std::string> Libs, ArrayRef<std::string> SearchDirs,
                                      ArrayRef<std::string> LinkFlags, bool Static) {
  std::vector<std::string> Archives;
  std::vector<std::pair<std::string, bool>> Names;  // each with whether ld takes it static
  for (const std::string &Lib : Libs)
    Names.push_back({Lib, Static});
  std::vector<std::string> LinkerWords;
  for (size_t I = 0; I < LinkFlags.size(); ++I) {
    StringRef F = LinkFlags[I];
    if (F.consume_front("-Wl,")) {
      SmallVector<StringRef> Pieces;
      F.split(Pieces, ',');
      for (StringRef P : Pieces)
        LinkerWords.push_back(P.str());
    } else if (F == "-Xlinker" && I + 1 < LinkFlags.size()) {
      LinkerWords.push_back(LinkFlags[++I]);
    }
  }
  std::vector<std::string> Dirs(SearchDirs.begin(), SearchDirs.end());
  // -Bstatic/-Bdynamic among the linker's words apply to the -l that follow them, in one -Wl,
  // word too (`-Wl,-Bstatic,-lk,-Bdynamic`: libk.a's kernels were lost for libk.so's,
  // adversarial pass).
  bool WordsStatic = Static;
  for (size_t I = 0; I < LinkerWords.size(); ++I) {
    StringRef W = LinkerWords[I];
    if (W == "-Bstatic" || W == "-dn" || W == "-non_shared" || W == "-static")
      WordsStatic = true;
    else if (W == "-Bdynamic" || W == "-dy" || W == "-call_shared")
      WordsStatic = Static;
    if ((W == "-L" || W == "--library-path") && I + 1 < LinkerWords.size())
      Dirs.push_back(LinkerWords[++I]);  // the linker's own folders (-Wl,-L.): searched too
    else if (W.starts_with("-L") && W.size() > 2)
      Dirs.push_back(W.drop_front(2).str());
    else if (W.starts_with("--library-path=") && W.size() > 15)
      Dirs.push_back(W.drop_front(15).str());
    else if ((W == "-l" || W == "--library") && I + 1 < LinkerWords.size())
      Names.push_back({LinkerWords[++I], WordsStatic});
    else if (W.starts_with("-l") && W.size() > 2)
      Names.push_back({W.drop_front(2).str(), WordsStatic});
    else if (W.starts_with("--library=") && W.size() > 10)
      Names.push_back({W.drop_front(10).str(), WordsStatic});
    else if (W.ends_with(".a") && sys::fs::is_regular_file(W))
      Archives.push_back(W.str());
  }
  for (const auto &[Lib, LibStatic] : Names)
    for (const std::string &Dir : Dirs) {
      const std::vector<std::string> Files = libraryFiles(Dir, Lib);
      if (!LibStatic && Files.size() > 1 && sys::fs::exists(Files[1]))
        break;  // the shared library is what the host links
      if (sys::fs::exists(Files.front())) {
        Archives.push_back(Files.front());
        break;
      }
    }
  return Archives;
}

/// Whether a failed build may remove `Path` (FailureCleanup): it does not exist yet, or it is a
/// regular file (not a link) that holds what a build writes.
bool mayReplaceOnFailure(const std::string &Path) {
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status, /*follow=*/false))
    return true;  // not there: whatever appears there is this build's
  if (Status.type() != sys::fs::file_type::regular_file)
    return false;
  file_magic Magic;
  if (identify_magic(Path, Magic))
    return false;
  switch (Magic) {
  case file_magic::elf_executable:
  case file_magic::elf_relocatable:
  case file_magic::elf_shared_object:
  case file_magic::archive:
  case file_magic::offload_binary:
    return true;
  default:
    break;
  }
  // A manifest: JSON that says so at its start.
  auto Head = MemoryBuffer::getFileSlice(Path, 8192, 0);
  return Head && (*Head)->getBuffer().contains("offload-cxx-manifest");
}

[[noreturn]] void exitFailed() {
  OnFailure.run();
  std::exit(1);
}

[[noreturn]] void fail(const Twine &Message) {
  WithColor::error(errs(), "offload-cxx") << Message << "\n";
  exitFailed();
}

void check(Error E) {
  if (!E)
    return;
  if (E.isA<ReportedError>()) {  // clang printed the diagnostics
    consumeError(std::move(E));
    exitFailed();
  }
  fail(toString(std::move(E)));
}

template <class T> T check(Expected<T> V) {
  if (!V)
    check(V.takeError());
  return std::move(*V);
}

std::vector<std::string> compileArgs() {
  std::vector<std::string> Args;
  std::vector<std::pair<std::string, std::string>> Spellings;
  for (const std::string &D : IncludeDirs) {
    SmallString<256> Abs(D);
    sys::fs::make_absolute(Abs);
    Args.push_back("-I" + std::string(Abs));
    if (sys::path::is_relative(D))
      Spellings.push_back({std::string(Abs), D});
  }
  setIncludeSpellings(std::move(Spellings));
  // -D and -U in the order written: `-UFAST -DFAST` defines FAST (the device compiles saw it
  // undefined when the -D's came first: adversarial pass, a GPU computing another function).
  std::vector<std::pair<unsigned, std::string>> Macros;
  for (unsigned I = 0; I < Defines.size(); ++I)
    Macros.push_back({Defines.getPosition(I), "-D" + Defines[I]});
  for (unsigned I = 0; I < Undefines.size(); ++I)
    Macros.push_back({Undefines.getPosition(I), "-U" + Undefines[I]});
  llvm::stable_sort(Macros, [](const auto &A, const auto &B) { return A.first < B.first; });
  for (auto &[Position, Arg] : Macros)
    Args.push_back(std::move(Arg));
  if (!Standard.empty())
    Args.push_back("-std=" + Standard);
  return Args;
}


} // namespace


/// Whether In is a device or a pipe (`/dev/null`, `<(...)`): g++ reads it; reading it here would
/// consume it.
bool isDeviceOrPipe(const std::string &In) {
  return sys::fs::exists(In) && !sys::fs::is_regular_file(In) && !sys::fs::is_directory(In);
}

/// Standard input kept in a temporary file (removed at exit and on a signal): the passes read
/// a file of C++ that uses offload; input without offload is given back to g++ as its standard
/// input.
struct StdinCopy {
  std::string Path;
  std::error_code make(StringRef Code) {
    SmallString<128> P;
    if (std::error_code EC = sys::fs::createTemporaryFile("offload-cxx-stdin", "cpp", P))
      return EC;
    Path = std::string(P);
    sys::RemoveFileOnSignal(Path);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    if (EC)
      return EC;
    OS << "#line 1 \"<stdin>\"\n" << Code;
    OS.close();
    EC = OS.error();
    OS.clear_error();  // (the caller reports it, by name: not the stream's destructor)
    return EC;
  }
  ~StdinCopy() {
    if (!Path.empty())
      sys::fs::remove(Path);
  }
} StdinSource;

/// The user's TMPDIR (null: unset), replaced by the build's temporary folder for the commands.
std::optional<std::string> UserTmpDir;
/// While alive, TMPDIR is the user's again: a command run as the user wrote it names g++'s own
/// temporaries (/tmp/ccXXXXXX.o in a link's errors) as g++ alone would.
struct UsersTmpDir {
  std::string Ours;
  UsersTmpDir() {
    if (const char *Now = std::getenv("TMPDIR"))
      Ours = Now;
    if (UserTmpDir)
      ::setenv("TMPDIR", UserTmpDir->c_str(), 1);
    else
      ::unsetenv("TMPDIR");
  }
  ~UsersTmpDir() {
    if (!Ours.empty())
      ::setenv("TMPDIR", Ours.c_str(), 1);
  }
};

/// The user's command line for the host compiler, as written: offload-cxx's own options out
/// (--offload-arch=, --cpu-image=, -Xoffload-device <arg>, ...), -Xcompiler/-Xhost unwrapped,
/// dependency options out (DepFile.h writes the user's file from the compile's own).
std::vector<std::string> commandAsWritten(ArrayRef<std::string> Raw, bool KeepDeps = false) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Raw.size(); ++I) {
    StringRef A = Raw[I];
    StringRef Name = A.ltrim('-').split('=').first;
    if (A.starts_with("--") && llvm::is_contained({"offload-arch", "cpu-image", "host-compiler",
                                                   "pass", "manifest", "device-image"}, Name))
      continue;
    if (A == "-Xoffload-device" || (!KeepDeps && (A == "-MF" || A == "-MT" || A == "-MQ"))) {
      ++I;
      continue;
    }
    if (A == "-Xcompiler" || A == "-Xhost")
      continue;  // its argument follows, for the host compiler
    if (!KeepDeps && (A == "-MD" || A == "-MMD" || A == "-MP" || A.starts_with("-MF") ||
                      A.starts_with("-MT") || A.starts_with("-MQ")))
      continue;
    Out.push_back(A.str());
  }
  return Out;
}

/// The host compiler (Name, found as the driver finds it) and the user's command as written.
std::vector<std::string> hostCommandAsWritten(const std::string &Name, ArrayRef<std::string> Raw,
                                              bool KeepDeps = false) {
  Expected<std::string> Compiler = findTool(Name, {});
  if (!Compiler)
    fail("host compiler: " + toString(Compiler.takeError()));
  std::vector<std::string> Command = {*Compiler};
  for (std::string &A : commandAsWritten(Raw, KeepDeps))
    Command.push_back(std::move(A));
  return Command;
}

/// `-o a.o -o b.o`: the last one only, as g++ takes it (our -MD -MF made g++ name two dependency
/// files after the two outputs, and fail: adversarial pass). Values of -Xlinker and the like
/// are left alone.
static void keepLastOutput(std::vector<std::string> &Command) {
  std::vector<std::pair<size_t, size_t>> Outputs;  // (first word, words)
  for (size_t I = 1; I < Command.size(); ++I) {
    const StringRef A = Command[I];
    if (StringRef(Command[I - 1]).starts_with("-X") && Command[I - 1].size() > 2)
      continue;
    if ((A == "-o" || A == "--output") && I + 1 < Command.size()) {
      Outputs.push_back({I, 2});
      ++I;
    } else if ((A.starts_with("-o") && A.size() > 2) || A.starts_with("--output=")) {
      Outputs.push_back({I, 1});
    }
  }
  if (Outputs.size() < 2)
    return;
  for (size_t K = Outputs.size() - 1; K-- > 0;)  // every one but the last, from the back
    Command.erase(Command.begin() + Outputs[K].first,
                  Command.begin() + Outputs[K].first + Outputs[K].second);
}

/// A TMPDIR that is not a folder one can write (a finished batch job's, a file): the folder g++
/// falls back to (libiberty's choose_tmpdir: TMP, TEMP, /tmp, /var/tmp, /usr/tmp), for our
/// temporaries and the commands' alike (every compile failed with "No such file or directory",
/// naming nothing: adversarial pass).
static void chooseTmpDir() {
  const char *Given = std::getenv("TMPDIR");
  auto usable = [](const char *D) { return D && *D && sys::fs::is_directory(D) && ::access(D, W_OK | X_OK) == 0; };
  if (!Given || usable(Given))
    return;
  for (const char *D : std::initializer_list<const char *>{std::getenv("TMP"), std::getenv("TEMP"), "/tmp", "/var/tmp", "/usr/tmp"})
    if (usable(D)) {
      ::setenv("TMPDIR", D, 1);
      return;
    }
}

int main(int argc, char **argv) {
  rememberStartingSignals();  // before LLVM's handlers (Subprocess.h)
  chooseTmpDir();
  InitLLVM Init(argc, argv);
  // Response files (@file, as CMake and make write long command lines): expanded first, as g++
  // expands them, so that what they hold is read as the same words on the command line would be
  // (adversarial pass: --define-macro X, -include f and -Wl,... in an @file were misread).
  static BumpPtrAllocator ArgMemory;
  static std::vector<char *> ExpandedArgv;
  if (std::any_of(argv + 1, argv + argc, [](const char *A) { return A[0] == '@'; })) {
    SmallVector<const char *, 64> Words(argv, argv + argc);
    cl::ExpansionContext Expansion(ArgMemory, cl::TokenizeGNUCommandLine);
    if (Error E = Expansion.expandResponseFiles(Words))
      fail(toString(std::move(E)));
    for (const char *W : Words)
      ExpandedArgv.push_back(const_cast<char *>(W));
    argc = int(ExpandedArgv.size());
    ExpandedArgv.push_back(nullptr);
    argv = ExpandedArgv.data();
  }
  // GCC's long spellings clang's option table lacks (--library X, --pie, --time, ...).
  static std::vector<std::string> ShortSpellings;
  static std::vector<char *> ShortArgv;
  if ((argc < 2 || !isSubcommand(argv[1])) &&
      std::any_of(argv + 1, argv + argc, [](const char *A) { return A[0] == '-' && A[1] == '-'; })) {
    ShortSpellings = shortGccSpellings(ArrayRef<const char *>(argv, argv + argc));
    if (ShortSpellings.size() != size_t(argc) ||
        !std::equal(ShortSpellings.begin(), ShortSpellings.end(), argv,
                    [](const std::string &S, const char *A) { return S == A; })) {
      for (std::string &W : ShortSpellings)
        ShortArgv.push_back(W.data());
      argc = int(ShortArgv.size());
      ShortArgv.push_back(nullptr);
      argv = ShortArgv.data();
    }
  }
  handleEndingSignals();
  // Memory runs out (a `ulimit -v` below what a compile needs): one line, the temporary folders
  // removed, exit status 1, instead of LLVM's "out of memory" abort with its stack dump. Nothing
  // here allocates.
  install_bad_alloc_error_handler([](void *, const char *, bool) {
    static const char Message[] = "offload-cxx: error: out of memory (is a limit such as "
                                  "`ulimit -v` below what the compile needs?)\n";
    (void)!::write(STDERR_FILENO, Message, sizeof Message - 1);
    runSignalCleanup();
    ::_exit(1);
  });
  // Every command offload-cxx runs has OFFLOAD_CXX_RUNNING set: an offload-cxx started by one
  // of them is its own host compiler (a script named g++ first on PATH that runs offload-cxx),
  // which would run itself again without end (sixth adversarial pass). One line instead.
  if (const char *Parent = std::getenv("OFFLOAD_CXX_RUNNING"); Parent && *Parent)
    fail("the host compiler that offload-cxx runs is offload-cxx itself (a wrapper of it named "
         "g++ first on PATH?): name the real one with --host-compiler=/usr/bin/g++");
  ::setenv("OFFLOAD_CXX_RUNNING", "1", 1);
  // As the user wrote it (takeUserFlags sorts the flags out of argv).
  const std::vector<std::string> RawArgs(argv + 1, argv + argc);
  if (!RawArgs.empty() && RawArgs.back() == "-o")  // as g++ says it (it was a link of nothing)
    fail("missing filename after '-o'");
  // `-c k.cpp -I` (the flags were sorted before -c, which became -I's folder: adversarial pass).
  const CommandWords Words = readCommandWords(RawArgs);
  // A command without an input and without an option of offload-cxx's own is the host
  // compiler's, as written: its answers (`-###` alone prints g++'s specs), its errors in its
  // words (`-version`, `-qversion`, `-V`: autoconf's probes; a new user found ours differed).
  // `--version` and `--help` are ours (our banner, then g++'s).
  const bool OursWithoutInput = llvm::any_of(RawArgs, [](StringRef A) {
    const StringRef Name = A.ltrim('-').split('=').first;
    return (A.starts_with("-") &&
            llvm::is_contained({"offload-arch", "cpu-image", "host-compiler", "pass", "manifest",
                                "device-image", "print-offload-archs", "dry-run"},
                               Name)) ||
           (A.starts_with("--") &&
            llvm::is_contained({"version", "help", "help-hidden", "help-list"}, Name)) ||
           A == "-help" || A == "-Xoffload-device";
  });
  const bool Subcommand = !RawArgs.empty() && isSubcommand(RawArgs[0]);
  if (Words.Inputs.empty() && !RawArgs.empty() && !OursWithoutInput && !Subcommand &&
      !llvm::any_of(RawArgs, [](StringRef A) { return A.starts_with("@"); })) {
    std::vector<std::string> Command = hostCommandAsWritten("g++", RawArgs);
    if (Error E = runCommand(Command, CommandOptions{}))
      return consumeError(std::move(E)), 1;  // the host compiler said why
    return 0;
  }
  if (!Words.MissingValue.empty())
    fail("missing argument after '" + Words.MissingValue + "'");
  // g++'s --help=CLASS (with -Q: which warnings are on): g++'s question, not ours.
  if (llvm::any_of(RawArgs, [](StringRef A) { return A.starts_with("--help="); })) {
    std::vector<std::string> Command = hostCommandAsWritten("g++", RawArgs);
    if (Error E = runCommand(Command, CommandOptions{}))
      return consumeError(std::move(E)), 1;
    return 0;
  }
  const UserFlags User = takeUserFlags(argc, argv, [](StringRef Name) {
    if (Name == "help" || Name == "help-hidden" || Name == "help-list" || Name == "version")
      return true;
    auto &Registered = cl::getRegisteredOptions();
    auto It = Registered.find(Name);
    return It != Registered.end() && llvm::is_contained(It->second->Categories, &Category);
  });
  cl::HideUnrelatedOptions(Category);
  // Then the host compiler's own words, as a drop-in g++ must say them: Meson tells GCC by
  // "Free Software Foundation" in `--version` (CXX=offload-cxx meson found no known compiler).
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "offload-cxx " OFFLOAD_CXX_VERSION " (LLVM 22), with the host compiler:\n";
    OS.flush();
    const std::string Host = HostCompiler.empty() ? "g++" : HostCompiler.getValue();
    if (ErrorOr<std::string> Path = sys::findProgramByName(Host))
      sys::ExecuteAndWait(*Path, {*Path, "--version"});
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "offload-cxx: GPU offloading for C++\n\n"
      "  offload-cxx -O2 fill.cpp -o fill                 all three passes\n"
      "  offload-cxx --pass=host-metadata fill.cpp -o fill.manifest\n"
      "  offload-cxx --pass=device --manifest=fill.manifest --offload-arch=sm_90,host -o device.bin\n"
      "  offload-cxx --pass=host --device-image=device.bin fill.cpp -o fill\n"
      "  offload-cxx devices [PROGRAM]                    the devices this machine has\n"
      "  offload-cxx bundle PROGRAM... -o DIR             a folder that runs on a GPU node\n"
      "  offload-cxx compile-launcher [--offload-arch=A,...] -- <compile command>\n"
      "  offload-cxx link-launcher -- <link command>      both: CMake's launchers (find_package(OffloadCxx))\n"
      "  offload-cxx --print-offload-archs                what this installation can build\n\n"
      "Every g++ option is taken (CXX=offload-cxx works with CMake and make): -c, -o, -I, -D, -U,\n"
      "-std=, -O, -g, -l, -L behave as g++'s; the others go to the host compiler's compile\n"
      "and/or link as g++ would use them (-Wl,<args> and -Xlinker: link only; -W, -x, -pedantic,\n"
      "-w: compile only; -pthread, -f, -m and the rest: both); -Xcompiler <arg> or -Xhost <arg>:\n"
      "both. -isystem, -iquote, -idirafter, -include reach every compile, as -I and -D do.\n"
      "-MD/-MMD with -MF, -MT, -MQ, -MP: one dependency file listing the headers of every\n"
      "compile offload-cxx ran (host and device). -ffast-math and the other floating-point\n"
      "flags reach the device compiles too; -march/-mtune, other -m and -f flags and -g reach\n"
      "the CPU device's image (arch host) as well, never a GPU's. -E, -S, -M, -MM and\n"
      "-fsyntax-only: the host compiler alone.\n"
      "-Xoffload-device <arg>: pass <arg> to every device compile (each GPU architecture and\n"
      "the CPU image), e.g. -Xoffload-device -DTILE=32.\n\n"
      "Environment: CUDA_PATH (where ptxas is looked for first, then /usr/local/cuda/bin and\n"
      "PATH), OFFLOAD_CXX_PTXAS (this ptxas, or none if it is not an executable),\n"
      "OFFLOAD_CXX_NO_GOLD=1 (link with the host compiler's default linker, not gold; so does\n"
      "a -fuse-ld= of yours), OFFLOAD_CXX_PCH=0 (no precompiled offload headers; their cache:\n"
      "OFFLOAD_CXX_PCH_CACHE, else $XDG_CACHE_HOME/offload-cxx/pch or ~/.cache/offload-cxx/pch).\n"
      "Programs read OFFLOAD_INFO, OFFLOAD_DEVICE=cpu, OFFLOAD_CPU_THREADS, OFFLOAD_CPU_STACK,\n"
      "OFFLOAD_LAUNCH_BLOCKING, OFFLOAD_GPU_BACKEND, OFFLOAD_CUDA_SCHEDULE, OMP_TARGET_OFFLOAD,\n"
      "OFFLOAD_PROFILE=1 (a table of kernel and copy times per device at exit) and\n"
      "OFFLOAD_TRACE=FILE.json (a Chrome trace-event / Perfetto timeline) (see README.md).\n");

  const Layout L = findLayout(argv[0]);
  if (DevicesCommand)
    return runDevicesCommand(L);
  if (BundleCommand)
    return runBundleCommand(L);
  if (CompileLauncherCommand)
    return runCompileLauncher(L);
  if (LinkLauncherCommand)
    return runLinkLauncher(L);
  if (PrintOffloadArchs)
    return runPrintOffloadArchs(L);
  CommandOptions Cmd{Verbose, DryRun};
  const bool SaveTemps = SaveTempsWhere.getNumOccurrences() > 0;
  // Flags of every compile (host metadata, device, host): -I, -D, -U, -std=, -isystem, ...
  std::vector<std::string> Flags = compileArgs();
  Flags.insert(Flags.end(), User.Preprocessor.begin(), User.Preprocessor.end());
  const std::vector<std::string> &HostFlags = User.Compile, &HostLinkFlags = User.Link;
  // Floating-point flags reach the device compiles too (the other -f flags are the host
  // compiler's and the CPU image's): -ffast-math on a GPU means what it means on the host.
  // So do the flags that change what the language means (-funsigned-char, -fwrapv, -ansi: the
  // adversarial pass of issue 32 had a GPU compute with signed chars what g++ computed unsigned).
  for (const std::string &F : HostFlags)
    if (isFloatingPointFlag(F) || (isLanguageFlag(F) && !(F == "-ansi" && !Standard.empty())))
      Flags.push_back(F);
  // The macros g++ defines for -pthread and -fopenmp (_REENTRANT, _OPENMP), a -specs file and
  // --param (__GCC_DESTRUCTIVE_SIZE, std::hardware_destructive_interference_size), which code
  // may test to pick a type or a value: clang's compiles are given g++'s (adversarial passes).
  std::vector<std::string> MacroFlags;
  for (size_t I = 0; I < HostFlags.size(); ++I) {
    const StringRef F = HostFlags[I];
    if (F == "-pthread" || F == "-fopenmp" || F == "-fno-openmp" || F.starts_with("--param=") ||
        F.starts_with("-specs=") || F.starts_with("--specs="))
      MacroFlags.push_back(F.str());
    else if ((F == "--param" || F == "-specs" || F == "--specs") && I + 1 < HostFlags.size()) {
      MacroFlags.push_back(F.str());
      MacroFlags.push_back(HostFlags[++I]);
    }
  }
  setGccMacroFlags(MacroFlags);  // read from g++ at the first clang compile
  std::string Opt = OptLevel.getNumOccurrences() ? "-O" + (OptLevel.empty() ? std::string("1") : std::string(OptLevel)) : "";

  // (g++'s long spellings of its queries, --print-sysroot and the like, are g++'s: below.)
  if (!User.Unknown.empty() && !StringRef(User.Unknown).starts_with("--print-"))
    fail("unknown option '" + User.Unknown + "' (offload-cxx --help lists offload-cxx's; g++'s "
         "options are passed to the host compiler)");
  if (Pass != "all" && Pass != "host-metadata" && Pass != "device" && Pass != "host")
    fail("unknown pass '" + Pass + "' (expected host-metadata, device or host)");
  // offload's headers use C++20: said once, not in 500 lines — for a file that uses offload
  // (a file without it is compiled as written, in any standard: compileAsWritten below).
  static const char *const Cxx20[] = {"c++20", "gnu++20", "c++2a", "gnu++2a", "c++23", "gnu++23",
                                      "c++2b", "gnu++2b", "c++26", "gnu++26", "c++2c", "gnu++2c"};
  // -ansi is -std=c++98 (for C++) unless a -std says otherwise.
  const bool Ansi = Standard.empty() && llvm::is_contained(HostFlags, "-ansi");
  const bool StdTooOld =
      Ansi || (!Standard.empty() && llvm::find(Cxx20, StringRef(Standard)) == std::end(Cxx20));
  auto requireCxx20Standard = [&](StringRef What) {
    if (StdTooOld)
      fail((What == "this build" ? std::string("") : What.str() + ": ") +
           (Ansi ? std::string("-ansi (C++98)") : "-std=" + Standard) +
           ", but offload-cxx's headers and kernels need C++20 "
           "or later (-std=c++20, or leave -std out; in CMake, CMAKE_CXX_STANDARD 20)");
  };
  // -fpack-struct (and -malign-double, -mms-bitfields, the long double sizes) change the layout
  // of every struct, offload's own among them: the launch's records that the headers hand the
  // runtime library (built without them) would be read at the wrong offsets. A file that uses
  // offload is refused in one line; its own types can be packed with #pragma pack or
  // __attribute__((packed)), which every compiler of the build honours.
  std::string LayoutFlag;
  for (const std::string &F : HostFlags)
    if (StringRef(F).starts_with("-fpack-struct") || F == "-malign-double" ||
        F == "-mms-bitfields" || F == "-m96bit-long-double" || F == "-m128bit-long-double" ||
        StringRef(F).starts_with("-mlong-double-"))
      LayoutFlag = F;
    else if (F == "-fno-pack-struct" && StringRef(LayoutFlag).starts_with("-fpack-struct"))
      LayoutFlag.clear();
  auto requireOffloadOptions = [&](StringRef What) {
    requireCxx20Standard(What);
    if (!LayoutFlag.empty())
      fail((What == "this build" ? std::string("") : What.str() + ": ") + LayoutFlag +
           " changes the layout of every struct, offload-cxx's own that its headers share with "
           "its runtime library among them: leave it out of files that use offload (pack your "
           "own types with #pragma pack or __attribute__((packed)))");
  };
  // Standard input, and the other kinds g++ compiles (C, preprocessed, assembly), also go to it
  // as written.
  // `-x c++` (any language but none): g++ compiles every input after it in that language,
  // whatever its name (`-x c++ prog.txt`).
  bool ExplicitLanguage = false;
  StringRef Language, StdinLanguage;  // the -x in effect, and where standard input ("-") stood
  for (size_t I = 0; I < RawArgs.size(); ++I) {
    StringRef A = RawArgs[I];
    if (A == "-" && StdinLanguage.empty())
      StdinLanguage = Language;
    if (A == "-x" && I + 1 < RawArgs.size())
      A = RawArgs[++I];
    else if (A.starts_with("-x") && A.size() > 2)
      A = A.drop_front(2);
    else
      continue;
    Language = A;
    ExplicitLanguage = A != "none";
  }
  // C++ read from standard input (`-x c++ -`): kept in a file of its own (the passes read it,
  // `#line` names it <stdin> in diagnostics, as g++ does; a compile's object is `-.o`) and given
  // back to g++ as its standard input for a command run as written.
  if (Pass == "all" && !DryRun && User.OtherOutput.empty() && llvm::is_contained(Inputs, "-") &&
      StdinLanguage == "c++") {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getSTDIN();
    if (!Text)
      fail("cannot read standard input: " + Text.getError().message());
    const std::string Code = (*Text)->getBuffer().str();
    if (std::error_code EC = StdinSource.make(Code))
      fail("cannot keep standard input in a temporary file: " + EC.message());
    // A command g++ runs as written reads it from its standard input, given back from the copy
    // (a `#line 1 "<stdin>"` more, which names it as g++ does anyway).
    if (int Fd = ::open(StdinSource.Path.c_str(), O_RDONLY); Fd < 0 || ::dup2(Fd, 0) < 0)
      fail("cannot give standard input back to the host compiler: " + std::string(strerror(errno)));
    else
      ::close(Fd);
    if (CompileOnly && Output.empty())
      Output = "-.o";
    // The passes read the copy (also beside a kernel file, in one link: '-' was not found).
    for (auto &In : Inputs)
      if (In == "-")
        In = StdinSource.Path;
  }
  auto hostInput = [&](StringRef In) {
    return In == "-" || ExplicitLanguage || isCxxSource(In) ||
           llvm::is_contained({".c", ".i", ".ii", ".s", ".S", ".sx", ".cp", ".CPP"},
                              sys::path::extension(In));
  };
  // Each source read once for its mention of offload (three decisions below ask).
  std::map<std::string, bool> Mentions;
  auto mentions = [&](const std::string &In) {
    if (In == "-")  // never read here: standard input is the host compiler's to read
      return false;
    // Nor a device or a pipe (`-x c++ -c /dev/null`, `<(...)`: configure's probes): reading it
    // here would leave g++ nothing to read.
    if (isDeviceOrPipe(In))
      return false;
    auto [It, New] = Mentions.try_emplace(In, false);
    if (New)
      It->second = mentionsOffload(In);
    return It->second;
  };
  // Mentions it outside #if/#ifdef too: a file whose mentions are all conditional (an optional
  // offload build) is compiled or linked as written first, and what that reaches decides
  // (adversarial pass: `#ifdef WITH_GPU #include <offload/offload.hpp>` made C++20 of a file
  // built without WITH_GPU).
  auto mentionsSurely = [&](const std::string &In) {
    return mentions(In) && !mentionsOffloadOnlyConditionally(In);
  };
  // `-c a.cpp b.cpp`: each source compiled by a command of its own, as if given alone — a file
  // without offload exactly as written, as g++ compiles it (adversarial pass: they were all
  // compiled as C++20 with offload's flags). g++ goes on after a failed file; so does this.
  if (CompileOnly && Pass == "all" && Inputs.size() > 1 && !DryRun && User.OtherOutput.empty() &&
      Output.empty() && StdinSource.Path.empty() && llvm::count(Inputs, "-") == 0 &&
      Words.Inputs.size() == Inputs.size()) {
    const std::string Self = sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&main));
    ::unsetenv("OFFLOAD_CXX_RUNNING");  // each file's own offload-cxx, as if run alone
    int Status = 0;
    for (size_t Keep = 0; Keep < Words.Inputs.size(); ++Keep) {
      std::vector<std::string> Args = {Self};
      for (size_t I = 0; I < RawArgs.size(); ++I) {  // every word but the other inputs
        // A -x after this source names the language of later ones only: left out (g++ warns
        // "-x c after last input file has no effect": adversarial pass).
        const bool ValueOfAnother =
            I > 0 && StringRef(RawArgs[I - 1]).starts_with("-X") && RawArgs[I - 1].size() > 2;
        if (I > Words.Inputs[Keep] && RawArgs[I] == "-x" && !ValueOfAnother) {
          ++I;
          continue;
        }
        if (I > Words.Inputs[Keep] && StringRef(RawArgs[I]).starts_with("-x") && RawArgs[I].size() > 2 &&
            !ValueOfAnother)
          continue;
        if (I == Words.Inputs[Keep] || !llvm::is_contained(Words.Inputs, I))
          Args.push_back(RawArgs[I]);
      }
      // g++ -c -dumpbase X a.cpp b.cpp names their side outputs X-a.*, X-b.*: each command is
      // told its own (adversarial pass: every source wrote X.su over the last).
      for (size_t I = 1; I + 1 < Args.size(); ++I)
        if (Args[I] == "-dumpbase")
          Args[I + 1] += "-" + sys::path::stem(RawArgs[Words.Inputs[Keep]]).str();
      std::vector<StringRef> Refs(Args.begin(), Args.end());
      if (Verbose)
        errs() << "offload-cxx: " << RawArgs[Words.Inputs[Keep]] << ": " << join(Refs, " ") << "\n";
      if (sys::ExecuteAndWait(Self, Refs) != 0)
        Status = 1;
    }
    return Status;
  }
  // (-save-temps too: g++'s own temporaries, as g++ writes them.)
  const bool AsWrittenFirst =
      CompileOnly && Pass == "all" && Inputs.size() == 1 && !DryRun && hostInput(Inputs[0]) &&
      User.OtherOutput.empty() &&
      (Inputs[0] == "-" || !mentionsSurely(Inputs[0]) || StdTooOld);
  // `-### -c plain.cpp`: what runs for a file without offload is the host compiler as written,
  // so its own -### says it (a new user found our pipeline's commands printed for such a file,
  // with flags it never gets).
  if (DryRun && CompileOnly && Pass == "all" && Inputs.size() == 1 && hostInput(Inputs[0]) &&
      User.OtherOutput.empty() && (Inputs[0] == "-" || !mentions(Inputs[0]))) {
    std::vector<std::string> Command = hostCommandAsWritten(HostCompiler, RawArgs);
    keepLastOutput(Command);
    for (std::string &A : Command)
      if (A == "--dry-run" || A == "-dry-run")
        A = "-###";
    Command.insert(Command.end(), {"-idirafter", L.IncludeDir});
    if (Error E = runCommand(Command, CommandOptions{}))
      return consumeError(std::move(E)), 1;
    return 0;
  }
  // The static libraries the link reads through -l and the linker's options (linkArchives): their
  // device code is the program's too, and a program of plain objects that links one with
  // kernels is not linked as written.
  const std::vector<std::string> LinkedArchives = [&] {
    std::vector<std::string> SearchDirs(LinkDirs.begin(), LinkDirs.end());
    if (const char *LP = std::getenv("LIBRARY_PATH")) {  // as g++ hands it to the linker
      SmallVector<StringRef> Dirs;
      StringRef(LP).split(Dirs, ':', -1, /*KeepEmpty=*/false);
      for (StringRef D : Dirs)
        SearchDirs.push_back(D.str());
    }
    const bool Static = llvm::any_of(HostLinkFlags, [](StringRef F) {
      return F == "-static" || F == "-static-pie" || F.ends_with("-Bstatic") ||
             F.ends_with(",-dn") || F == "-dn";
    });
    return linkArchives(std::vector<std::string>(LinkLibs.begin(), LinkLibs.end()), SearchDirs,
                        HostLinkFlags, Static);
  }();
  // A program whose sources never mention offload, linked with objects that never use it: the
  // whole command is g++'s, as written (a one-step `offload-cxx -std=c++14 a.cpp -o a`).
  const bool ProgramAsWritten =
      !CompileOnly && Pass == "all" && !Inputs.empty() && !DryRun && User.OtherOutput.empty() &&
      // Regular files only: a source, or an object or archive the host link reads (anything
      // else gets the pipeline's own one-line error).
      llvm::all_of(Inputs, [&](const std::string &In) {
        if (In == "-")  // standard input: g++ reads it (offload-cxx reads no kernel from it)
          return true;
        if (!sys::fs::is_regular_file(In))  // a source in a device or a pipe: g++'s to read
          return hostInput(In) && isDeviceOrPipe(In);
        if (hostInput(In))
          return true;
        file_magic Magic;
        if (identify_magic(In, Magic) || Magic == file_magic::elf_shared_object)
          return Magic == file_magic::elf_shared_object;
        if (Magic != file_magic::elf_relocatable && Magic != file_magic::archive)
          return false;
        Expected<std::vector<DeviceImageFile>> Code = readDeviceCode(In);  // a damaged one: ours
        if (!Code) {
          consumeError(Code.takeError());
          return false;
        }
        return Code->empty();
      }) &&
      (StdTooOld ||  // what then uses offload says so in its errors: the C++20 line below
       llvm::none_of(Inputs, [&](const std::string &In) { return hostInput(In) && mentionsSurely(In); })) &&
      !needsOffloadRuntime([&] {
        std::vector<std::string> Files;  // standard input is a source, never an object
        llvm::copy_if(Inputs, std::back_inserter(Files), [](StringRef In) { return In != "-"; });
        Files.insert(Files.end(), LinkedArchives.begin(), LinkedArchives.end());
        return Files;
      }(), groupsArchives(HostLinkFlags));
  // C++20 is required of what uses offload: a source that mentions it, or a pass of ours.
  // -E, -S, -M, -MM, -fsyntax-only of sources that never mention offload: g++'s command as
  // written (any -std, g++'s default standard).
  // Headers given as inputs (`-c pch.h`, `x.hpp`): g++ precompiles them (x.hpp.gch) — a job of
  // its own, as -x c++-header (adversarial pass: they were refused).
  const bool HeaderInputs =
      !ExplicitLanguage && !Inputs.empty() && llvm::all_of(Inputs, [](StringRef In) {
        return llvm::is_contained({".h", ".hh", ".H", ".hp", ".hxx", ".hpp", ".HPP", ".h++", ".tcc"},
                                  sys::path::extension(In));
      });
  const bool OtherJob = !User.OtherOutput.empty() || HeaderInputs;
  const bool HostJobAsWritten =
      OtherJob && Pass == "all" && !Inputs.empty() &&
      llvm::all_of(Inputs, [&](const std::string &In) {
        return In == "-" || ((hostInput(In) || HeaderInputs) && !mentions(In));
      });
  if (!AsWrittenFirst && !ProgramAsWritten && !HostJobAsWritten &&
      (Pass != "all" || llvm::any_of(Inputs, hostInput))) {
    const auto Using = llvm::find_if(Inputs, [&](const std::string &In) { return hostInput(In) && mentions(In); });
    requireOffloadOptions(Using != Inputs.end() ? *Using : Inputs.empty() ? std::string("this build") : Inputs[0]);
  }
  // A partial link (`-r a.o b.o -o ab.o`): g++'s (the objects' device-code sections are joined
  // into one, which the final link reads as one file's per manifest); sources are compiled
  // with -c first, so that their device code is in their objects.
  if (Pass == "all" && !CompileOnly && !DryRun && llvm::is_contained(RawArgs, "-r")) {
    for (const std::string &In : Inputs)
      if (hostInput(In))
        fail("-r (a partial link) joins objects: compile '" + In + "' with -c first");
    std::vector<std::string> Command = hostCommandAsWritten(HostCompiler, RawArgs);
    if (Error E = runCommand(Command, Cmd)) {
      consumeError(std::move(E));  // the host compiler said why
      return 1;
    }
    return 0;
  }
  if (HostJobAsWritten) {
    // The dependency options too, as written (-MM -MF f, -E -MD, a precompiled header's -MD
    // -MT x.gch -MF x.gch.d: they were dropped, and CMake's PCH went stale: adversarial pass).
    std::vector<std::string> Command = hostCommandAsWritten(HostCompiler, RawArgs, /*KeepDeps=*/true);
    Command.insert(Command.end(), {"-idirafter", L.IncludeDir});  // last of all: after -isystem, -idirafter
    if (Error E = runCommand(Command, Cmd)) {
      consumeError(std::move(E));  // the host compiler said why
      return 1;
    }
    return 0;
  }
  if (OtherJob && Pass == "all") {
    // -E, -S, -M, -MM, -fsyntax-only, headers: no object or program to build; g++'s job alone, with
    // offload's headers on the include path.
    Expected<std::string> Compiler = findTool(HostCompiler, {});
    if (!Compiler)
      fail("host compiler: " + toString(Compiler.takeError()));
    // offload's headers as the host compile of a kernel file has them: system headers (a
    // -Werror -Weffc++ check of the file failed in them under -fsyntax-only, -S, -E).
    std::vector<std::string> Command = {*Compiler, "-isystem", L.IncludeDir};
    std::vector<std::string> UserArgs = Flags;
    if (!Opt.empty())
      UserArgs.push_back(Opt);
    UserArgs.insert(UserArgs.end(), User.Debug.begin(), User.Debug.end());
    UserArgs.insert(UserArgs.end(), HostFlags.begin(), HostFlags.end());
    appendUserCompileFlags(Command, UserArgs);
    if (User.Deps.Enabled)
      Command.push_back(User.Deps.UserHeadersOnly ? "-MMD" : "-MD");
    if (!User.Deps.File.empty())
      Command.insert(Command.end(), {"-MF", User.Deps.File});
    for (const std::string &T : User.Deps.Targets)
      Command.insert(Command.end(), {"-MT", T});
    if (User.Deps.Phony)
      Command.push_back("-MP");
    if (CompileOnly)
      Command.push_back("-c");
    if (Output.getNumOccurrences())
      Command.insert(Command.end(), {"-o", Output});
    Command.insert(Command.end(), Inputs.begin(), Inputs.end());
    if (Error E = runCommand(Command, Cmd)) {
      consumeError(std::move(E));  // the host compiler said why
      return 1;
    }
    return 0;
  }
  bool linkerQuery = false;  // -Xlinker --version
  for (size_t I = 1; I < RawArgs.size(); ++I)
    linkerQuery |= (RawArgs[I - 1] == "-Xlinker" && (RawArgs[I] == "--version" || RawArgs[I] == "-v"));
  if (Pass == "all" && Inputs.empty() && !DryRun &&
      (linkerQuery || llvm::any_of(RawArgs, [](StringRef F) {
        // (and their long spellings, --print-sysroot, --target-help; -Wl,--version and
        // -Xlinker --version, which is how Meson finds the linker: adversarial pass)
        return F == "-v" || F == "-Q" || F.starts_with("-dump") || F.starts_with("-print-") ||
               F.starts_with("--print-") || F == "--target-help" ||
               (F.starts_with("-Wl,") && (F.contains("--version") || F.contains("--help") ||
                                           F.ends_with(",-v")));
      }))) {
    // No input: g++'s queries (-dumpversion, -dumpmachine, -print-file-name=...,
    // -print-search-dirs, -v, -Q --help=warnings) — libtool, CMake and Makefiles ask the
    // compiler; the host compiler answers, as written (and says "no input files" itself).
    std::vector<std::string> Command = hostCommandAsWritten(HostCompiler, RawArgs);
    if (Error E = runCommand(Command, CommandOptions{})) {  // g++'s output alone (-v: CMake reads it)
      consumeError(std::move(E));  // the host compiler said why
      return 1;
    }
    return 0;
  }
  if (Pass != "device") {
    if (Inputs.empty())
      fail("no input file");
    for (const std::string &In : Inputs)
      if ((In == "-" || (isDeviceOrPipe(In) && hostInput(In))) &&
          (AsWrittenFirst || ProgramAsWritten || HostJobAsWritten))
        continue;  // standard input, a device or a pipe, for the host compiler as written
      else if (!sys::fs::exists(In))
        fail("no such file: '" + In + "'");
      else if (sys::fs::is_directory(In))
        fail("cannot read '" + In + "': it is a folder");
      else if (!sys::fs::is_regular_file(In))
        fail("cannot read '" + In + "': it is not a regular file");
      else if (isCxxSource(In) && !includablePath(In))
        fail("cannot compile '" + In + "': its name holds a newline, or both '\"' and '>', "
             "and offload-cxx's generated code must #include it; rename the file");
      else if (SmallString<256> Abs(In); isCxxSource(In) && !sys::fs::make_absolute(Abs) &&
               !includablePath(Abs) && mentions(In))
        fail("cannot compile '" + In + "': the path of its folder holds a newline, or both '\"' "
             "and '>', and offload-cxx's generated code must #include it; rename or move the "
             "folder");
      else if (!ExplicitLanguage && sys::path::extension(In) == ".c" && mentions(In))
        // g++ compiles it as C++; clang, which compiles its kernels for the devices, as C.
        fail("'" + In + "' uses offload, and a file with kernels needs a C++ name (.cpp, .cc, "
             ".cxx, .C): rename it (g++ compiles a .c file as C++, the device compilers as C)");
      else if (llvm::is_contained({".i", ".ii"}, sys::path::extension(In)) && mentions(In))
        // Its kernels would reach no device (distcc's and icecream's -E, then the .ii: the
        // program ran its kernels as anonymous host code, its lambdas as host loops).
        fail("'" + In + "' is preprocessed and uses offload: a file's kernels are compiled from "
             "its source, preprocessed again for each device; compile the source, not its "
             "preprocessed output");
      else if (Language == "c++" && !isCxxSource(In) && !isOtherHostSource(In) && mentions(In))
        // -x c++ kernels.inc: the device compilers go by the name (a one-step link handed it
        // to ld as a linker script).
        fail("'" + In + "' uses offload, and a file with kernels needs a C++ name (.cpp, .cc, "
             ".cxx, .C): rename it, or #include it from a .cpp file (-x c++ does not reach the "
             "device compiles)");
      else if (Language == "c++" && sys::path::extension(In) == ".c" && mentions(In))
        fail("'" + In + "' uses offload, and a file with kernels needs a C++ name (.cpp, .cc, "
             ".cxx, .C): rename it (-x c++ does not reach the device compiles, which read it as C)");
    if (CompileOnly && Inputs.size() > 1 && !Output.empty())
      fail("-o with -c names one object, but there are " + std::to_string(Inputs.size()) +
           " sources");
  }
  const bool OutputNamed = !Output.empty();
  if (Output.empty() && !(CompileOnly && Inputs.size() > 1))
    Output = Pass == "host-metadata" ? "offload.manifest"
             : Pass == "device"      ? "device.bin"
             : CompileOnly           ? sys::path::stem(Inputs[0]).str() + ".o"
                                     : "a.out";

  if (!DryRun) {
    StringRef OutDir = sys::path::parent_path(Output);
    if (!OutDir.empty() && !sys::fs::is_directory(OutDir))
      fail("cannot write '" + Output + "': no such directory '" + OutDir + "'");
    if (!Output.empty() && sys::fs::is_directory(Output))
      fail("cannot write '" + Output + "': it is a folder");
    // As g++: never write over an input (-o x.cpp, or -c's default object name for x.o input).
    auto Same = [](StringRef A, StringRef B) {
      bool Equal = false;
      return A == B || (!sys::fs::equivalent(A, B, Equal) && Equal);
    };
    std::vector<std::string> Outputs = {Output};
    if (CompileOnly && Output.empty())
      for (const std::string &In : Inputs)
        Outputs.push_back(sys::path::stem(In).str() + ".o");
    for (const std::string &In : Inputs)
      for (const std::string &Out : Outputs)  // (a device, /dev/null, may be both: as g++)
        if (!Out.empty() && sys::fs::is_regular_file(Out) && Same(In, Out))
          fail("input file '" + In + "' is the same as output file");
    // Libraries named with -l, where the link will find them.
    for (const std::string &Lib : LinkLibs)
      for (const std::string &Dir : LinkDirs)
        for (const std::string &File : libraryFiles(Dir, Lib))
          if (!Output.empty() && sys::fs::exists(Output) && Same(File, Output))
            fail("input file '" + File + "' is the same as output file");
    for (const std::string &Path : {std::string(ManifestPath), std::string(DeviceImagePath)})
      if (!Path.empty() && !Output.empty() && sys::fs::exists(Output) && Same(Path, Output))
        fail("input file '" + Path + "' is the same as output file");
    // A failed build removes its output only if the build may have written it, or it is an
    // earlier build's output (a program, an object, an archive, a device image or manifest):
    // never a user's other file that -o happens to name, nor the target of a symbolic link.
    if (mayReplaceOnFailure(Output))
      OnFailure.Output = Output;
  }

  // Temporaries: beside the output under --save-temps, else in a private folder (and there
  // for a command compiled as written: its -save-temps is g++'s).
  const bool KeepTemps = SaveTemps && !AsWrittenFirst && !ProgramAsWritten;
  if (!SaveTempsWhere.empty() && SaveTempsWhere != "obj" && SaveTempsWhere != "cwd")
    fail("-save-temps=" + SaveTempsWhere + ": expected -save-temps, -save-temps=obj or -save-temps=cwd");
  SmallString<256> TempDir;
  std::string Stem = Output.empty() ? "offload" : tempStem(Output);
  if (KeepTemps) {
    protectFiles(std::vector<std::string>(Inputs.begin(), Inputs.end()));
    if (SaveTempsWhere != "cwd")
      TempDir = sys::path::parent_path(Output);
    if (TempDir.empty())
      TempDir = ".";
  } else {
    // Interrupted (SIGINT, SIGTERM, SIGHUP): the temporary folder goes too, and the driver
    // ends there (it went on and wrote into the removed folder). The folder is made and
    // registered with those signals held, so that none falls between the two.
    sys::SetInterruptFunction(exitAfterSignalCleanup);
    handleEndingSignals();  // (LLVM may have installed its handlers again)
    sigset_t Interrupts, Before;
    sigemptyset(&Interrupts);
    for (int Sig : {SIGINT, SIGTERM, SIGHUP})
      sigaddset(&Interrupts, Sig);
    pthread_sigmask(SIG_BLOCK, &Interrupts, &Before);
    std::error_code Made = sys::fs::createUniqueDirectory("offload-cxx", TempDir);
    if (!Made)
      removeOnSignal(std::string(TempDir));
    // The output goes too, as g++ removes an interrupted step's output: a linker still writing
    // it as the driver ended left a whole program that this build never finished checking
    // (adversarial pass, 2026-12-06) — an earlier build's, like a failed build's, is not kept.
    if (!Made && !OnFailure.Output.empty())
      removeOnSignal(OnFailure.Output);
    pthread_sigmask(SIG_SETMASK, &Before, nullptr);
    check(errorCodeToError(Made));
    // The commands' own temporaries (g++'s ccXXXXXX.s, clang's) go in this folder as well: a
    // signal to the whole process group (Ctrl-\) ended them before they removed theirs.
    if (const char *Was = std::getenv("TMPDIR"))
      UserTmpDir = Was;
    ::setenv("TMPDIR", TempDir.c_str(), 1);
  }
  if (!KeepTemps) {
    OnFailure.TempDir = std::string(TempDir);
    // A closed pipe on stderr (`offload-cxx ... 2>&1 | head -c 10`): the same, then exit 1.
    sys::SetOneShotPipeSignalFunction([] {
      runSignalCleanup();
      ::_exit(1);
    });
  }
  scope_exit Cleanup([&] {
    if (!KeepTemps)
      sys::fs::remove_directories(TempDir);
  });

  // The dependency file of Target (an object, or a program): as g++ names it (-MF, else the
  // target with .d for its extension) and for the targets it names (-MT/-MQ, else Target).
  auto writeDepFile = [&](const std::vector<std::string> &DepFiles, const std::string &Target,
                          const std::string &SkipDir, std::vector<std::string> Sources = {},
                          const std::string &DefaultPath = "") {
    SmallString<256> Path(User.Deps.File.empty() ? DefaultPath : User.Deps.File);
    if (Path.empty()) {
      Path = Target;
      sys::path::replace_extension(Path, ".d");
    }
    std::vector<std::string> Targets = User.Deps.Targets;
    if (Targets.empty())  // as g++ writes its default target: quoted for make (-MQ)
      Targets.push_back(escapeForMake(Target));
    // Standard input's copy is no prerequisite (g++ lists none for `-`; a later make stopped at
    // "No rule to make target /tmp/offload-cxx-stdin-...": adversarial pass).
    std::vector<std::string> Skip;
    if (!StdinSource.Path.empty()) {
      llvm::erase(Sources, StdinSource.Path);
      Skip.push_back(StdinSource.Path);
    }
    if (Error E = writeMergedDepFile(std::string(Path), Targets, DepFiles, User.Deps.Phony, SkipDir,
                                     Sources, Skip)) {
      // No output without its dependency file (a disk full under -MF): make would take the new
      // object for up to date and never know its headers; g++ leaves none either (fourteenth
      // adversarial pass).
      if (sys::fs::is_regular_file(Target))
        sys::fs::remove(Target);
      check(std::move(E));
    }
  };
  // A file that never mentions offload is compiled by the host compiler exactly as written
  // (any -std, g++'s default standard, no flag of ours but our headers' folder last, g++'s own
  // -v output): unless its preprocessing reached offload's headers after all (a header of the
  // project includes them), it has no kernel, and that object is the object (issue 32).
  bool AsWritten = false;
  if (AsWrittenFirst) {
    const std::string Source = Inputs[0];
    const std::string HostObject =
        std::string(TempDir) + "/" + Stem + "." + tempStem(Source) + ".host.o";
    const std::string Deps = hostDepFile(TempDir, HostObject);  // as compileUnit names it
    std::vector<std::string> Command = hostCommandAsWritten(HostCompiler, RawArgs);
    keepLastOutput(Command);
    // The object where g++ would write it, so that what g++ writes beside it (-gsplit-dwarf's
    // .dwo, --coverage's .gcno, -fstack-usage's .su) is where g++ puts it, named as g++ names it.
    const std::string Object =
        Output.empty() ? sys::path::stem(Source).str() + ".o" : std::string(Output);
    if (llvm::none_of(Command, [](StringRef A) { return A.starts_with("-o") || A.starts_with("--output"); }))
      Command.insert(Command.end(), {"-o", Object});
    // An output that is not a plain file (-o /dev/null): the object the pipeline reads is made
    // beside the temporaries (compileToObject then writes into the output, as g++ does).
    // A file named otherwise but compiled as C++ (`-x c++ util.inc`) records its functions for
    // other files' kernels as a .cpp does (the device compiles #include it, whatever its name):
    // the GPU link said none of the objects defined them (adversarial pass). Not a device or a
    // pipe (`-x c++ -c /dev/null`: configure's probes).
    // A .c file with no -x is C++ to g++ (and clang++) as well: its functions too (twelfth
    // adversarial pass: a kernel calling a function of helper.c failed the GPU link, "holds no
    // code offload-cxx can compile").
    const bool CxxByName = !ExplicitLanguage && sys::path::extension(Source) == ".c";
    const bool CxxByLanguage =
        ((Language == "c++" && !isCxxSource(Source) && !isOtherHostSource(Source)) || CxxByName) &&
        sys::fs::is_regular_file(Source);
    sys::fs::file_status OutStatus;
    const bool SpecialOutput = (isCxxSource(Source) || CxxByLanguage) && !sys::fs::status(Object, OutStatus) &&
                               sys::fs::exists(OutStatus) && !sys::fs::is_regular_file(OutStatus);
    if (SpecialOutput) {
      for (size_t I = 1; I < Command.size(); ++I) {
        if (Command[I] == "-o" && I + 1 < Command.size())
          Command[I + 1] = HostObject;
        else if (StringRef(Command[I]).starts_with("-o") && Command[I].size() > 2)
          Command[I] = "-o" + HostObject;
      }
    }
    // DEPENDENCIES_OUTPUT or SUNPRO_DEPENDENCIES (no -M option): g++ writes that file, as it
    // would alone (our -MD -MF took its place: adversarial pass), and it is read here instead.
    std::string EnvDeps;
    if (!User.Deps.Enabled)
      for (const char *Var : {"DEPENDENCIES_OUTPUT", "SUNPRO_DEPENDENCIES"})
        if (const char *V = std::getenv(Var); V && *V && EnvDeps.empty())
          EnvDeps = StringRef(V).trim().split(' ').first.str();
    if (EnvDeps.empty())
      Command.insert(Command.end(), {User.Deps.UserHeadersOnly ? "-MMD" : "-MD", "-MF", Deps});
    Command.insert(Command.end(), {"-idirafter", L.IncludeDir});  // last of all: after -isystem, -idirafter
    std::string Errors;
    Error Failed = [&] {
      UsersTmpDir Restored;
      return runCommandCapturingErrors(Command, Cmd, Deps + ".stderr", Errors);
    }();
    if (!EnvDeps.empty() && sys::fs::exists(EnvDeps))
      consumeError(errorCodeToError(sys::fs::copy_file(EnvDeps, Deps)));
    ErrorOr<std::unique_ptr<MemoryBuffer>> DepText = MemoryBuffer::getFile(Deps);
    // Its dependencies (or, if it failed, its errors) name a header of offload's.
    const std::string Headers = L.IncludeDir + "/offload/";
    // A header the command includes through its precompiled form (`-include kh.hpp` with
    // kh.hpp.gch beside it: CMake's target_precompile_headers, unity builds) lists none of the
    // headers it holds: what the header itself reaches is asked of the host compiler (a
    // dependency run on the header alone), so that offload reached through it is seen
    // (thirteenth adversarial pass: such a file was taken for a plain one, and its kernels lost
    // their GPU code without a word).
    auto precompiledReaches = [&] {
      for (size_t I = 0; I + 1 < Command.size(); ++I) {
        if (Command[I] != "-include" || !sys::fs::exists(Command[I + 1] + ".gch"))
          continue;
        const std::string Header = Command[I + 1], Listed = Deps + ".pch.d";
        std::vector<std::string> Ask;
        for (size_t J = 0; J < Command.size(); ++J) {
          StringRef A = Command[J];
          if (J == I || A == "-c" || A == "-MD" || A == "-MMD" || A == "-MP" || A == Source ||
              A.starts_with("-save-temps") || A.starts_with("-fdump-") || A == "-gsplit-dwarf" ||
              A == "--coverage" || A == "-fstack-usage")
            continue;
          if (J == I + 1 || A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ" ||
              A == "-dumpdir" || A == "-dumpbase" || A == "-dumpbase-ext") {
            if (J != I + 1)
              ++J;  // and its value
            continue;
          }
          Ask.push_back(A.str());
        }
        Ask.insert(Ask.end(), {"-M", "-MF", Listed, "-x", "c++-header", Header});
        std::string Said;
        if (Error E = runCommandCapturingErrors(Ask, Cmd, Listed + ".stderr", Said)) {
          consumeError(std::move(E));
          return true;  // not known: the whole build below decides
        }
        if (auto Text = MemoryBuffer::getFile(Listed); Text && (*Text)->getBuffer().contains(Headers))
          return true;
      }
      return false;
    };
    const bool ReachedOffload =
        (Failed && StringRef(Errors).contains(Headers)) ||
        (!Failed && DepText && StringRef((*DepText)->getBuffer()).contains(Headers)) ||
        (!Failed && precompiledReaches());
    if (!ReachedOffload) {
      errs() << Errors;  // the host compiler's own words, warnings or errors
      if (Failed) {
        consumeError(std::move(Failed));
        return 1;
      }
      // C, assembly, standard input: nothing of ours to add (`-x c++ util.inc`: CxxByLanguage).
      if ((!isCxxSource(Source) && !CxxByLanguage) || Source == StdinSource.Path) {
        if (User.Deps.Enabled && sys::fs::exists(Deps))
          writeDepFile({Deps}, Object, std::string(TempDir));
        return 0;
      }
      // The pipeline below takes its host object from the temporaries (compileToObject).
      if (!SpecialOutput)
        if (std::error_code EC = sys::fs::copy_file(Object, HostObject))
          fail("cannot read '" + Object + "': " + EC.message());
      // Its object is the object — with, where our parse of it succeeds, the functions it
      // defines for kernels of other files (CrossFileCallees.h) recorded beside it, to be
      // compiled as g++ compiled it: under g++'s default standard when none was given
      // (gnu++17, not offload's c++20: `linux` defined, no __STRICT_ANSI__; adversarial pass).
      AsWritten = true;
      if (Standard.empty() && !llvm::is_contained(Flags, "-ansi"))
        Flags.push_back("-std=gnu++17");
    } else {
      consumeError(std::move(Failed));
      requireOffloadOptions(Source);  // it uses offload after all: the whole build below
    }
  }

  if (ProgramAsWritten) {
    std::vector<std::string> Command = hostCommandAsWritten(HostCompiler, RawArgs);
    Command.insert(Command.end(), {"-idirafter", L.IncludeDir});  // last of all: after -isystem, -idirafter
    if (User.Deps.Enabled) {  // g++'s own dependency options, as written
      Command.push_back(User.Deps.UserHeadersOnly ? "-MMD" : "-MD");
      if (!User.Deps.File.empty())
        Command.insert(Command.end(), {"-MF", User.Deps.File});
      for (const std::string &T : User.Deps.Targets)
        Command.insert(Command.end(), {"-MT", T});
      if (User.Deps.Phony)
        Command.push_back("-MP");
    }
    std::string Errors;
    Error Failed = [&] {
      UsersTmpDir Restored;
      return runCommandCapturingErrors(Command, Cmd, std::string(TempDir) + "/as-written.stderr", Errors);
    }();
    // A source that reached offload's headers through another header (its errors name them), or
    // a launch that needs the runtime (the link names offload's symbols): the whole build below.
    // (Not any "offload" in the text: g++'s own temporary objects are in our temporary folder,
    // and a failed plain link was built again, its errors naming them: adversarial pass.)
    const StringRef Said(Errors);
    const bool Ours = Said.contains(L.IncludeDir + "/offload/") || Said.contains("offload::") ||
                      Said.contains("__offload") || Said.contains("_ZN7offload");
    if (!Failed || !Ours) {
      errs() << Errors;
      if (Failed) {
        consumeError(std::move(Failed));
        return 1;
      }
      return 0;
    }
    consumeError(std::move(Failed));
    const auto Using = llvm::find_if(Inputs, [&](const std::string &In) { return hostInput(In) && mentions(In); });
    requireOffloadOptions(Using != Inputs.end() ? *Using : std::string("this build"));
  }

  BuildSettings S;
  S.L = L;
  S.Commands = Cmd;
  S.OptLevel = Opt;
  if (CpuImage != "auto" && CpuImage != "on" && CpuImage != "off")
    fail("--cpu-image takes auto, on or off, not '" + CpuImage + "'");
  S.CpuImage = CpuImage == "on" ? CpuImageMode::On : CpuImage == "off" ? CpuImageMode::Off : CpuImageMode::Auto;
  // Coverage counts what g++'s instrumented code runs: the CPU image is clang's code, and its
  // kernels would count as never executed (adversarial pass). Unless --cpu-image=on, kernels
  // then run on the CPU device as g++ compiled them, work-item by work-item.
  if (S.CpuImage == CpuImageMode::Auto &&
      llvm::any_of(HostFlags, [](StringRef F) { return F == "--coverage" || F == "-fprofile-arcs"; })) {
    S.CpuImage = CpuImageMode::Off;
    if (Verbose)
      errs() << "offload-cxx: " << (llvm::is_contained(HostFlags, "--coverage") ? "--coverage" : "-fprofile-arcs")
             << ": no CPU image; kernels run on the CPU device as g++ compiled them (fibers), "
                "so that coverage counts them (--cpu-image=on: the image, not counted)\n";
  }
  // The CPU image: the user's -m, -f and -g flags (HostFlags.h); every device compile:
  // -Xoffload-device's.
  S.CpuArgs = User.Cpu;
  S.CpuArgs.insert(S.CpuArgs.end(), User.Debug.begin(), User.Debug.end());
  S.DeviceArgs = User.Device;
  if (User.Deps.Enabled)
    S.DepFlag = User.Deps.UserHeadersOnly ? "-MMD" : "-MD";
  S.TempDir = std::string(TempDir);
  S.Stem = Stem;
  // g++ names them for the program less an ".exe" (`-o out/prog.exe`: out/prog-k.dwo), no
  // other extension (adversarial pass: out/prog.exe-k.dwo).
  S.SideOutputPrefix = OutputNamed ? (StringRef(Output).ends_with(".exe") ? StringRef(Output).drop_back(4) : StringRef(Output)).str() + "-" : "a-";
  S.GccHostCompiler = sys::path::filename(HostCompiler).find("clang") == StringRef::npos;
  setGccHostCompiler(HostCompiler);
  S.AsWritten = AsWritten;
  // --offload-arch, parsed once, when something is compiled (a link takes its objects').
  if (CompileOnly || Pass == "device" || (Pass == "all" && llvm::any_of(Inputs, isCxxSource)))
    S.Archs = check(chooseArchs(std::vector<std::string>(OffloadArchs.begin(), OffloadArchs.end()),
                                check(findToolchain(L))));

  auto hostOptions = [&]() {
    HostPassOptions O;
    O.HostCompiler = HostCompiler;
    O.CompileArgs = Flags;
    if (!Opt.empty())
      O.CompileArgs.push_back(Opt);
    O.CompileArgs.insert(O.CompileArgs.end(), User.Debug.begin(), User.Debug.end());
    if (SaveTemps)  // g++'s temporaries too (.ii, .s), where g++ keeps them, as g++ names them
      O.CompileArgs.push_back(SaveTempsWhere.empty() ? "-save-temps" : "-save-temps=" + SaveTempsWhere);
    for (const std::string &F : HostFlags)
      O.CompileArgs.push_back(F);
    // -L, -l and the link's flags, each at its place among the inputs (HostPassOptions).
    auto inputsBefore = [&](unsigned Position) {
      unsigned N = 0;
      for (unsigned I = 0; I < Inputs.size(); ++I)
        N += Inputs.getPosition(I) < Position;
      return N;
    };
    // In one order: llvm::cl's position P of an argument is 2P, a flag that stood before the
    // argument at P is 2P - 1.
    std::vector<std::pair<unsigned, std::string>> Placed;  // (order, argument)
    for (unsigned I = 0; I < LinkDirs.size(); ++I)
      Placed.push_back({2 * LinkDirs.getPosition(I), "-L" + LinkDirs[I]});
    for (unsigned I = 0; I < LinkLibs.size(); ++I)
      Placed.push_back({2 * LinkLibs.getPosition(I), "-l" + LinkLibs[I]});
    for (size_t I = 0; I < HostLinkFlags.size(); ++I)
      Placed.push_back({I < User.LinkAt.size() ? 2 * User.LinkAt[I] - 1 : ~0u, HostLinkFlags[I]});
    llvm::stable_sort(Placed, [](const auto &A, const auto &B) { return A.first < B.first; });
    for (auto &[Order, Arg] : Placed) {
      O.LinkArgs.push_back(Arg);
      O.LinkArgsAfter.push_back(Order == ~0u ? unsigned(Inputs.size()) : inputsBefore(Order / 2 + Order % 2));
    }
    O.DepFlag = S.DepFlag;
    O.OffloadIncludeDir = L.IncludeDir;
    O.RuntimeLibDir = L.RuntimeLibDir;
    O.LLVMLibDir = L.LLVMLibDir;
    O.TempDir = std::string(TempDir);
    O.TempStem = Stem;
    O.Commands = Cmd;
    return O;
  };
  if (CompileOnly) {
    for (const std::string &Source : Inputs) {
      // A .c file compiled as written (C++ to g++): its functions recorded, as a .cpp's.
      const bool CxxNamedC = AsWritten && !ExplicitLanguage && sys::path::extension(Source) == ".c";
      if (isOtherHostSource(Source) && !CxxNamedC) {  // C, assembly, preprocessed beside a C++ source: g++'s
        const std::string Object =
            Output.empty() ? sys::path::stem(Source).str() + ".o" : std::string(Output);
        std::vector<std::string> Command = check(hostCompileCommand(Source, hostOptions(), Object));
        if (Error E = runCommand(Command, Cmd)) {
          consumeError(std::move(E));  // the host compiler said why
          exitFailed();
        }
        continue;
      }
      if (!isCxxSource(Source) && !(Language == "c++" && !isOtherHostSource(Source)) && !CxxNamedC)
        fail("-c compiles C++ sources; '" + Source + "' is not one");
      // g++'s assembler cannot write an object to standard output either (it wrote a file
      // named '-': adversarial pass).
      if (Output == "-")
        fail("-c -o -: an object cannot be written to standard output; name a file");
      HostPassOptions HO = hostOptions();
      const std::string Object =
          Output.empty() ? sys::path::stem(Source).str() + ".o" : std::string(Output);
      // The object is made among the temporaries and appears only when complete (an
      // interrupted compile that left the host compiler's object there made `make` take a
      // program without its device code); what g++ writes beside an object (-gsplit-dwarf's
      // .dwo, --coverage's .gcno and the .gcda path in the object, -fstack-usage's .su,
      // -save-temps' .ii and .s) is named for the object all the same (GCC's -dumpdir). An output
      // that is not a plain file (-o /dev/null) is written into, as g++ does (compileToObject).
      sys::fs::file_status OutStatus;
      const bool SpecialOutput = !sys::fs::status(Object, OutStatus) && sys::fs::exists(OutStatus) &&
                                 !sys::fs::is_regular_file(OutStatus);
      const std::string HostObject =
          std::string(TempDir) + "/" + Stem + "." + tempStem(Source) + ".host.o";
      std::vector<std::string> Command = check(hostCompileCommand(Source, HO, HostObject));
      if (!SpecialOutput && !AsWritten) {  // (compiled as written, g++ named them itself)
        const StringRef Dir = sys::path::parent_path(Object);
        // As g++ names them: the object's stem with the source's extension (k.cpp.005t.original
        // for -fdump-*, k.gcno, k.dwo; it was k.o.005t.original: adversarial pass).
        nameSideOutputs(Command, HO, Dir.empty() ? "" : (Dir + "/").str(),
                        (sys::path::stem(Object) + sys::path::extension(Source)).str(),
                        sys::path::extension(Source));
      }
      std::vector<std::string> DepFiles;
      // A source that defines and launches no kernel (and exports no device function) is left
      // as the host compiler wrote it: nothing to embed.
      check(compileToObject(S, Source, Flags, Command, HostObject, Object,
                            /*SkipWithoutKernels=*/true, &DepFiles));
      if (User.Deps.Enabled && !DryRun)
        writeDepFile(DepFiles, Object, std::string(TempDir), {Source});
    }
    return 0;
  }

  if (Pass == "host-metadata") {
    Manifest M = check(runHostMetadata(S, Inputs[0], Flags));
    check(writeManifest(M, Output));
    return 0;
  }
  if (Pass == "device") {
    if (ManifestPath.empty())
      fail("--pass=device needs --manifest=PATH");
    Manifest M = check(readManifest(ManifestPath));
    Timer T{"device pass", Cmd};
    Toolchain Tools = check(findToolchain(L));
    std::vector<DeviceImageFile> Units;
    Units.push_back(check(compileDeviceCode(M, Tools, deviceOptions(S, Stem))));
    DeviceImageFile Program = check(linkDeviceCode(S, std::move(Units), Stem));
    if (!DryRun)
      check(writeDeviceImageFile(Program, Output));
    return 0;
  }
  if (Pass == "host") {
    if (DeviceImagePath.empty())
      fail("--pass=host needs --device-image=PATH");
    if (!sys::fs::exists(DeviceImagePath))
      fail("no such file: '" + DeviceImagePath + "'");
    Timer T{"host pass", Cmd};
    check(runHostPass(std::vector<std::string>(Inputs.begin(), Inputs.end()), DeviceImagePath,
                      hostOptions(), Output));
    return 0;
  }

  // A program. Static libraries named with -l (searched in the -L folders, as the host link
  // will) carry device code too; the host link still gets the -l itself.
  const std::vector<std::string> Archives = LinkedArchives;
  SourceDepFiles DepFiles;
  check(buildProgram(S, std::vector<std::string>(Inputs.begin(), Inputs.end()), Archives, Flags,
                     hostOptions(), Output, &DepFiles));
  if (User.Deps.Enabled && !DryRun) {
    if (!OutputNamed && User.Deps.File.empty()) {
      // No -o, no -MF: g++ writes each source's rule beside a.out, as `a-<stem>.d` for the
      // target `<stem>.o` (the object it would have named).
      for (const auto &[Source, Files] : DepFiles) {
        const std::string Stem = sys::path::stem(Source).str();
        writeDepFile(Files, Stem + ".o", std::string(TempDir), {Source}, "a-" + Stem + ".d");
      }
    } else {
      // One rule for the program, every source's prerequisites (g++ keeps only the last
      // source's: a make that reads it misses a change to the others').
      std::vector<std::string> All;
      for (const auto &Unit : DepFiles)
        All.insert(All.end(), Unit.second.begin(), Unit.second.end());
      writeDepFile(All, Output, std::string(TempDir));
    }
  }
  return 0;
}
