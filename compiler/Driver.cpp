// compiler/Driver.cpp — `offload-cxx`, the compiler driver. It runs the three passes
//   host metadata (manifest) -> device (device.bin) -> host (the program)
// in one command, or one at a time with --pass, like the seed's -Zoffload=HostMetadata|Device|Host.
// Options are declared in one table below; each says which pass consumes it.
#include "DevicePass.h"
#include "HostMetadataPass.h"
#include "HostPass.h"
#include "Manifest.h"
#include "ObjectFiles.h"
#include "Subprocess.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

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
cl::opt<bool> Debug("g", cl::desc("Host debug information"), cl::cat(Category));
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
cl::opt<bool> Verbose("v", cl::desc("Print each pass and command with its time"), cl::cat(Category));
cl::opt<bool> DryRun("dry-run", cl::desc("Print the commands, run none (also -###)"),
                     cl::cat(Category));
cl::alias DryRunHash("###", cl::aliasopt(DryRun), cl::desc("Alias for --dry-run"));
cl::opt<bool> SaveTemps("save-temps",
                        cl::desc("Keep the manifest, generated device source, PTX and images "
                                 "beside the output"),
                        cl::cat(Category));

[[noreturn]] void fail(const Twine &Message) {
  WithColor::error(errs(), "offload-cxx") << Message << "\n";
  std::exit(1);
}

void check(Error E) {
  if (E)
    fail(toString(std::move(E)));
}

template <class T> T check(Expected<T> V) {
  if (!V)
    fail(toString(V.takeError()));
  return std::move(*V);
}

std::string executableDir(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&executableDir));
  return sys::path::parent_path(Exe).str();
}

/// Where this installation keeps its headers and runtime: beside the executable (../include,
/// ../lib), as installed or as in the build tree; the source tree's include/ as a fallback.
struct Layout {
  std::string IncludeDir, RuntimeLibDir;
};

Layout findLayout(const char *Argv0) {
  std::string Root = sys::path::parent_path(executableDir(Argv0)).str();
  Layout L;
  L.IncludeDir = Root + "/include";
  if (!sys::fs::exists(L.IncludeDir + "/offload/offload.hpp"))
    L.IncludeDir = OFFLOAD_CXX_SOURCE_INCLUDE_DIR;
  L.RuntimeLibDir = Root + "/lib";
  return L;
}

std::vector<std::string> compileArgs() {
  std::vector<std::string> Args;
  for (const std::string &D : IncludeDirs) {
    SmallString<256> Abs(D);
    sys::fs::make_absolute(Abs);
    Args.push_back("-I" + std::string(Abs));
  }
  for (const std::string &D : Defines)
    Args.push_back("-D" + D);
  for (const std::string &U : Undefines)
    Args.push_back("-U" + U);
  if (!Standard.empty())
    Args.push_back("-std=" + Standard);
  return Args;
}

/// The GPUs of this machine as offload architectures (nvidia-smi; the kernel's KFD topology).
std::vector<std::string> nativeArchs() {
  std::vector<std::string> Archs;
  if (ErrorOr<std::string> Smi = sys::findProgramByName("nvidia-smi")) {
    SmallString<128> Out;
    sys::fs::createTemporaryFile("offload-cxx-smi", "txt", Out);
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out), StringRef("")};
    StringRef Args[] = {*Smi, "--query-gpu=compute_cap", "--format=csv,noheader"};
    if (sys::ExecuteAndWait(*Smi, Args, std::nullopt, Redirects) == 0)
      if (auto Buf = MemoryBuffer::getFile(Out)) {
        SmallVector<StringRef> Lines;
        (*Buf)->getBuffer().split(Lines, '\n', -1, false);
        for (StringRef Line : Lines) {
          auto [Major, Minor] = Line.trim().split('.');
          std::string Arch = ("sm_" + Major + Minor).str();
          if (!Major.empty() && llvm::find(Archs, Arch) == Archs.end())
            Archs.push_back(Arch);
        }
      }
    sys::fs::remove(Out);
  }
  std::error_code EC;
  for (sys::fs::directory_iterator It("/sys/class/kfd/kfd/topology/nodes", EC), End;
       !EC && It != End; It.increment(EC)) {
    auto Buf = MemoryBuffer::getFile(It->path() + "/properties", /*IsText=*/true);
    if (!Buf)
      continue;
    SmallVector<StringRef> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (StringRef Line : Lines) {
      unsigned V = 0;
      if (Line.consume_front("gfx_target_version ") && !Line.trim().getAsInteger(10, V) && V) {
        std::string Arch = "gfx" + std::to_string(V / 10000) + std::to_string(V / 100 % 100) +
                           utohexstr(V % 100, /*LowerCase=*/true);
        if (llvm::find(Archs, Arch) == Archs.end())
          Archs.push_back(Arch);
      }
    }
  }
  return Archs;
}

