// compiler/Launcher.cpp — see Launcher.h.
//
// compile-launcher: the user's compile command runs as CMake wrote it (it writes the object and
// its depfile); meanwhile the host-metadata pass parses the same source with only the command's
// -I/-isystem/-iquote/-D/-U/-std=/-include flags; a source that defines or launches kernels then
// gets its device bitcode (per --offload-arch) embedded in the object, as `offload-cxx -c` does.
//
// link-launcher: reads the `.offload_cxx` sections of the objects and static libraries on the
// link command, links and lowers the device code as `offload-cxx a.o b.o -o prog` does, and runs
// the user's link command with the registration object and the runtime libraries appended.
#include "Launcher.h"
#include "ObjectFiles.h"

#include "Build.h"
#include "HostPass.h"

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
  // What the command compiles and writes, and the flags the host-metadata pass needs.
  std::string Source, Object, Opt;
  std::vector<std::string> MetadataFlags;
  bool CompileOnly = false, OtherOutput = false;
  for (size_t I = 1; I < Argv->size(); ++I) {
    StringRef A = (*Argv)[I];
    auto Next = [&]() -> std::string { return I + 1 < Argv->size() ? (*Argv)[++I] : ""; };
    if (A == "-c") {
      CompileOnly = true;
      if (I + 1 < Argv->size() && !StringRef((*Argv)[I + 1]).starts_with("-"))
        Source = Next();
    } else if (A == "-o") {
      Object = Next();
    } else if (A.starts_with("-o") && A.size() > 2) {
      Object = A.drop_front(2).str();
    } else if (A == "-E" || A == "-S" || A == "-M" || A == "-MM" || A == "-fsyntax-only") {
      OtherOutput = true;
    } else if (A == "-I" || A == "-isystem" || A == "-iquote" || A == "-D" || A == "-U" ||
               A == "-include" || A == "-idirafter") {
      MetadataFlags.push_back(A.str());
      MetadataFlags.push_back(Next());
    } else if (A.starts_with("-I") || A.starts_with("-isystem") || A.starts_with("-iquote") ||
               A.starts_with("-D") || A.starts_with("-U") || A.starts_with("-std=") ||
               A.starts_with("-idirafter")) {
      MetadataFlags.push_back(A.str());
    } else if (A.starts_with("-O")) {
      Opt = A.str();
    } else if (A == "-MF" || A == "-MT" || A == "-MQ" || A == "-x" || A == "-Xlinker") {
      ++I;  // their values are not sources
    } else if (Source.empty() && !A.starts_with("-") && isCxxSource(A)) {
      Source = A.str();
    }
  }
  // CMake's compiler checks, preprocessing and the like: nothing to add.
  if (!CompileOnly || OtherOutput || Source.empty() || Object.empty())
    return runUnchanged(*Argv);

  Expected<std::string> TempDir = makeTempDir();
  if (!TempDir)
    return failWith(TempDir.takeError());
  scope_exit Cleanup([&] { sys::fs::remove_directories(*TempDir); });
  BuildSettings S = launcherSettings(L, Opt, *TempDir, Object);
  Expected<Toolchain> Tools = findToolchain(L);
  if (!Tools)
    return failWith(Tools.takeError());
  Expected<std::vector<OffloadArch>> Archs =
      chooseArchs(std::vector<std::string>(LauncherArchs.begin(), LauncherArchs.end()), *Tools);
  if (!Archs)
    return failWith(Archs.takeError());
  S.Archs = std::move(*Archs);
  const std::string &Compiler = (*Argv)[compilerWord(*Argv)];  // (ccache g++: g++)
  S.GccHostCompiler = sys::path::filename(Compiler).find("clang") == StringRef::npos;
  setGccHostCompiler(Compiler);
  if (Error E = compileToObject(S, Source, MetadataFlags, *Argv, Object, Object,
                                /*SkipWithoutKernels=*/true))
    return failWith(std::move(E));
  return 0;
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
