// compiler/CrossFileCallees.h — device code for functions that kernels call and other files
// define. A translation unit's device bitcode holds its kernels and what they reach in that file;
// a call to a plain function defined in another file (`float helper(float)` in helper.cpp) is
// left undefined. At the link, each such function is compiled for the device from the file that
// defines it (its manifest lists it among its exports), until nothing more can be resolved.
#pragma once

#include "DeviceImageFile.h"
#include "DevicePass.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace offload::compiler {

/// Adds to Bitcodes (one architecture's device bitcode files) the device code of every function
/// they call that a file of Files exports. A file whose source is gone is an error naming it.
/// A file whose exports are deferred (Manifest::ExportsDeferred) and that defines a called
/// function is first given its exports by ResolveDeferred (which parses it).
llvm::Error addCalleesFromOtherFiles(
    std::vector<std::string> &Bitcodes, llvm::MutableArrayRef<DeviceImageFile> Files,
    const OffloadArch &Arch, const Toolchain &Tools, const DevicePassOptions &Options,
    llvm::function_ref<llvm::Error(Manifest &)> ResolveDeferred);

} // namespace offload::compiler
