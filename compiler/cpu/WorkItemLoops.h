// compiler/cpu/WorkItemLoops.h — the CPU image's barrier kernels as loops over their work-items.
//
// On the CPU device one host thread runs a whole workgroup. A kernel without barriers is a loop
// over its work-items (offload/detail/cpu_entry.hpp). A kernel that reaches offload::barrier()
// is one too, once split at its barriers: the work-item function (cpu_work_items<K>, with every
// function that may reach a barrier inlined into it) is cut into regions — from the start, and
// from each barrier, to the next barriers or the end — and each region becomes a loop over the
// workgroup's work-items. Values that live across a barrier, and the work-item's own stack
// objects, are kept per work-item (arrays in a per-thread scratch buffer); each work-item
// records the barrier it stopped at (or that it ended), and the next region runs for the
// work-items waiting there — all of them must wait at the same one, as on a GPU (work-items that
// ended count as arrived); anything else is a run-time error naming the kernel. This is the
// continuation-based scheme of AdaptiveCpp's CBS and PoCL's work-group loops, in their simplest
// form: every region is cloned whole (no sub-CFG sharing), one state word per work-item.
//
// A kernel the transformation cannot handle keeps the fiber path (runtime/cpu_fibers.cpp): its
// entry calls the runtime, which runs the workgroup's work-items as fibers. The reason is
// returned (the driver prints it under -v): warp operations, calls that may reach a barrier
// through a body the image does not have, indirect calls, recursion, variable-length arrays.
//
// The transformation is an LLVM module pass (WorkItemLoopsPass, "offload-work-item-loops"),
// which the driver runs at the device link and which opt runs alone through the pass plugin
// <build>/lib/OffloadCxxCpuPasses.so (PassPlugin.cpp; tests/lit/codegen/opt-work-item-loops.test).
#pragma once

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace offload::compiler {

/// What became of one barrier kernel's CPU entry.
struct WorkItemLoopsOutcome {
  std::string Kernel;  ///< its readable name ("dot<double>")
  std::string Entry;   ///< its CPU entry's symbol
  bool Loops = false;  ///< true: loops over the work-items; false: fibers, for Reason
  bool Split = false;  ///< the loops are split at barriers (false: no barrier)
  bool Lockstep = false;  ///< split, and the work-items meet every barrier together (Lockstep.cpp)
  std::string Reason;
};

/// Records, in M (clang's output, before optimisation folds what the CPU image never writes),
/// each CPU entry whose code uses a variable of the user's file with internal linkage that is
/// not a constant (`static int g`, an anonymous namespace's, `const double s = atof(...)`): the
/// CPU image has its own copy, which the program never writes, so formWorkItemLoops gives such
/// an entry the fiber path, which runs the host's code on the program's variable.
void recordHostOnlyVariables(llvm::Module &M);
inline constexpr llvm::StringLiteral HostOnlyVariablesName = "offload.cpu.host_only_variables";

/// Turns the work-item function of every CPU entry of M that has one into work-item loops (or
/// gives the entry the fiber fallback); returns one outcome per such entry.
std::vector<WorkItemLoopsOutcome> formWorkItemLoops(llvm::Module &M);

/// formWorkItemLoops as a module pass; Verbose prints each outcome as `offload-cxx -v` does.
struct WorkItemLoopsPass : llvm::PassInfoMixin<WorkItemLoopsPass> {
  bool Verbose = false;
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// "offload-cxx: kernel 'K' on the CPU device: ..." for one outcome (what -v prints).
std::string describeOutcome(const WorkItemLoopsOutcome &Outcome);

/// The definitions of M that may reach a barrier or a warp operation: they call one, or call a
/// function that may (a definition that does, a declaration the image cannot see into, an
/// indirect call). Such bodies are kept (available_externally) in each file's CPU bitcode so the
/// link can inline them into the kernels that reach them.
llvm::DenseSet<const llvm::Function *> functionsReachingBarriers(const llvm::Module &M);

/// Records in M that the functions Names (whose bodies a file's CPU bitcode drops) reach no
/// barrier, for the link's functionsReachingBarriers.
void recordNoBarriers(llvm::Module &M, llvm::ArrayRef<std::string> Names);

} // namespace offload::compiler
