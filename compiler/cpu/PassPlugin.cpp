// compiler/cpu/PassPlugin.cpp — the CPU image's passes as an LLVM pass plugin, so that each can
// be run alone on a module, as AdaptiveCpp's cbs/ passes are:
//   opt -load-pass-plugin=<build>/lib/OffloadCxxCpuPasses.so
//       -passes='offload-work-item-loops<verbose>' linked-cpu-image.bc -S
// and the range checks' versions of the loops it makes (RangeCheckVersioning.h):
//       -passes=offload-range-check-versioning
// The input is what the device link sees: the linked CPU bitcode of a program's files
// (`offload-cxx --save-temps` keeps it as <program>.host.bc; the driver's own result of this
// pass is <program>.host.bc.loops.bc).
#include "RangeCheckVersioning.h"
#include "WorkItemLoops.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

#include <utility>

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "OffloadCxxCpuPasses", "0.1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "offload-range-check-versioning") {
                    MPM.addPass(offload::compiler::RangeCheckVersioningPass());
                    return true;
                  }
                  if (Name != "offload-work-item-loops" && Name != "offload-work-item-loops<verbose>")
                    return false;
                  offload::compiler::WorkItemLoopsPass Pass;
                  Pass.Verbose = Name.ends_with("<verbose>");
                  MPM.addPass(std::move(Pass));
                  return true;
                });
          }};
}
