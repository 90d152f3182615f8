// compiler/Launcher.cpp — see Launcher.h.
//
// compile-launcher: the user's compile command runs as CMake wrote it (it writes the object and
// its depfile); meanwhile the host-metadata pass parses the same source with only the command's
// -I/-isystem/-iquote/-idirafter/-D/-U/-std=/-include/-imacros flags; a source that defines or
// launches kernels then gets its device bitcode (per --offload-arch) embedded in the object, as
// `offload-cxx -c` does. The object is the one g++ writes, however the command names it (-o X,
// --output=X, none: the source's stem + .o); `-c a.cpp b.cpp` runs one command per source.
//
// link-launcher: reads the `.offload_cxx` sections of the objects and static libraries on the
// link command, links and lowers the device code as `offload-cxx a.o b.o -o prog` does, and runs
// the user's link command with the registration object and the runtime libraries appended.
#include "Launcher.h"
#include "ObjectFiles.h"

#include "Build.h"
#include "HostFlags.h"
#include "HostPass.h"
#include "OffloadMentions.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace offload::compiler {

cl::SubCommand CompileLauncherCommand(
    "compile-launcher",
    "Run a C++ compile command (after --) and put the device code of its source into the object "
    "it writes (CMake's CXX_COMPILER_LAUNCHER)");
cl::SubCommand LinkLauncherCommand(
    "link-launcher",
    "Run a link command (after --) with the device code of its objects and libraries "
    "registered and the offload runtime linked (CMake's CXX_LINKER_LAUNCHER)");

namespace {

cl::list<std::string> LauncherArchs(
    "offload-arch", cl::CommaSeparated, cl::sub(CompileLauncherCommand),
    cl::desc("Device architectures to build (as the driver's --offload-arch; default "
             "native,host)"),
    cl::value_desc("arch,..."));
cl::opt<bool> LauncherVerbose("v", cl::desc("Print each command offload-cxx runs, with its time"),
                              cl::sub(CompileLauncherCommand), cl::sub(LinkLauncherCommand));
cl::list<std::string> CompileCommand(cl::Positional, cl::sub(CompileLauncherCommand),
                                     cl::desc("-- <compiler> <args>..."));
cl::list<std::string> LinkCommand(cl::Positional, cl::sub(LinkLauncherCommand),
                                  cl::desc("-- <linker driver> <args>..."));

int failWith(Error E) {
  if (E.isA<ReportedError>()) {
    consumeError(std::move(E));
    return 1;
  }
  WithColor::error(errs(), "offload-cxx") << toString(std::move(E)) << "\n";
  return 1;
}

/// The command with its program resolved on PATH (CMake usually gives an absolute path).
Expected<std::vector<std::string>> resolved(const cl::list<std::string> &Command) {
  if (Command.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no command to run: expected `-- <compiler> <args>...`");
  std::vector<std::string> Argv(Command.begin(), Command.end());
  if (Argv[0].find('/') == std::string::npos) {
    ErrorOr<std::string> Path = sys::findProgramByName(Argv[0]);
    if (!Path)
      return createStringError(inconvertibleErrorCode(), "cannot find '%s' on PATH",
                               Argv[0].c_str());
    Argv[0] = *Path;
  }
  return Argv;
}

/// Runs Argv as it is (commands the launcher has nothing to add to); its exit status.
int runUnchanged(ArrayRef<std::string> Argv) {
  SmallVector<StringRef> Args(Argv.begin(), Argv.end());
  std::string Message;
  int RC = sys::ExecuteAndWait(Argv[0], Args, std::nullopt, {}, 0, 0, &Message);
  if (RC < 0) {
    WithColor::error(errs(), "offload-cxx") << "cannot run '" << Argv[0] << "': " << Message << "\n";
    return 1;
  }
  return RC;
}

/// A private folder for intermediate files, removed when the launcher ends.
Expected<std::string> makeTempDir() {
  SmallString<256> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("offload-cxx", Dir))
    return createStringError(EC, "cannot create a temporary folder");
  return std::string(Dir);
}

/// What both launchers build with: this installation, the command's -O, a private temporary
/// folder, intermediate names after the command's output.
BuildSettings launcherSettings(const Layout &L, const std::string &Opt, const std::string &TempDir,
                               const std::string &Output) {
  BuildSettings S;
  S.L = L;
  S.Commands.Verbose = LauncherVerbose;
  S.OptLevel = Opt;
  S.TempDir = TempDir;
  S.Stem = sys::path::stem(Output).str();
  return S;
}

} // namespace