/// Resolves --offload-arch (default native,host) and drops NVIDIA archs that came from
/// "native" when no ptxas is installed, with one warning.
std::vector<std::string> chooseArchs(const Toolchain &Tools) {
  std::vector<std::string> Requested(OffloadArchs.begin(), OffloadArchs.end());
  if (Requested.empty())
    Requested = {"native", "host"};
  std::vector<std::string> Archs;
  for (const std::string &A : Requested) {
    bool FromNative = A == "native";
    std::vector<std::string> Expanded = FromNative ? nativeArchs() : std::vector{A};
    for (const std::string &E : Expanded) {
      check(tripleForArch(E).takeError());
      if (FromNative && StringRef(E).starts_with("sm_") && Tools.Ptxas.empty()) {
        WithColor::warning(errs(), "offload-cxx")
            << "skipping the NVIDIA GPU (" << E
            << ") found on this machine: no CUDA toolkit (ptxas) is installed; the program will "
               "run on the CPU device\n";
        continue;
      }
      if (llvm::find(Archs, E) == Archs.end())
        Archs.push_back(E);
    }
  }
  if (llvm::find(Archs, "host") == Archs.end())
    Archs.push_back("host");  // the CPU device runs every program: it needs no image
  return Archs;
}

Toolchain findToolchain(const Layout &L) {
  Toolchain T;
  T.OffloadIncludeDir = L.IncludeDir;
  T.Clang = check(findTool("clang++-22", {OFFLOAD_CXX_LLVM_BINDIR "/clang++"}));
  T.Lld = check(findTool("ld.lld-22", {OFFLOAD_CXX_LLVM_BINDIR "/ld.lld"}));
  if (const char *Chosen = std::getenv("OFFLOAD_CXX_PTXAS")) {
    // An explicit choice: that ptxas, or none when it is not an executable.
    if (sys::fs::can_execute(Chosen))
      T.Ptxas = Chosen;
  } else {
    std::vector<std::string> PtxasCandidates;
    if (const char *Cuda = std::getenv("CUDA_PATH"))
      PtxasCandidates.push_back(std::string(Cuda) + "/bin/ptxas");
    PtxasCandidates.push_back("/usr/local/cuda/bin/ptxas");
    if (Expected<std::string> P = findTool("ptxas", PtxasCandidates))
      T.Ptxas = *P;
    else
      consumeError(P.takeError());
  }
  if (!T.Ptxas.empty()) {
    SmallString<256> Cuda(sys::path::parent_path(sys::path::parent_path(T.Ptxas)));
    sys::path::append(Cuda, "nvvm", "libdevice", "libdevice.10.bc");
    T.Libdevice = std::string(Cuda);
  }
  return T;
}

struct Timer {
  std::string What;
  const CommandOptions &Options;
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
  ~Timer() {
    std::chrono::duration<double, std::milli> T = std::chrono::steady_clock::now() - Start;
    reportTime(What, T.count(), Options);
  }
};

} // namespace

