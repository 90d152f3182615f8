// compiler/cpu/CarryAcrossBarriers.cpp — the split at barriers, and the values kept per work-item
// across them.
#include "WorkItemLoopsImpl.h"

namespace offload::compiler::workitems {

void WorkItemLoops::splitAtBarriers() {
  SmallVector<CallBase *, 8> Barriers;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Callee = calledFunction(*CB); Callee && isBarrier(*Callee))
        Barriers.push_back(CB);
  for (CallBase *CB : Barriers) {
    if (auto *II = dyn_cast<InvokeInst>(CB))
      CB = changeToCall(II);
    BasicBlock *Barrier = SplitBlock(CB->getParent(), CB);
    SplitBlock(Barrier, CB->getNextNode());
    BarrierBlocks.push_back(Barrier);
  }
  BarrierBlocks.append(VirtualBlocks.begin(), VirtualBlocks.end());
}

/// Blocks reachable from X's successors through a barrier without passing X again (where a
/// value X defines arrives from before a barrier).
DenseSet<const BasicBlock *> WorkItemLoops::reachedThroughBarrier(const BasicBlock *X) const {
  DenseSet<const BasicBlock *> Seen[2], Result;
  std::deque<std::pair<const BasicBlock *, bool>> Work;
  for (const BasicBlock *S : successors(X))
    Work.push_back({S, false});
  while (!Work.empty()) {
    auto [BB, Crossed] = Work.front();
    Work.pop_front();
    if (BB == X)
      continue;
    Crossed = Crossed || isBarrierBlock(BB);
    if (!Seen[Crossed].insert(BB).second)
      continue;
    if (Crossed)
      Result.insert(BB);
    for (const BasicBlock *S : successors(BB))
      Work.push_back({S, Crossed});
  }
  return Result;
}

void WorkItemLoops::demoteValuesLiveAcrossBarriers() {
  SmallVector<Instruction *, 16> Demote;
  for (BasicBlock &BB : F) {
    DenseSet<const BasicBlock *> Reached;
    bool Computed = false;
    for (Instruction &I : BB) {
      if (isa<AllocaInst>(I) || I.use_empty())
        continue;
      for (const Use &U : I.uses()) {
        const auto *User = cast<Instruction>(U.getUser());
        const BasicBlock *At = User->getParent();
        if (const auto *Phi = dyn_cast<PHINode>(User))
          At = Phi->getIncomingBlock(U);
        if (At == &BB && !isa<PHINode>(User))
          continue;
        if (!Computed) {
          Reached = reachedThroughBarrier(&BB);
          Computed = true;
        }
        if (Reached.contains(At)) {
          Demote.push_back(&I);
          break;
        }
      }
    }
  }
  const BasicBlock::iterator AllocaPoint = F.getEntryBlock().begin();
  SmallVector<PHINode *, 8> Phis;
  for (Instruction *I : Demote) {
    if (unsigned Budget = MaxRecomputed; recomputable(I, Budget)) {
      recomputeAtUses(I);
      continue;
    }
    if (auto *Phi = dyn_cast<PHINode>(I))
      Phis.push_back(Phi);
    else if (AllocaInst *Slot = DemoteRegToStack(*I, false, AllocaPoint); Slot && uniformUnderLockstep(I))
      UniformSlots.insert(Slot);  // reloads at each use, from one slot for the workgroup
  }
  demotePhis(Phis, AllocaPoint);
}

/// Phis to stack slots, reloaded at each use (a use past a barrier reads the slot, not a
/// reload made in another region). The phis of a block are one parallel copy per incoming
/// edge: every value is read before any slot is written (`x, y = y, x` across a barrier in
/// a loop swaps), and an edge from a block with several successors gets a block of its own,
/// so the copy runs only when that edge is taken.
void WorkItemLoops::demotePhis(ArrayRef<PHINode *> Phis, BasicBlock::iterator AllocaPoint) {
  DenseMap<PHINode *, AllocaInst *> Slot;
  SetVector<BasicBlock *> Blocks;
  for (PHINode *P : Phis) {
    const bool Uniform = Lockstep && UniformPhis.contains(P);
    Slot[P] = new AllocaInst(P->getType(), DL.getAllocaAddrSpace(), nullptr,
                             P->getName() + (Uniform ? ".uniform" : ".slot"), AllocaPoint);
    if (Uniform)
      UniformSlots.insert(Slot[P]);
    Blocks.insert(P->getParent());
  }
  for (BasicBlock *B : Blocks) {
    SmallSetVector<BasicBlock *, 4> Preds(pred_begin(B), pred_end(B));
    for (BasicBlock *Pred : Preds) {
      BasicBlock *Edge = Pred;
      // All of Pred's edges to B (a switch may have several) through one new block.
      if (Pred->getTerminator()->getNumSuccessors() > 1)
        Edge = SplitBlockPredecessors(B, {Pred}, ".copies");
      const BasicBlock::iterator At = Edge->getTerminator()->getIterator();
      SmallVector<std::pair<Value *, AllocaInst *>, 4> Copies;
      for (PHINode &P : B->phis()) {
        auto Own = Slot.find(&P);
        Value *V = P.getIncomingValueForBlock(Edge);
        if (auto *Q = dyn_cast<PHINode>(V); Q && Slot.count(Q)) {
          V = new LoadInst(Q->getType(), Slot[Q], Q->getName(), At);
          // A phi of B that stays a phi reads the slot on this edge too: before the copies
          // write it (`t = a + b; a = b; b = t;` around a barrier, where only b is kept in
          // a slot, read the new b into a).
          if (Own == Slot.end())
            P.setIncomingValueForBlock(Edge, V);
        }
        if (Own != Slot.end())
          Copies.push_back({V, Own->second});
      }
      for (auto [V, S] : Copies)
        new StoreInst(V, S, At);
    }
  }
  // A phi's entries for one block (a switch's cases) must be one value: one load per block.
  DenseMap<std::pair<PHINode *, BasicBlock *>, LoadInst *> AtEnd;
  for (PHINode *P : Phis)
    for (Use &U : make_early_inc_range(P->uses())) {
      auto *User = cast<Instruction>(U.getUser());
      if (auto *UP = dyn_cast<PHINode>(User); UP && Slot.count(UP))
        continue;  // the copies above carry it
      if (auto *UP = dyn_cast<PHINode>(User)) {
        BasicBlock *From = UP->getIncomingBlock(U);
        LoadInst *&L = AtEnd[{P, From}];
        if (!L)
          L = new LoadInst(P->getType(), Slot[P], P->getName(), From->getTerminator()->getIterator());
        U.set(L);
        continue;
      }
      U.set(new LoadInst(P->getType(), Slot[P], P->getName(), User->getIterator()));
    }
  for (PHINode *P : Phis)
    P->replaceAllUsesWith(PoisonValue::get(P->getType()));
  for (PHINode *P : Phis)
    P->eraseFromParent();
}

