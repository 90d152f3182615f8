// compiler/DevicePass.h — pass 2 of 3, in its steps: compiling a manifest's kernel instantiations
// to bitcode for one GPU architecture (each unit, Build.h's compileUnit), linking the bitcode of
// a program's units, and lowering it to the image the vendor's loader takes (Build.h's
// linkDeviceCode).
//
// A generated translation unit #includes the user's source and defines one entry per manifest
// kernel (offload/detail/device_entry.hpp). clang 22 compiles it in OpenMP device-only mode —
// which parses host headers (<vector>, <iostream>) and emits only device code — to bitcode; the
// entries get the visibility loaders need; then NVIDIA: PTX, and ptxas to an executable cubin;
// AMD: a code object linked by lld. The CPU device's image is CpuImage.h's (docs/design.md).
#pragma once

#include "DeviceImageFile.h"
#include "Manifest.h"
#include "OffloadArch.h"
#include "Subprocess.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace offload::compiler {

struct Toolchain {
  std::string Clang;       ///< clang++-22
  std::string Lld;         ///< ld.lld-22
  std::string Ptxas;       ///< empty when no CUDA toolkit was found
  std::string Libdevice;   ///< CUDA's libdevice.10.bc (NVIDIA math), beside ptxas
  std::string OffloadIncludeDir;
};

struct DevicePassOptions {
  std::vector<OffloadArch> Archs;  ///< the architectures a unit is compiled for
  std::string OptLevel = "-O3";
  /// The user compiles without optimisation (no -O, or -O0): device code is still optimised,
  /// but its macros are g++'s at -O0 (no __OPTIMIZE__, __NO_INLINE__), so that code that asks
  /// is the same code on every device (UnoptimisedMacros).
  bool UserUnoptimised = false;
  std::string TempDir;             ///< where intermediate files go
  std::string TempStem;            ///< their common name prefix
  CommandOptions Commands;
  /// The CPU image's own flags (its compile and lowering, never a GPU's): the user's -m
  /// (-march=native), -f (-ffast-math) and -g flags (HostFlags.h's UserFlags::Cpu and Debug).
  std::vector<std::string> CpuArgs;
  /// -Xoffload-device <arg>: after the user's flags in every device compile (GPUs and CPU image).
  std::vector<std::string> DeviceArgs;
  /// "-MD" or "-MMD" (the user's choice) when a dependency file is asked for: each device
  /// compile then writes its own beside its bitcode (<bitcode>.d), merged by DepFile.h.
  std::string DepFlag;
  /// The name -v gives each kernel of the CPU image ("lambda at f.cpp:12" for a lambda kernel),
  /// by its CPU entry (cpuEntryName); others are named by their demangled symbol.
  std::map<std::string, std::string> KernelNames;
  /// The source as the command line spells it (`k.cpp`, `src/k.cpp`): the device compiles,
  /// which include it by its absolute path, give __FILE__ and __BASE_FILE__ this name, as g++
  /// gives them (empty: not known, at the link).
  std::string SourceAsSpelled;
  bool CpuImage = true;            ///< for "host": build the CPU image (else the CPU device
                                   ///< runs the host compiler's kernels work-item by work-item)
  bool CpuImageForBarriers = false;  ///< for "host": build it anyway for a file with a kernel
                                     ///< that reaches a barrier (work-item loops, not fibers)
};

/// The device translation unit for M (also what --save-temps keeps as <stem>.device.cpp).
std::string generateDeviceSource(const Manifest &M);

/// The flags that give an optimised device compile g++'s macros at -O0 (when
/// O.UserUnoptimised), else none.
std::vector<std::string> unoptimisedMacros(const DevicePassOptions &O);

/// Name as a compile with Args records it in debug information: through the last of Args'
/// -fdebug-prefix-map / -ffile-prefix-map options whose old prefix it starts with.
std::string debugNameOf(llvm::StringRef Name, llvm::ArrayRef<std::string> Args);

/// `-fdebug-prefix-map=WRAPPER=SOURCE`: a generated file's line tables name the user's source as
/// g++ would (debugNameOf), not the temporary named after the object; none when unspellable.
std::optional<std::string> wrapperDebugMap(const Manifest &M, llvm::StringRef Wrapper,
                                           const DevicePassOptions &O);

/// -fmacro-prefix-map flags that make __FILE__ of M's source and __BASE_FILE__ of the generated
/// file Wrapper that includes it the name O.SourceAsSpelled (none where that is not known).
std::vector<std::string> sourceNameMaps(const Manifest &M, llvm::StringRef Wrapper,
                                        const DevicePassOptions &O);

/// Writes M as bitcode to Path.
llvm::Error writeBitcode(const llvm::Module &M, llvm::StringRef Path);

/// Compiles SourceText (a generated translation unit that includes M's source) for Arch with M's
/// compile flags, as <TempDir>/<Stem>.device.cpp → <Stem>.<Arch>.bc; returns the bitcode's path.
llvm::Expected<std::string> compileDeviceSource(const Manifest &M, const std::string &SourceText,
                                                llvm::StringRef Stem, const OffloadArch &Arch,
                                                const Toolchain &Tools,
                                                const DevicePassOptions &Options);

/// Compiles M's device translation unit for Arch to bitcode (entries visible, weak_odr so that
/// translation units link); returns its path.
llvm::Expected<std::string> compileDeviceBitcode(const Manifest &M, const OffloadArch &Arch,
                                                 const Toolchain &Tools,
                                                 const DevicePassOptions &Options);

/// Links device bitcode files of one architecture into Output (duplicate entries merged), with
/// the math library the target has (NVIDIA: Libdevice, only the functions used). A call left
/// unresolved is an error naming the function.
/// KnownNoBarriers (the CPU image): functions other files export that are known to reach no
/// barrier (their manifests' exports), so that a kernel calling one is not sent to fibers for it.
/// EntryNames: lambda kernels' names by entry symbol ("lambda at f.cpp:12"), for its errors
/// (other kernels are named by their demangled signature, `hello(int, double)`).
llvm::Error linkDeviceBitcode(llvm::ArrayRef<std::string> Inputs, const std::string &Output,
                              const OffloadArch &Arch, const Toolchain &Tools,
                              llvm::ArrayRef<std::string> KnownNoBarriers = {},
                              const std::map<std::string, std::string> &EntryNames = {});

/// linkDeviceBitcode's error for a call to a function no device code defines: the kernel, the
/// callee (demangled) and its symbol, so that a link that knows its objects can name the one
/// that defines it for the host (ObjectFiles.h's objectDefining).
class UndefinedDeviceCall : public llvm::ErrorInfo<UndefinedDeviceCall> {
public:
  static char ID;
  std::string Kernel, Callee, Symbol;
  UndefinedDeviceCall(std::string Kernel, std::string Callee, std::string Symbol)
      : Kernel(std::move(Kernel)), Callee(std::move(Callee)), Symbol(std::move(Symbol)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
};

/// Lowers linked bitcode to the image the vendor's plugin loads.
llvm::Expected<DeviceImage> lowerDeviceBitcode(const std::string &Bitcode, const OffloadArch &Arch,
                                               const Toolchain &Tools,
                                               const DevicePassOptions &Options);

} // namespace offload::compiler