int main(int argc, char **argv) {
  InitLLVM Init(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) { OS << "offload-cxx " OFFLOAD_CXX_VERSION " (LLVM 22)\n"; });
  cl::ParseCommandLineOptions(
      argc, argv,
      "offload-cxx: GPU offloading for C++\n\n"
      "  offload-cxx -O2 fill.cpp -o fill                 all three passes\n"
      "  offload-cxx --pass=host-metadata fill.cpp -o fill.manifest\n"
      "  offload-cxx --pass=device --manifest=fill.manifest --offload-arch=sm_90,host -o device.bin\n"
      "  offload-cxx --pass=host --device-image=device.bin fill.cpp -o fill\n\n"
      "Environment: CUDA_PATH (where ptxas is looked for first, then /usr/local/cuda/bin and\n"
      "PATH), OFFLOAD_CXX_PTXAS (this ptxas, or none if it is not an executable).\n"
      "Programs read OFFLOAD_INFO, OFFLOAD_DEVICE=cpu, OFFLOAD_CPU_THREADS and OMP_TARGET_OFFLOAD\n"
      "(see README.md).\n");

  const Layout L = findLayout(argv[0]);
  CommandOptions Cmd{Verbose, DryRun};
  const std::vector<std::string> Flags = compileArgs();
  std::string Opt = OptLevel.getNumOccurrences() ? "-O" + (OptLevel.empty() ? std::string("1") : std::string(OptLevel)) : "";

  if (Pass != "all" && Pass != "host-metadata" && Pass != "device" && Pass != "host")
    fail("unknown pass '" + Pass + "' (expected host-metadata, device or host)");
  if (Pass != "device") {
    if (Inputs.empty())
      fail("no input file");
    for (const std::string &In : Inputs)
      if (!sys::fs::exists(In))
        fail("no such file: '" + In + "'");
    if (CompileOnly && Inputs.size() > 1 && !Output.empty())
      fail("-o with -c names one object, but there are " + std::to_string(Inputs.size()) +
           " sources");
  }
  auto IsSource = [](StringRef Path) {
    StringRef Ext = sys::path::extension(Path);
    return Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".C" || Ext == ".c++";
  };
  if (Output.empty() && !(CompileOnly && Inputs.size() > 1))
    Output = Pass == "host-metadata" ? "offload.manifest"
             : Pass == "device"      ? "device.bin"
             : CompileOnly           ? sys::path::stem(Inputs[0]).str() + ".o"
                                     : "a.out";

  if (!DryRun) {
    StringRef OutDir = sys::path::parent_path(Output);
    if (!OutDir.empty() && !sys::fs::is_directory(OutDir))
      fail("cannot write '" + Output + "': no such directory '" + OutDir + "'");
  }

  // Temporaries: beside the output under --save-temps, else in a private folder.
  SmallString<256> TempDir;
  std::string Stem = Output.empty() ? "offload" : sys::path::stem(Output).str();
  if (SaveTemps) {
    TempDir = sys::path::parent_path(Output);
    if (TempDir.empty())
      TempDir = ".";
  } else {
    check(errorCodeToError(sys::fs::createUniqueDirectory("offload-cxx", TempDir)));
  }
  scope_exit Cleanup([&] {
    if (!SaveTemps)
      sys::fs::remove_directories(TempDir);
  });

  auto HostMetadata = [&]() {
    Timer T{"host-metadata pass", Cmd};
    HostMetadataOptions O{Inputs[0], Flags, L.IncludeDir, OFFLOAD_CXX_CLANG_RESOURCE_DIR};
    Expected<Manifest> M = runHostMetadataPass(O);
    if (!M) {
      consumeError(M.takeError());  // clang printed the diagnostics
      std::exit(1);
    }
    return std::move(*M);
  };
  // The device pass's options; Archs only where they are chosen here (not at a link).
  auto deviceOptions = [&](const Toolchain &Tools, const std::string &TempStem, bool WithArchs) {
    DevicePassOptions O;
    if (WithArchs)
      O.Archs = chooseArchs(Tools);
    if (!Opt.empty() && Opt != "-O0")
      O.OptLevel = Opt;
    O.TempDir = std::string(TempDir);
    O.TempStem = TempStem;
    O.Commands = Cmd;
    return O;
  };
  auto Device = [&](const Manifest &M, StringRef Out) {
    Timer T{"device pass", Cmd};
    Toolchain Tools = findToolchain(L);
    DevicePassOptions O = deviceOptions(Tools, Stem, /*WithArchs=*/true);
    if (Verbose)
      errs() << "offload-cxx: device pass for " << join(O.Archs, ",") << "\n";
    check(runDevicePass(M, Tools, O, Out));
  };
  auto hostOptions = [&]() {
    HostPassOptions O;
    O.HostCompiler = HostCompiler;
    O.CompileArgs = Flags;
    if (!Opt.empty())
      O.CompileArgs.push_back(Opt);
    if (Debug)
      O.CompileArgs.push_back("-g");
    for (const std::string &D : LinkDirs)
      O.LinkArgs.push_back("-L" + D);
    for (const std::string &Lib : LinkLibs)
      O.LinkArgs.push_back("-l" + Lib);
    O.OffloadIncludeDir = L.IncludeDir;
    O.RuntimeLibDir = L.RuntimeLibDir;
    O.LLVMLibDir = OFFLOAD_CXX_LLVM_LIBDIR;
    O.TempDir = std::string(TempDir);
    O.TempStem = Stem;
    O.Commands = Cmd;
    return O;
  };
  auto Host = [&](StringRef DeviceImage) {
    Timer T{"host pass", Cmd};
    HostPassOptions O = hostOptions();
    check(runHostPass(std::vector<std::string>(Inputs.begin(), Inputs.end()), DeviceImage, O,
                      Output));
  };

  // -c: one object per source, with the device code inside (ObjectFiles.h).
  auto CompileToObject = [&](const std::string &Source, const std::string &Object) {
    Inputs.clear();
    Inputs.push_back(Source);
    const std::string ObjectStem = Stem + "." + sys::path::stem(Source).str();
    HostPassOptions HO = hostOptions();
    HO.TempStem = ObjectStem;
    const std::string HostObject = std::string(TempDir) + "/" + ObjectStem + ".host.o";
    RunningCommand HostCompile =
        check(startCommand(check(hostCompileCommand(Source, HO, HostObject)), Cmd));
    Manifest M = HostMetadata();
    Toolchain Tools = findToolchain(L);
    DevicePassOptions DO = deviceOptions(Tools, ObjectStem, /*WithArchs=*/true);
    DeviceImageFile File;
    File.Kernels = M;
    for (const std::string &Arch : DO.Archs) {
      if (Arch == "host" || M.Kernels.empty())
        continue;
      std::string Bitcode = check(compileDeviceBitcode(M, Arch, Tools, DO));
      DeviceImage Image;
      Image.Triple = check(tripleForArch(Arch));
      Image.Arch = Arch;
      Image.Kind = object::IMG_Bitcode;
      if (!DryRun)
        Image.Bytes = check(errorOrToExpected(MemoryBuffer::getFile(Bitcode)))->getBuffer().str();
      File.Images.push_back(std::move(Image));
    }
    check(finishCommand(HostCompile, Cmd));
    check(embedDeviceCode(check(findTool("llvm-objcopy-22", {OFFLOAD_CXX_LLVM_BINDIR "/llvm-objcopy"})),
                          HostObject, File, DO.TempDir + "/" + DO.TempStem + ".offload", Object, Cmd));
  };

  // Link: objects and static libraries, their device code linked per architecture.
  auto LinkObjects = [&](const std::vector<std::string> &Objects) {
    Timer T{"link", Cmd};
    std::vector<DeviceImageFile> Files;
    for (const std::string &O : Objects) {
      if (DryRun && !sys::fs::exists(O))
        continue;
      for (DeviceImageFile &F : check(readDeviceCode(O)))
        Files.push_back(std::move(F));
    }
    MergedDeviceCode Merged = check(mergeDeviceCode(Files, (TempDir + "/" + Stem).str()));
    Toolchain Tools = findToolchain(L);
    DevicePassOptions DO = deviceOptions(Tools, Stem + ".linked", /*WithArchs=*/false);
    DeviceImageFile Program;
    Program.Kernels = Merged.Kernels;
    for (auto &[Arch, Bitcodes] : Merged.BitcodeByArch) {
      std::string Linked = DO.TempDir + "/" + DO.TempStem + "." + Arch + ".bc";
      if (!DryRun)
        check(linkDeviceBitcode(Bitcodes, Linked, Arch, Tools));
      DeviceImage Image = check(lowerDeviceBitcode(Linked, Arch, Tools, DO));
      Program.Images.push_back(std::move(Image));
    }
    check(linkProgram(Objects, Program, hostOptions(), Output));
  };

  if (CompileOnly) {
    std::vector<std::string> Sources(Inputs.begin(), Inputs.end());
    for (const std::string &Source : Sources) {
      if (!IsSource(Source))
        fail("-c compiles C++ sources; '" + Source + "' is not one");
      CompileToObject(Source, Output.empty() ? sys::path::stem(Source).str() + ".o" : std::string(Output));
    }
    return 0;
  }
  const bool AllOneSource = Inputs.size() == 1 && IsSource(Inputs[0]);
  if (Pass == "all" && !AllOneSource) {
    std::vector<std::string> Sources(Inputs.begin(), Inputs.end()), Objects;
    for (const std::string &In : Sources) {
      if (IsSource(In)) {
        std::string Object = (TempDir + "/" + sys::path::stem(In) + ".compiled.o").str();
        CompileToObject(In, Object);
        Objects.push_back(Object);
      } else {
        Objects.push_back(In);
      }
    }
    LinkObjects(Objects);
    return 0;
  }

  if (Pass == "host-metadata") {
    Manifest M = HostMetadata();
    check(writeManifest(M, Output));
  } else if (Pass == "device") {
    if (ManifestPath.empty())
      fail("--pass=device needs --manifest=PATH");
    Manifest M = check(readManifest(ManifestPath));
    Device(M, Output);
  } else if (Pass == "host") {
    if (DeviceImagePath.empty())
      fail("--pass=host needs --device-image=PATH");
    if (!sys::fs::exists(DeviceImagePath))
      fail("no such file: '" + DeviceImagePath + "'");
    Host(DeviceImagePath);
  } else {
    // The host compile needs nothing from the other passes: it runs while they do.
    HostPassOptions HO = hostOptions();
    const std::string HostObject =
        (TempDir + "/" + Stem + "." + sys::path::stem(Inputs[0]) + ".host.o").str();
    RunningCommand HostCompile = check(
        startCommand(check(hostCompileCommand(Inputs[0], HO, HostObject)), Cmd));
    Manifest M = HostMetadata();
    std::string ManifestOut = (TempDir + "/" + Stem + ".manifest").str();
    if (SaveTemps)
      check(writeManifest(M, ManifestOut));
    std::string DeviceBin = (TempDir + "/" + Stem + ".device.bin").str();
    Device(M, DeviceBin);
    check(finishCommand(HostCompile, Cmd));
    Timer T{"host link", Cmd};
    DeviceImageFile File;
    if (!DryRun)
      File = check(readDeviceImageFile(DeviceBin));
    check(linkProgram({HostObject}, File, HO, Output));
  }
  return 0;
}
