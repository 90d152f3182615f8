// compiler/cpu/Lockstep.cpp — kernels whose work-items always meet the same barriers together,
// and the values the same for all of them (issue 31, item 2).
//
// CUDA asks that every thread of a block reach each __syncthreads; most kernels do so by
// deciding every branch that leads to a barrier from values the same for the whole workgroup
// (`for (h = block_dim_x() / 2; h > 0; h >>= 1) { if (t < h) ...; barrier(); }`). Then the
// work-items of a workgroup run in lockstep from barrier to barrier, and the work-item loops
// need neither a state per work-item nor the runtime's choice of the next region: every work-item
// of a region leaves it by the same exit, and a value computed the same by all of them (the
// tree's `h`) is kept once for the workgroup instead of once per work-item.
//
// Uniform values: constants, arguments, the workgroup's fields of current_cpu_item (not the
// index), arithmetic over uniform values, and phis whose incoming values are uniform and whose
// block no divergent branch decides. A branch is divergent when its condition is not uniform;
// it decides the blocks it reaches before its immediate post-dominator, and that post-dominator
// (where its paths meet: a phi there depends on the path taken). The kernel is in lockstep
// when no divergent branch reaches a barrier before its paths meet, and it has no virtual
// barriers of grid-stride loops (whose work-items go round different numbers of times) — as the
// divergence analyses of AdaptiveCpp's CBS (VectorizationInfo) and PoCL
// (VariableUniformityAnalysis) decide, in their simplest form. A warp operation's exchange
// (WarpExchanges.h) counts as a barrier here: in lockstep every lane of every warp takes part
// in each exchange (its region's version "for every work-item"), and no runtime call chooses
// which lanes run next — the warp reductions of jacobi and softmax, 5 exchanges each, then cost
// a region each rather than the runtime's round per exchange (issue 31, item 4).
#include "WorkItemLoopsImpl.h"

#include "llvm/Analysis/PostDominators.h"

namespace offload::compiler::workitems {

namespace {

/// Whether V is the same for every work-item, given which phis are (Phis).
class UniformValues {
public:
  UniformValues(const SmallPtrSetImpl<PHINode *> &Phis, function_ref<bool(const Value *)> WorkgroupField)
      : Phis(Phis), WorkgroupField(WorkgroupField) {}
  bool operator()(const Value *V, unsigned Depth = 0) {
    if (isa<Constant>(V) || isa<Argument>(V))
      return true;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 64)
      return false;
    if (auto It = Memo.find(I); It != Memo.end())
      return It->second;
    bool Result = false;
    if (const auto *P = dyn_cast<PHINode>(I)) {
      // Its incoming values are checked by the fixed point (analyseLockstep), not here: a
      // loop's phi is among its own operands' operands.
      return Memo[I] = Phis.contains(const_cast<PHINode *>(P));
    }
    if (isa<LoadInst>(I)) {
      Result = WorkgroupField(I);
    } else if (isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
               isa<GetElementPtrInst>(I) || isa<FreezeInst>(I)) {
      Result = true;
    } else if (const auto *CB = dyn_cast<CallInst>(I)) {
      const Function *Callee = calledFunction(*CB);
      Result = Callee && Callee->doesNotAccessMemory() && Callee->doesNotThrow() &&
               Callee->willReturn() && !Callee->isConvergent();
    }
    if (Result)
      for (const Use &Op : I->operands())
        if (!isa<BasicBlock>(Op.get()) && !(*this)(Op.get(), Depth + 1)) {
          Result = false;
          break;
        }
    Memo[I] = Result;
    return Result;
  }

private:
  const SmallPtrSetImpl<PHINode *> &Phis;
  function_ref<bool(const Value *)> WorkgroupField;
  DenseMap<const Instruction *, bool> Memo;
};

} // namespace