int runCompileLauncher(const Layout &L) {
  Expected<std::vector<std::string>> Argv = resolved(CompileCommand);
  if (!Argv)
    return failWith(Argv.takeError());
  // The command's words after the compiler (ccache g++: g++'s) as g++ reads them (HostFlags.h:
  // clang's option table knows that `-MT k.o`, `-x c++` and `-dumpbase k.cpp` take a value, and
  // reads --compile as -c, --output=X and --output X as -o X): what it compiles and writes, and
  // the flags the host-metadata pass needs.
  const size_t First = compilerWord(*Argv) + 1;
  const CommandWords Words = readCommandWords(ArrayRef(*Argv).drop_front(First));
  // CMake's compiler checks, preprocessing and the like: nothing to add.
  if (!Words.CompileOnly || !Words.OtherOutput.empty() || !Words.MissingValue.empty() ||
      Words.Inputs.empty())
    return runUnchanged(*Argv);
  // Each input is a C++ source, whose device code goes into its object, or the host compiler's
  // alone (C, assembly, an object, standard input). A file that uses offload under another name
  // (`-x c++ kernels.inc`, a .c file: C++ to g++) is refused, as the driver refuses it: the
  // device compiles go by the name, and its kernels would lose their device code unsaid.
  std::vector<std::string> Inputs;
  std::vector<bool> IsSource;
  for (size_t K = 0; K < Words.Inputs.size(); ++K) {
    const std::string &In = (*Argv)[First + Words.Inputs[K]];
    const StringRef Language = Words.InputLanguages[K];
    const bool Cxx = isCxxSource(In) && (Language.empty() || Language == "c++");
    const bool CxxToGxx =
        Language == "c++" || (Language.empty() && sys::path::extension(In) == ".c");
    if (!Cxx && CxxToGxx && sys::fs::is_regular_file(In) && mentionsOffload(In))
      return failWith(createStringError(
          inconvertibleErrorCode(),
          "'%s' uses offload, and a file with kernels needs a C++ name (.cpp, .cc, .cxx, .C): %s",
          In.c_str(),
          Language.empty() ? "rename it (g++ compiles a .c file as C++, the device compilers as C)"
                           : "rename it, or #include it from a .cpp file (-x c++ does not reach "
                             "the device compiles)"));
    Inputs.push_back(In);
    IsSource.push_back(Cxx);
  }
  const size_t Sources = llvm::count(IsSource, true);
  if (Sources == 0)
    return runUnchanged(*Argv);
  // -o names one object (g++ refuses it for several sources: "cannot specify '-o' with '-c',
  // '-S' or '-E' with multiple files"); without it each source's object is its stem + .o in the
  // current folder, as g++ names it.
  if (!Words.Output.empty() && Sources > 1) {
    if (int RC = runUnchanged(*Argv))
      return RC;
    return failWith(createStringError(
        inconvertibleErrorCode(),
        "-o names one object, but the command compiles %zu C++ sources ('%s', ...): their device "
        "code has no object of its own; compile each source with its own -o",
        Sources, Inputs[llvm::find(IsSource, true) - IsSource.begin()].c_str()));
  }
  auto objectOf = [&](const std::string &Source) {
    return Words.Output.empty() ? sys::path::stem(Source).str() + ".o" : Words.Output;
  };

  Expected<std::string> TempDir = makeTempDir();
  if (!TempDir)
    return failWith(TempDir.takeError());
  scope_exit Cleanup([&] { sys::fs::remove_directories(*TempDir); });
  Expected<Toolchain> Tools = findToolchain(L);
  if (!Tools)
    return failWith(Tools.takeError());
  Expected<std::vector<OffloadArch>> Archs =
      chooseArchs(std::vector<std::string>(LauncherArchs.begin(), LauncherArchs.end()), *Tools);
  if (!Archs)
    return failWith(Archs.takeError());
  const std::string &Compiler = (*Argv)[First - 1];
  setGccHostCompiler(Compiler);
  // Command compiles Source into Object (HostObject too: the command writes it, unchanged).
  auto compile = [&](ArrayRef<std::string> Command, const std::string &Source,
                     const std::string &Object) {
    BuildSettings S = launcherSettings(L, Words.OptLevel, *TempDir, Object);
    S.Archs = *Archs;
    S.GccHostCompiler = sys::path::filename(Compiler).find("clang") == StringRef::npos;
    if (Error E = compileToObject(S, Source, Words.MetadataFlags, Command, Object, Object,
                                  /*SkipWithoutKernels=*/true))
      return failWith(std::move(E));
    return 0;
  };
  if (Inputs.size() == 1 || !Words.Output.empty()) {
    const std::string &Source = Inputs[llvm::find(IsSource, true) - IsSource.begin()];
    return compile(*Argv, Source, objectOf(Source));
  }
  // `-c a.cpp b.cpp`: each input compiled by a command of its own, the other inputs left out
  // (as the driver does), so that each object gets its source's device code (adversarial pass:
  // only `-o X` was read, and such objects had none, without a word). g++ goes on after a
  // failed file; so does this.
  int Status = 0;
  for (size_t K = 0; K < Inputs.size(); ++K) {
    std::vector<std::string> Command(Argv->begin(), Argv->begin() + First);
    for (size_t I = 0; First + I < Argv->size(); ++I) {
      // A -x after this input names the language of later ones only: left out (g++ warns
      // "-x c after last input file has no effect").
      const auto X = llvm::find_if(Words.LanguageOptions,
                                   [&](const std::pair<size_t, size_t> &P) { return P.first == I; });
      if (I > Words.Inputs[K] && X != Words.LanguageOptions.end()) {
        I += X->second - 1;
        continue;
      }
      if (I == Words.Inputs[K] || !llvm::is_contained(Words.Inputs, I))
        Command.push_back((*Argv)[First + I]);
    }
    // g++ -c -dumpbase X a.cpp b.cpp names their side outputs X-a.*, X-b.*: each command is told
    // its own.
    for (size_t I = First; I + 1 < Command.size(); ++I)
      if (Command[I] == "-dumpbase")
        Command[I + 1] += "-" + sys::path::stem(Inputs[K]).str();
    if (LauncherVerbose)
      errs() << "offload-cxx: " << Inputs[K] << ": " << join(Command, " ") << "\n";
    const int RC = IsSource[K] ? compile(Command, Inputs[K], objectOf(Inputs[K]))
                               : runUnchanged(Command);
    if (RC != 0 && Status == 0)
      Status = RC;
  }
  return Status;
}

