// compiler/cpu/UniformValues.cpp — values the same for every work-item of a workgroup, grid-stride
// loops, virtual barriers.
#include "WorkItemLoopsImpl.h"

namespace offload::compiler::workitems {

/// The byte offset in current_cpu_item that L loads from, if it loads from it.
std::optional<uint64_t> WorkItemLoops::itemFieldOffset(const LoadInst &L) const {
  APInt Offset(DL.getIndexTypeSizeInBits(L.getPointerOperandType()), 0);
  const Value *Base = L.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
  const auto *Tls = dyn_cast<IntrinsicInst>(Base);
  if (!Tls || Tls->getIntrinsicID() != Intrinsic::threadlocal_address ||
      Tls->getArgOperand(0)->getName() != CurrentItemName)
    return std::nullopt;
  return Offset.getZExtValue();
}

/// Whether V reads the work-item's index (current_cpu_item.thread; Dim 3: any of x, y, z).
bool WorkItemLoops::readsIndex(const Value *V, unsigned Dim, unsigned Depth) const {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxRecomputed)
    return false;
  if (const auto *L = dyn_cast<LoadInst>(I)) {
    const std::optional<uint64_t> At = itemFieldOffset(*L);
    return At && *At >= ThreadOffset && *At < ThreadOffset + 12 &&
           (Dim == 3 || (*At - ThreadOffset) / 4 == Dim);
  }
  return llvm::any_of(I->operands(), [&](const Use &Op) { return readsIndex(Op.get(), Dim, Depth + 1); });
}

/// The same for every work-item of the workgroup, and computable anywhere: from arguments,
/// constants and current_cpu_item's fields other than the index.
bool WorkItemLoops::uniform(const Value *V) const {
  unsigned Budget = MaxRecomputed;
  return recomputable(V, Budget) && !readsIndex(V, 3);
}

/// Whether L is a grid-stride loop: an induction variable that starts at a value computed from
/// the work-item's x index, steps by a uniform value, and is tested against a uniform bound.
bool WorkItemLoops::gridStride(const Loop &L, PHINode *&Induction, Value *&Stride) const {
  BasicBlock *Header = L.getHeader(), *Latch = L.getLoopLatch();
  BasicBlock *Before = L.getLoopPredecessor();
  if (!Latch || !Before || !isa<BranchInst>(Latch->getTerminator()))  // SplitEdge can split it
    return false;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = calledFunction(*CB); Callee && isBarrier(*Callee))
          return false;
  for (PHINode &P : Header->phis()) {
    if (P.getNumIncomingValues() != 2)
      continue;
    Value *Start = P.getIncomingValueForBlock(Before);
    auto *Next = dyn_cast<BinaryOperator>(P.getIncomingValueForBlock(Latch));
    if (!Next || Next->getOpcode() != Instruction::Add)
      continue;
    Value *Step = Next->getOperand(0) == &P ? Next->getOperand(1)
                  : Next->getOperand(1) == &P ? Next->getOperand(0) : nullptr;
    unsigned Budget = MaxRecomputed;
    if (!Step || !uniform(Step) || !recomputable(Start, Budget) || !readsIndex(Start, 0))
      continue;
    SmallVector<BasicBlock *, 4> Exiting;
    L.getExitingBlocks(Exiting);
    const bool Tested = llvm::any_of(Exiting, [&](BasicBlock *BB) {
      const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      const auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
      if (!Cmp)
        return false;
      const Value *A = Cmp->getOperand(0), *B = Cmp->getOperand(1);
      return ((A == &P || A == Next) && uniform(B)) || ((B == &P || B == Next) && uniform(A));
    });
    if (Tested) {
      Induction = &P;
      Stride = Step;
      return true;
    }
  }
  return false;
}

/// A prefetch, before each load in L from base[Induction], of base[Induction + Stride]: where
/// the work-item's next iteration reads, a sweep later (the grid's stride apart, in another
/// page: out of the hardware prefetchers' reach).
void WorkItemLoops::prefetchNextIteration(const Loop &L, PHINode *Induction, Value *Stride) {
  SmallVector<std::pair<LoadInst *, GetElementPtrInst *>, 4> Loads;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Load = dyn_cast<LoadInst>(&I); Load && Load->isSimple())
        if (auto *G = dyn_cast<GetElementPtrInst>(Load->getPointerOperand());
            G && G->getNumIndices() == 1 && *G->idx_begin() == Induction && uniform(G->getPointerOperand()))
          Loads.push_back({Load, G});
  for (auto [Load, G] : Loads) {
    IRBuilder<> B(Load);
    Value *Next = B.CreateAdd(Induction, copyComputationBefore(Stride, Load));
    Value *At = B.CreateGEP(G->getSourceElementType(), copyComputationBefore(G->getPointerOperand(), Load), Next);
    B.CreateIntrinsic(Intrinsic::prefetch, {At->getType()},
                      {At, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
  }
}

/// The outermost grid-stride loops of F.
SmallVector<std::tuple<Loop *, PHINode *, Value *>, 8> WorkItemLoops::gridStrideLoops(LoopInfo &LI) const {
  SmallVector<Loop *, 8> Work(LI.begin(), LI.end());
  SmallVector<std::tuple<Loop *, PHINode *, Value *>, 8> Chosen;
  while (!Work.empty()) {
    Loop *L = Work.pop_back_val();
    PHINode *Induction = nullptr;
    Value *Stride = nullptr;
    if (gridStride(*L, Induction, Stride))
      Chosen.push_back({L, Induction, Stride});
    else
      Work.append(L->begin(), L->end());
  }
  return Chosen;
}

/// Grid-stride loops (`for (i = global_id_x(); i < n; i += grid_dim_x() * block_dim_x())`)
/// get a virtual barrier on their back edge: each sweep of the work-item loop then runs one
/// iteration of every work-item, as a GPU runs them in lockstep, so that consecutive work-items
/// touch consecutive addresses (run to completion one work-item after another, each access was
/// a stride away from the last: a multiple of 4 KiB, conflicting in the caches). It does not
/// synchronise: the runtime runs a virtual region's work-items whenever any waits there, and
/// counts rounds of real barriers only without them (__offload_cpu_next_region). At most Room
/// (real and virtual barriers together stay within MaxBarriers); the outermost such loops.
void WorkItemLoops::addVirtualBarriers(unsigned Room) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (auto [L, Induction, Stride] : gridStrideLoops(LI)) {
    if (VirtualBlocks.size() >= Room)
      break;
    if (workgroupSizeOnly(Stride))  // a block-stride loop: its elements stay in the caches
      continue;
    prefetchNextIteration(*L, Induction, Stride);
    // As a barrier's: a block of its own, then the region's head (the header's phis have
    // an incoming block of the region).
    BasicBlock *V = SplitEdge(L->getLoopLatch(), L->getHeader());
    V->setName("virtual.barrier");
    SplitBlock(V, V->getTerminator())->setName("virtual.resume");
    VirtualBlocks.push_back(V);
  }
}

} // namespace offload::compiler::workitems
