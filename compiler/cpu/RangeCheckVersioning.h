// compiler/cpu/RangeCheckVersioning.h — a second version of each loop over work-items for when
// its bounds checks are the same for every work-item.
//
// Nearly every kernel guards its work-items with a comparison such as `if (i < n)`, where i =
// workgroup * size + x. In the CPU image's loop over x (WorkItemLoops.h) that branch keeps the
// loop from vectorising: a store under a condition needs masked stores, which x86-64's baseline
// does not have, and LLVM's cost model then keeps the loop scalar (a kernel as plain as saxpy
// ran one element at a time while OpenMP's loop ran four). For all but the last workgroup the
// comparison holds for every x. So before the loop, for each comparison of a value that grows
// by one with x (SCEV: {start,+,1} over the loop) against a value the loop does not change, the
// comparison is evaluated at the first and the last work-item; when both give the result
// expected in the middle of the range (the index below a size, above an edge such as 0) and the
// value does not wrap between them, the comparison has that result for every work-item, and a
// copy of the loop with the comparison replaced by it — and each index made from the value
// rewritten as first + x, without wrap — runs instead (loop versioning, as LLVM's LoopVersioning
// does for memory checks). What the copy no longer branches on, LLVM's later passes fold away;
// the original loop runs for the other workgroups.
//
// A tile's halo (`if (tx == 0) tile[ty][0] = in[c - 1]`, `tx == TX - 1`, `ty == 0`) needs two
// more steps, or the copy never runs: an (in)equality with x holds for one work-item of every
// row. Where a loop has one, the checks are evaluated over the middle work-items (the second to
// the one before last), and the first and the last work-item each run in a copy of the loop as
// written, before and after the version (in order: a value the loop's end reads is the last
// work-item's). And comparisons of values that change with the row (y, z) but not with x
// (`ty == 0 && gy > 0`, `gy < n`) are computed before the loop: the version is for the rows
// where each gives the result most rows give (an equality fails, a guard holds), the others run
// as written — unswitching for the common combination only.
//
// Run by the driver after formWorkItemLoops, and alone by opt through the pass plugin
// ("offload-range-check-versioning"; tests/lit/codegen/opt-range-check-versioning.test).
#pragma once

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

namespace offload::compiler {

/// Versions F's loops over work-items (innermost loops marked llvm.loop.parallel_accesses) on
/// their range checks; returns how many loops got a second version.
unsigned versionRangeChecks(llvm::Function &F);
/// versionRangeChecks over every function of M that has a body.
unsigned versionRangeChecks(llvm::Module &M);

struct RangeCheckVersioningPass : llvm::PassInfoMixin<RangeCheckVersioningPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return versionRangeChecks(M) ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
};

} // namespace offload::compiler