int runLinkLauncher(const Layout &L) {
  Expected<std::vector<std::string>> Argv = resolved(LinkCommand);
  if (!Argv)
    return failWith(Argv.takeError());
  std::string Output = "a.out", Opt;
  std::vector<std::string> Inputs;  // objects and static libraries, in order
  for (size_t I = 1; I < Argv->size(); ++I) {
    StringRef A = (*Argv)[I];
    if (A == "-o" && I + 1 < Argv->size()) {
      Output = (*Argv)[++I];
    } else if (A.starts_with("-O")) {
      Opt = A.str();
    } else if (A == "-Xlinker" || A == "-L" || A == "-l" || A == "-T" || A == "-MF") {
      ++I;
    } else if (!A.starts_with("-")) {
      StringRef Ext = sys::path::extension(A);
      if ((Ext == ".o" || Ext == ".obj" || Ext == ".a") && sys::fs::is_regular_file(A))
        Inputs.push_back(A.str());
    }
  }
  Expected<std::string> TempDir = makeTempDir();
  if (!TempDir)
    return failWith(TempDir.takeError());
  scope_exit Cleanup([&] { sys::fs::remove_directories(*TempDir); });
  BuildSettings S = launcherSettings(L, Opt, *TempDir, Output);

  Expected<std::vector<DeviceImageFile>> DeviceCode =
      readDeviceCodeOf(Inputs, S.Commands, takesWholeArchives(*Argv), groupsArchives(*Argv));
  if (!DeviceCode)
    return failWith(DeviceCode.takeError());
  std::vector<std::pair<std::string, std::string>> LinkInputs;
  for (const std::string &In : Inputs)
    LinkInputs.push_back({In, In});
  Expected<DeviceImageFile> Program =
      linkDeviceCode(S, std::move(*DeviceCode), S.Stem + ".linked", LinkInputs);
  if (!Program)
    return failWith(Program.takeError());
  std::vector<std::string> Link = *Argv;
  // Nothing of offload in the program: the link as CMake wrote it (HostPass.cpp's linkProgram).
  if (Program->Kernels.Kernels.empty() && !needsOffloadRuntime(Inputs, groupsArchives(*Argv))) {
    Timer T{"link", S.Commands};
    if (Error E = runCommand(Link, S.Commands))
      return failWith(std::move(E));
    return 0;
  }
  Expected<std::vector<std::string>> Added = writeProgramObjects(*Program, S.TempDir + "/" + S.Stem);
  if (!Added)
    return failWith(Added.takeError());
  Link.insert(Link.end(), Added->begin(), Added->end());
  for (std::string &A : runtimeLinkArgs(L.RuntimeLibDir))
    Link.push_back(std::move(A));
  Timer T{"link", S.Commands};
  if (Error E = runCommand(Link, S.Commands))
    return failWith(std::move(E));
  return 0;
}

} // namespace offload::compiler
