// compiler/CpuImage.h — the CPU device's image (arch "host"): the device pass compiles, for the
// host, the same kind of generated translation unit it compiles for GPUs — the user's source
// plus one entry per kernel — where each entry runs a whole workgroup, the loop over its
// work-items calling the kernel by name (offload/detail/cpu_entry.hpp), so the kernel is inlined
// and the loop can be vectorised. Kernels are otherwise run by the CPU device one work-item at a
// time through a type-erased call.
//
// The image is an ordinary x86-64 object linked into the program, holding only the entries:
// every other external definition of the translation unit becomes a declaration (the program's
// own copy, from the user's host compile, is the one that runs), static constructors are dropped,
// internal and inline (linkonce_odr) definitions stay as private or mergeable copies. The
// program record names each kernel's CPU entry (HostPass.cpp). docs/design.md says why.
#pragma once

#include "DeviceImageFile.h"
#include "DevicePass.h"
#include "Manifest.h"

#include "llvm/Support/Error.h"

#include <string>

namespace offload::compiler {

/// "__offload_cpu_entry<mangled kernel>" for a kernel whose GPU entry is "__offload_entry<...>".
std::string cpuEntryName(const ManifestKernel &K);

/// The generated translation unit of M's CPU image.
std::string generateCpuSource(const Manifest &M);

/// Compiles M's CPU image to bitcode (with the user's flags and -O level) and reduces it to its
/// entries; returns the bitcode's path.
llvm::Expected<std::string> compileCpuBitcode(const Manifest &M, const Toolchain &Tools,
                                              const DevicePassOptions &Options);

/// Compiles CPU-image bitcode (one TU's, or several linked) to an x86-64 object.
llvm::Expected<DeviceImage> lowerCpuBitcode(const std::string &Bitcode, const Toolchain &Tools,
                                            const DevicePassOptions &Options);

} // namespace offload::compiler