/// Decides Lockstep and, when it holds, UniformPhis (WorkItemLoopsImpl.h). After
/// splitAtBarriers, before the values live across barriers are demoted.
void WorkItemLoops::analyseLockstep(bool GridStride) {
  Lockstep = false;
  UniformPhis.clear();
  if (GridStride)
    return;
  SmallPtrSet<PHINode *, 16> Phis;
  if (!reachedTogether([this](const BasicBlock *BB) { return isBarrierBlock(BB); }, Phis))
    return;
  Lockstep = true;
  UniformPhis = std::move(Phis);
}

/// Whether every block Meets accepts is reached by all work-items together: no divergent branch
/// reaches one before its paths meet. Phis: the uniform ones, when it returns true.
bool WorkItemLoops::reachedTogether(function_ref<bool(const BasicBlock *)> Meets,
                                    SmallPtrSetImpl<PHINode *> &Phis) const {
  for (BasicBlock &BB : F) {
    const Instruction *T = BB.getTerminator();
    if (!isa<BranchInst>(T) && !isa<SwitchInst>(T) && !isa<ReturnInst>(T) && !isa<UnreachableInst>(T))
      return false;  // invoke, indirect branches: not analysed
  }
  Phis.clear();
  for (BasicBlock &BB : F)
    for (PHINode &P : BB.phis())
      Phis.insert(&P);
  auto WorkgroupField = [this](const Value *V) { return workgroupField(V); };
  PostDominatorTree PDT(F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    UniformValues Uniform(Phis, WorkgroupField);
    SmallVector<PHINode *, 8> Drop;
    for (PHINode *P : Phis)
      if (!llvm::all_of(P->incoming_values(), [&](const Value *V) { return Uniform(V); }))
        Drop.push_back(P);
    for (BasicBlock &BB : F) {
      const Instruction *T = BB.getTerminator();
      const Value *Condition = nullptr;
      if (const auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
        Condition = Br->getCondition();
      else if (const auto *Sw = dyn_cast<SwitchInst>(T))
        Condition = Sw->getCondition();
      if (!Condition || Uniform(Condition))
        continue;
      // A divergent branch: the blocks it reaches before its paths meet.
      const DomTreeNode *Node = PDT.getNode(&BB);
      const BasicBlock *Meet = Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
      SmallVector<const BasicBlock *, 16> Work(succ_begin(&BB), succ_end(&BB));
      SmallPtrSet<const BasicBlock *, 16> Seen;
      while (!Work.empty()) {
        const BasicBlock *X = Work.pop_back_val();
        if (X == Meet || !Seen.insert(X).second)
          continue;
        if (Meets(X)) {  // work-items may wait at different barriers (or some end)
          if (getenv("OFFLOAD_CXX_DEBUG_LOCKSTEP"))
            errs() << F.getName() << ": not in lockstep: " << *T << " reaches " << X->getName() << "\n";
          return false;
        }
        for (PHINode &P : const_cast<BasicBlock *>(X)->phis())
          Drop.push_back(&P);
        Work.append(succ_begin(X), succ_end(X));
      }
      if (Meet)
        for (PHINode &P : const_cast<BasicBlock *>(Meet)->phis())
          Drop.push_back(&P);
    }
    for (PHINode *P : Drop) {
      Changed |= Phis.erase(P);
    }
  }
  return true;
}

/// A load of one of current_cpu_item's fields other than the index (the workgroup's id, size,
/// the grid's size).
bool WorkItemLoops::workgroupField(const Value *V) const {
  unsigned Budget = 1;
  return recomputable(V, Budget) && !readsIndex(V, 3);
}

/// Whether I (not a phi), live across a barrier, is uniform under Lockstep.
bool WorkItemLoops::uniformUnderLockstep(const Instruction *I) const {
  auto WorkgroupField = [this](const Value *V) { return workgroupField(V); };
  UniformValues Uniform(UniformPhis, WorkgroupField);
  return Lockstep && Uniform(I);
}

} // namespace offload::compiler::workitems
