// compiler/ObjectFiles.h — device code inside host objects, for `-c` and the link step.
//
// `offload-cxx -c a.cpp -o a.o` puts, beside a.cpp's host code, a section `.offload_cxx` holding
// a device.bin (DeviceImageFile.h): a.cpp's manifest and its device code as bitcode, one record
// per architecture. The section is SHF_EXCLUDE, so the host linker drops it. The link step reads
// the sections of its objects and of static-library members, links the bitcode of each
// architecture (an instantiation used in several files becomes one entry), lowers it once, and
// registers the result. docs/design.md says why the code travels inside the object.
#pragma once

#include "DeviceImageFile.h"
#include "Subprocess.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace offload::compiler {

inline constexpr const char *DeviceSectionName = ".offload_cxx";

/// Writes Out: HostObject with File embedded as the `.offload_cxx` section.
llvm::Error embedDeviceCode(const std::string &ObjcopyTool, const std::string &HostObject,
                            const DeviceImageFile &File, const std::string &TempFile,
                            const std::string &Out, const CommandOptions &Commands);

/// Whether any of Inputs (objects, archives; other files are skipped) refers to offload-cxx's
/// runtime (an undefined `offload::` or `__offload` symbol) or carries device code: a program
/// none of whose inputs does is linked as the host compiler links it, without the runtime.
bool needsOffloadRuntime(llvm::ArrayRef<std::string> Inputs);

/// Whether a host object defines any function with external linkage (a kernel of another file
/// may call it: Manifest::ExportsDeferred).
llvm::Expected<bool> definesFunctions(const std::string &Object);

/// The device code of an input: of an object (zero or one), or of each member of an archive
/// (their kernels marked FromArchive).
llvm::Expected<std::vector<DeviceImageFile>> readDeviceCode(const std::string &Input);
/// The same for an input's bytes (`Input` names it in errors); the object fuzzer's entry.
llvm::Expected<std::vector<DeviceImageFile>> readDeviceCode(llvm::MemoryBufferRef Bytes,
                                                            const std::string &Input);

/// Merges the manifests and bitcode of many inputs: kernels by host symbol (first wins), bitcode
/// listed per architecture. Errors if an input with kernels lacks one of the GPU architectures
/// another input has (the CPU image, arch "host", is optional per input).
struct MergedDeviceCode {
  Manifest Kernels;
  std::vector<std::pair<OffloadArch, std::vector<std::string>>> BitcodeByArch;  // written to temps
};
llvm::Expected<MergedDeviceCode> mergeDeviceCode(const std::vector<DeviceImageFile> &Files,
                                                 const std::string &TempPrefix);

/// The architectures a linked program holds code for ("sm_90", ..., "host"), read from its
/// ProgramArchsSection (HostPass.h); an error naming Path if it is not an offload-cxx program.
llvm::Expected<std::vector<std::string>> readProgramArchs(const std::string &Path);

} // namespace offload::compiler
