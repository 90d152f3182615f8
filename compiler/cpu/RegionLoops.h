// compiler/cpu/RegionLoops.h — what makes one region's work-item loop cheaper, once built
// (compiler/cpu/ builds the loops: z, y, x nested around a copy of the region).
//
// Both rewrite a region whose work-items are independent until its end, as a GPU's would be:
//  * trimToTestedRange — index-set splitting: a region that only does something for the
//    work-items whose x index passes a uniform test (`if (t < h)` of a reduction tree) runs its
//    x loop over those alone;
//  * combineUniformAtomics — integer atomics that every work-item applies to one address as its
//    last memory access in the region (a workgroup's partial sums into one total) become one
//    atomic per region, of the work-items' values combined in a register: the schedule in
//    which each work-item stops just before its atomic and all of them then run back to back,
//    which a GPU may run too.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instructions.h"

namespace offload::compiler {

/// Whether a value is the same for every work-item of the workgroup and can be computed again
/// anywhere from arguments, constants and the workgroup's fields (not the work-item's index).
using UniformTest = llvm::function_ref<bool(const llvm::Value *)>;

/// A copy of V's computation (instructions only, operands first) before At; the values of Keep
/// (available at At) are used as they are, and an instruction for which Replace gives a value
/// is that value.
llvm::Value *copyComputationBefore(llvm::Value *V, llvm::Instruction *At,
                                   llvm::ArrayRef<llvm::Value *> Keep = {},
                                   llvm::function_ref<llvm::Value *(llvm::Instruction *)> Replace = nullptr);

/// One region's x loop, as CpuWorkItemLoops builds it: X counts from YLoop (the row's start,
/// which branches to the x loop) to the work-group's Bx (Latch: `x + 1 < Bx`, to the x loop or
/// YNext); Body starts a work-item and branches to Head, the region's first block; Exit is
/// where the work-item stops (the region's only exit, so no state is recorded).
struct RegionLoop {
  llvm::PHINode *X, *Y, *Z;  ///< Y and Z are fixed through a row (the x loop)
  llvm::BasicBlock *YLoop, *YNext, *Body, *Head;
  llvm::BranchInst *Latch;
  llvm::Value *Bx;
};

/// Runs the x loop over the work-items that pass Head's test of x (or of row + x, the linear
/// index, with row computed from y and z: unsigned tests only) against a uniform bound, when
/// the others go straight to Exit doing nothing. Returns whether it did.
bool trimToTestedRange(const RegionLoop &L, llvm::BasicBlock *Exit, UniformTest Uniform);

/// In the region's blocks (Blocks, the copies), each integer atomicrmw whose result is unused,
/// whose address is uniform, and after which the work-item touches no memory before leaving the
/// region, accumulates into a register (a stack slot of the function, set in Start, before the
/// loops); Done (the block after the loops, empty) flushes what was accumulated with one atomic
/// when it is not the operation's identity. Returns the block to continue in after Done's flush
/// (Done itself when nothing was combined).
llvm::BasicBlock *combineUniformAtomics(llvm::ArrayRef<llvm::BasicBlock *> Blocks,
                                        llvm::BasicBlock *Start, llvm::BasicBlock *Done,
                                        UniformTest Uniform);

} // namespace offload::compiler