/// Whether every use of P (through GEPs and casts) is a simple load from it: memory nothing in
/// the function writes.
bool onlyLoadedFrom(const Value *P, unsigned Depth) {
  if (Depth > 8)
    return false;
  return llvm::all_of(P->users(), [&](const User *U) {
    if (const auto *L = dyn_cast<LoadInst>(U))
      return L->isSimple() && L->getPointerOperand() == P;
    if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U))
      return onlyLoadedFrom(U, Depth + 1);
    return false;
  });
}


/// Whether V can be computed again where it is used, from what it was computed from, instead
/// of being kept per work-item across a barrier: arithmetic, comparisons, casts and addresses
/// over constants, arguments (decoded once per workgroup), thread-locals' addresses, fields
/// of current_cpu_item (constant through a workgroup; its `.thread` becomes the loops'
/// counters) and `[[gnu::const]]` calls — at most Budget instructions. The work-item's index
/// and what is derived from it (global ids, `&shared[t]`) then cost nothing per work-item.
bool WorkItemLoops::recomputable(const Value *V, unsigned &Budget) const {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Budget == 0)
    return false;
  --Budget;
  if (const auto *L = dyn_cast<LoadInst>(I)) {
    APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
    const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
    // A field of a parameter passed in memory (`byval`: a kernel's fourth std::span, past the
    // registers) that the function only reads: the same for every work-item, as a parameter
    // in a register is (a grid-stride loop bounded by `w.size()` was not swept: 11x slower).
    if (const auto *Arg = dyn_cast<Argument>(Base); Arg && Arg->hasByValAttr())
      return L->isSimple() && onlyLoadedFrom(Arg);
    const auto *Tls = dyn_cast<IntrinsicInst>(Base);
    return L->isSimple() && Tls && Tls->getIntrinsicID() == Intrinsic::threadlocal_address &&
           Tls->getArgOperand(0)->getName() == CurrentItemName &&
           isAddressOfThreadLocal(L->getPointerOperand());
  }
  if (const auto *CB = dyn_cast<CallBase>(I)) {
    const Function *Callee = calledFunction(*CB);
    const bool Pure = Callee && isa<CallInst>(CB) &&
                      (Callee->getIntrinsicID() == Intrinsic::threadlocal_address ||
                       (Callee->doesNotAccessMemory() && Callee->doesNotThrow() &&
                        Callee->willReturn() && !Callee->isConvergent()));
    if (!Pure)
      return false;
  } else if (!(isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<GetElementPtrInst>(I) ||
               isa<CmpInst>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I))) {
    return false;
  }
  return llvm::all_of(I->operands(), [&](const Use &Op) { return recomputable(Op.get(), Budget); });
}

/// Each use of I outside its block gets a copy of I's computation (recomputable) before it.
void WorkItemLoops::recomputeAtUses(Instruction *I) {
  // A phi's entries for one block (a switch's cases that share a target) take one copy.
  DenseMap<std::pair<PHINode *, BasicBlock *>, Value *> AtEnd;
  for (Use &U : make_early_inc_range(I->uses())) {
    auto *User = cast<Instruction>(U.getUser());
    if (auto *P = dyn_cast<PHINode>(User)) {
      BasicBlock *From = P->getIncomingBlock(U);
      Value *&Copy = AtEnd[{P, From}];
      if (!Copy)
        Copy = copyComputationBefore(I, From->getTerminator());
      U.set(Copy);
      continue;
    }
    if (User->getParent() == I->getParent())
      continue;
    U.set(copyComputationBefore(I, User));
  }
}

} // namespace offload::compiler::workitems
