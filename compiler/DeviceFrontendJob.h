// compiler/DeviceFrontendJob.h — clang's OpenMP device-only compile, minus its host pre-pass.
//
// `clang++ -fopenmp --offload-arch=X --offload-device-only` runs two frontend jobs: a full host
// compile of the file (x86-64, to an IR file) and the device compile, which reads that IR only
// to number `#pragma omp target` regions. offload-cxx's entries are declare-target functions, not
// target regions, so the host IR changes nothing in the device module (checked: the bitcode is
// the same byte for byte) and the pre-pass is half the device compile's time (bench/NOTES.md).
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace offload::compiler {

/// Plans DriverArgv (a clang++ driver command line, argv[0] the driver) with clang's own driver
/// and returns the device frontend job (`clang -cc1 ... -fopenmp-is-target-device ...`) without
/// its `-fopenmp-host-ir-file-path`; std::nullopt when the plan is not one host pre-pass and one
/// device job (then the caller runs DriverArgv as it is).
std::optional<std::vector<std::string>> deviceFrontendJob(llvm::ArrayRef<std::string> DriverArgv);

} // namespace offload::compiler
