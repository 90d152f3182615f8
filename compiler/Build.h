// compiler/Build.h — the build steps that `offload-cxx -c`, the link of objects and the CMake
// launchers (Launcher.cpp) share: finding the toolchain, choosing architectures, compiling a
// translation unit's device code into its object, and linking the device code of many objects.
//
// The driver and the launchers differ only in who runs the host compiler: the driver builds the
// host command from its own options, a launcher runs the command CMake gives it unchanged.
#pragma once

#include "Commands.h"
#include "DeviceImageFile.h"
#include "DevicePass.h"
#include "HostPass.h"
#include "Manifest.h"
#include "OffloadArch.h"
#include "Subprocess.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace offload::compiler {

/// An error whose diagnostics were already printed (clang's, for the host-metadata pass): the
/// caller exits with status 1 and prints nothing more.
class ReportedError : public llvm::ErrorInfo<ReportedError> {
public:
  static char ID;
  void log(llvm::raw_ostream &OS) const override { OS << "diagnostics were printed"; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
};

/// What every build step needs to know.
/// --cpu-image: Auto builds the CPU image when no GPU architecture is built (a CPU-only build,
/// where the CPU device is the target), or for a file with a kernel that reaches a barrier;
/// On and Off force it.
enum class CpuImageMode { Auto, On, Off };

struct BuildSettings {
  Layout L;
  CommandOptions Commands;
  /// What a unit is compiled for: --offload-arch resolved once (chooseArchs); empty at a link,
  /// where the architectures are those of the objects.
  std::vector<OffloadArch> Archs;
  std::string OptLevel;                     ///< "-O2", or empty (device code: -O3)
  std::vector<std::string> CpuArgs;         ///< DevicePassOptions::CpuArgs
  std::vector<std::string> DeviceArgs;      ///< -Xoffload-device's (DevicePassOptions::DeviceArgs)
  std::string DepFlag;                      ///< "-MD", "-MMD" or empty (DevicePassOptions::DepFlag)
  CpuImageMode CpuImage = CpuImageMode::Auto;  ///< the CPU device's image (CpuImage.h)
  std::string TempDir;                      ///< intermediate files go here
  std::string Stem;                         ///< ... under names that start with this
  /// What g++ names a one-step build's side outputs after: `<-o>-`, or `a-` without -o.
  std::string SideOutputPrefix;
  /// The host compiler is GCC's (not clang): kernels' symbols are then named as g++ names them
  /// (HostMetadataOptions::GccSymbols).
  bool GccHostCompiler = true;
  /// The host object is made already, by the host compiler from the file exactly as the user
  /// wrote it (a file that does not use offload, Driver.cpp): compileUnit starts no host compile,
  /// and a host-metadata parse that fails (code only g++ accepts) means the file exports nothing
  /// for other files' kernels, not an error.
  bool AsWritten = false;
};

/// clang++, ld.lld of LLVM 22 (an error if missing); ptxas and libdevice when installed.
llvm::Expected<Toolchain> findToolchain(const Layout &L);

/// The GPUs of this machine as offload architecture names (nvidia-smi; the kernel's KFD
/// topology).
std::vector<std::string> nativeArchs();

/// Resolves --offload-arch's list (default native,host): expands "native", parses each name
/// (OffloadArch::parse: an unknown one is an error), drops NVIDIA archs that came from "native"
/// when no ptxas is installed (one warning), drops repeats, always adds host.
llvm::Expected<std::vector<OffloadArch>> chooseArchs(llvm::ArrayRef<std::string> Requested,
                                                     const Toolchain &Tools);

/// The device compile's options for S (its architectures S.Archs).
DevicePassOptions deviceOptions(const BuildSettings &S, const std::string &TempStem);

/// Runs the host-metadata pass on Source with the given -I/-D/-U/-std/-include flags; a
/// ReportedError after clang printed the diagnostics (into *Diagnostics instead, when given).
/// With RewriteTo: a file that passes lambdas to parallel_for is rewritten there instead
/// (HostMetadataOptions::RewriteLambdasTo; *Rewritten says whether).
llvm::Expected<Manifest> runHostMetadata(const BuildSettings &S, const std::string &Source,
                                         llvm::ArrayRef<std::string> MetadataFlags,
                                         std::string *Diagnostics = nullptr,
                                         const std::string &DepFile = "",
                                         const std::string &RewriteTo = "",
                                         bool *Rewritten = nullptr);

/// After a failed host-metadata pass whose diagnostics were kept: waits for the host compile of
/// the same file and prints clang's diagnostics only if the host compiler reported no error
/// itself, so that one mistake is reported once.
void reportOnce(RunningCommand &HostCompile, const CommandOptions &Commands,
                const std::string &ClangDiagnostics);

/// A translation unit on its way into a program or an object: its device code (its manifest and
/// bitcode for each chosen architecture) in memory, its host compile perhaps still running.
struct CompiledUnit {
  RunningCommand HostCompile;  ///< writes HostObject; finish it with finishCommand
  std::string HostObject;
  DeviceImageFile DeviceCode;
  /// Under S.DepFlag: the dependency files of its compiles (host, host metadata, each device
  /// compile), those that exist once HostCompile has finished.
  std::vector<std::string> DepFiles;
};

/// Compiles one translation unit: starts HostCompile (the host compiler's command, which writes
/// HostObject), meanwhile runs the host-metadata pass and compiles the device bitcode of every
/// chosen architecture, its temporaries named after TempStem. The host compile is left running
/// (the caller finishes it when it needs the object); on an error it has been waited for, so
/// that its diagnostics came out.
llvm::Expected<CompiledUnit> compileUnit(const BuildSettings &S, const std::string &Source,
                                         llvm::ArrayRef<std::string> MetadataFlags,
                                         llvm::ArrayRef<std::string> HostCompile,
                                         const std::string &HostObject,
                                         const std::string &TempStem);

/// M's device bitcode for every architecture of Options (none when M has no kernels; the CPU
/// image only when Options.CpuImage): what a unit's object carries.
llvm::Expected<DeviceImageFile> compileDeviceCode(const Manifest &M, const Toolchain &Tools,
                                                  const DevicePassOptions &Options);

/// One translation unit to an object holding its host code and its device code (`-c`):
/// compileUnit, then Object: HostObject with the device code in its `.offload_cxx` section.
/// HostObject may be Object itself (the launcher). With SkipWithoutKernels, a source that
/// defines and launches no kernel is left as the host compiler wrote it.
llvm::Error compileToObject(const BuildSettings &S, const std::string &Source,
                            llvm::ArrayRef<std::string> MetadataFlags,
                            llvm::ArrayRef<std::string> HostCompile,
                            const std::string &HostObject, const std::string &Object,
                            bool SkipWithoutKernels = false,
                            std::vector<std::string> *DepFiles = nullptr);

/// Refuses a program in which a launched kernel is only declared: no file defines it.
llvm::Error checkKernelsDefined(const Manifest &Program);

/// The device code inside objects and static libraries (their `.offload_cxx` sections): the
/// objects', then the archive members' that the host link takes (ObjectFiles.h's LinkSymbols;
/// every member under WholeArchive; the archives read again while they give more members under
/// RescanArchives, ObjectFiles.h's groupsArchives); under --dry-run an input not written yet is
/// passed over.
llvm::Expected<std::vector<DeviceImageFile>> readDeviceCodeOf(llvm::ArrayRef<std::string> Inputs,
                                                              const CommandOptions &Commands,
                                                              bool WholeArchive = false,
                                                              bool RescanArchives = false);

/// Whether a link's flags make it take every member of its archives (-Wl,--whole-archive).
bool takesWholeArchives(llvm::ArrayRef<std::string> LinkArgs);

/// The device code of a program's units (compiled in this run, or read from objects and
/// libraries), linked per architecture and lowered once, its temporaries named after TempStem:
/// what the program registers. A single unit is the one-file case of the same link.
/// LinkInputs: the link's objects and archives (each with the name the user knows it by: the
/// source of an object compiled in this run), to name the one that defines a kernel's callee
/// without device code (UndefinedDeviceCall).
llvm::Expected<DeviceImageFile> linkDeviceCode(const BuildSettings &S,
                                               std::vector<DeviceImageFile> Units,
                                               const std::string &TempStem,
                                               llvm::ArrayRef<std::pair<std::string, std::string>> LinkInputs = {});
/// `offload-cxx INPUTS -o Output`: each C++ source of Inputs compiled as a unit (compileUnit),
/// the device code of the other inputs (objects, static libraries) and of Archives (the static
/// libraries -l names) read from their sections, all of it linked per architecture
/// (linkDeviceCode), then the host link with the registration. One source alone is the
/// one-unit case of the same steps. DepFiles: each compiled source with its compiles'
/// dependency files (DepFile.h merges them).
using SourceDepFiles = std::vector<std::pair<std::string, std::vector<std::string>>>;
llvm::Error buildProgram(const BuildSettings &S, llvm::ArrayRef<std::string> Inputs,
                         llvm::ArrayRef<std::string> Archives,
                         llvm::ArrayRef<std::string> MetadataFlags, const HostPassOptions &Host,
                         const std::string &Output, SourceDepFiles *DepFiles = nullptr);

/// Prints "offload-cxx: <what> took N ms" under -v when it goes out of scope.
struct Timer {
  std::string What;
  const CommandOptions &Options;
  double Start = now();
  ~Timer() { reportTime(What, now() - Start, Options); }
  static double now();
};

} // namespace offload::compiler
