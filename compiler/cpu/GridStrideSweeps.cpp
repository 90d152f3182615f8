// compiler/cpu/GridStrideSweeps.cpp — grid-stride loops as sweeps of the workgroup (issue 31,
// item 5).
//
// A grid-stride loop (`for (i = global_id_x(); i < n; i += grid_size)`) that every work-item of
// a workgroup reaches together is split in two:
//   * sweeps: while the workgroup's last work-item has another iteration after this one, every
//     work-item runs one iteration, then all meet at a barrier. Each sweep is one region of the
//     work-item loops, whose x loop touches neighbouring elements (vectorisable), and the kernel
//     can stay in lockstep (Lockstep.cpp) — no virtual barrier, no runtime call, no state per
//     work-item;
//   * the original loop, from where each work-item's sweeps left it: what is left (one
//     iteration, for the usual `global_id` start; none or more otherwise).
// A work-item runs a sweep's iteration only when its loop would go on after it (the loop's own
// test, on the next index); otherwise it keeps its state for the original loop. So the sweeps'
// count — computed once for the workgroup, from the start of its last work-item — decides only
// how much runs in sweeps, never what runs: it is right whatever the order of the starts.
// Before, such a loop got a virtual barrier (UniformValues.cpp), which keeps a kernel out of
// lockstep: the dot product of bench/cpu_device ran 52-56 ms, by hand in this form 38-43 ms
// (OpenMP: 29 ms; bench/NOTES.md, twenty-second entry).
#include "WorkItemLoopsImpl.h"

namespace offload::compiler::workitems {

namespace {

/// A grid-stride loop the sweeps can take: one exiting block (its header or its latch), whose
/// test is `index < Bound` (unsigned or signed) on the induction (header) or its next value
/// (latch), Bound uniform.
struct SweepLoop {
  Loop *L;
  PHINode *Induction;
  Value *Stride, *Bound;
  ICmpInst::Predicate Stay;  ///< ult or slt: the loop goes on while `tested Stay Bound`
  bool TestsNext;            ///< the test is on induction + stride, after the body (rotated)
  /// The block whose branch enters the loop only if the first test passes (a rotated loop's
  /// guard: `br (start Stay Bound), preheader, exit`), or null (the preheader is always run).
  BasicBlock *Guard;
};

} // namespace

/// Whether V is computed from the workgroup's size and constants only (`block_dim_x()`, a
/// block-stride loop's step).
bool WorkItemLoops::workgroupSizeOnly(const Value *V, unsigned Depth) const {
  if (isa<ConstantInt>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxRecomputed)
    return false;
  if (const auto *L = dyn_cast<LoadInst>(I)) {
    const std::optional<uint64_t> At = itemFieldOffset(*L);
    return At && *At >= BlockDimOffset && *At < BlockDimOffset + 12;
  }
  if (!isa<BinaryOperator>(I) && !isa<CastInst>(I))
    return false;
  return llvm::all_of(I->operands(), [&](const Use &Op) { return workgroupSizeOnly(Op.get(), Depth + 1); });
}

/// Whether V is a uniform value plus the work-item's x index (`global_id_x()`, and its
/// `static_cast<unsigned>`), with one add and casts of at least 16 bits: over the workgroup's at
/// most 1024 x indexes it grows with x except at one point at most, where a wrap or a cast's
/// change of sign drops it — which the sweeps find out, once per workgroup, by comparing the
/// first and the last work-item's value.
bool WorkItemLoops::growsWithX(const Value *V) const {
  bool Added = false;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (!V->getType()->isIntegerTy() || V->getType()->getIntegerBitWidth() < 16)
      return false;
    if (const auto *L = dyn_cast<LoadInst>(V)) {
      const std::optional<uint64_t> At = itemFieldOffset(*L);
      return At && *At == ThreadOffset;
    }
    if (isa<ZExtInst>(V) || isa<SExtInst>(V) || isa<TruncInst>(V)) {
      V = cast<CastInst>(V)->getOperand(0);
      continue;
    }
    const auto *Add = dyn_cast<BinaryOperator>(V);
    if (!Add || Add->getOpcode() != Instruction::Add || Added)
      return false;
    Added = true;
    if (uniform(Add->getOperand(0)))
      V = Add->getOperand(1);
    else if (uniform(Add->getOperand(1)))
      V = Add->getOperand(0);
    else
      return false;
  }
  return false;
}

/// Whether a rotated loop's guard (`br GCmp, Pre, exit`) enters the loop exactly when its test
/// passes on the start: `Start Stay Bound`, the same values or (indvars widened the loop's index)
/// their extensions. Then the instructions of Pre, all safe to run anyway (the widened start
/// and bound), move before the guard's branch, where the sweeps will be.
bool WorkItemLoops::guardTestsFirst(BranchInst *GBr, ICmpInst *GCmp, BasicBlock *Pre, Value *Start,
                                    Value *Bound, CmpInst::Predicate Stay) {
  if (GBr->getSuccessor(0) == GBr->getSuccessor(1))
    return false;
  ICmpInst::Predicate GPred = GCmp->getPredicate();
  if (GBr->getSuccessor(1) == Pre)
    GPred = ICmpInst::getInversePredicate(GPred);
  auto narrowed = [&](Value *Wide, Value *Narrow) {
    if (Wide == Narrow)
      return true;
    if (Stay == ICmpInst::ICMP_SLT)
      return isa<SExtInst>(Wide) && cast<SExtInst>(Wide)->getOperand(0) == Narrow;
    return isa<ZExtInst>(Wide) && cast<ZExtInst>(Wide)->getOperand(0) == Narrow;
  };
  bool Same = GPred == Stay && narrowed(Start, GCmp->getOperand(0)) && narrowed(Bound, GCmp->getOperand(1));
  Same = Same || (ICmpInst::getSwappedPredicate(GPred) == Stay && narrowed(Start, GCmp->getOperand(1)) &&
                  narrowed(Bound, GCmp->getOperand(0)));
  if (!Same)
    return false;
  for (Instruction &I : *Pre) {
    if (I.isTerminator())
      continue;
    unsigned Budget = 1;
    if (!isSafeToSpeculativelyExecute(&I) && !(isa<LoadInst>(I) && recomputable(&I, Budget)))
      return false;
  }
  while (Pre->size() > 1)
    Pre->front().moveBefore(GBr->getIterator());
  return true;
}

/// Splits the grid-stride loops that every work-item reaches together into sweeps (above), at
/// most Room of them (each adds a barrier); returns how many. Before the virtual barriers.
unsigned WorkItemLoops::sweepGridStrideLoops(unsigned Room) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<SweepLoop, 4> Loops;
  const bool Debug = getenv("OFFLOAD_CXX_DEBUG_LOCKSTEP");
  for (auto [L, Induction, Stride] : gridStrideLoops(LI)) {
    if (Loops.size() >= Room)
      break;
    if (Debug)
      errs() << F.getName() << ": grid-stride loop at " << L->getHeader()->getName() << "\n";
    // Not a loop by the workgroup's size (`i += block_dim_x()`, over a shared array): it stays
    // within the workgroup's few cache lines anyway, and a sweep costs a region per
    // block_dim_x() elements (bincount's zeroing of its bins: 227 -> 749 ms swept). Such a loop
    // keeps no virtual barrier either (addVirtualBarriers).
    if (workgroupSizeOnly(Stride)) {
      if (Debug)
        errs() << "  not swept: its stride is computed from the workgroup's size and constants only (a block-stride loop)\n";
      continue;
    }
    BasicBlock *Pre = L->getLoopPreheader(), *Header = L->getHeader(), *Latch = L->getLoopLatch();
    BasicBlock *Exiting = L->getExitingBlock();
    if (!Pre && L->getLoopPredecessor())  // a guard's branch: a block of its own on the edge
      Pre = SplitEdge(L->getLoopPredecessor(), Header, &DT, &LI);
    if (!Pre || !Latch || !Exiting || (Exiting != Header && Exiting != Latch) ||
        !isa<BranchInst>(Pre->getTerminator())) {
      if (Debug) {
        errs() << "  not swept: its shape\n";
        for (BasicBlock *BB : L->blocks())
          BB->print(errs());
      }
      continue;
    }
    if (llvm::any_of(Header->phis(), [](const PHINode &P) { return P.getNumIncomingValues() != 2; }))
      continue;
    auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
    auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
    if (!Cmp)
      continue;
    // The test is on the induction (before the body, or a one-block loop's) or on its next
    // value (a rotated loop's latch).
    const Value *Next = Induction->getIncomingValueForBlock(Latch);
    ICmpInst::Predicate Pred = Cmp->getPredicate();
    Value *Bound = nullptr;
    bool TestsNext = false;
    for (unsigned Side = 0; Side < 2 && !Bound; ++Side) {
      const Value *Op = Cmp->getOperand(Side);
      if (Op != Induction && Op != Next)
        continue;
      TestsNext = Op == Next;
      Bound = Cmp->getOperand(1 - Side);
      if (Side == 1)
        Pred = ICmpInst::getSwappedPredicate(Pred);
    }
    if (!L->contains(Br->getSuccessor(0)))  // the loop goes on when the test fails
      Pred = ICmpInst::getInversePredicate(Pred);
    if (!Bound || !uniform(Bound) || (Pred != ICmpInst::ICMP_ULT && Pred != ICmpInst::ICMP_SLT)) {
      if (Debug)
        errs() << "  not swept: its test " << *Cmp << "\n";
      continue;
    }
    // A guard before a rotated loop is divergent (`start < n`): the sweeps go before it.
    BasicBlock *Guard = Pre->getSinglePredecessor();
    auto *GBr = Guard ? dyn_cast<BranchInst>(Guard->getTerminator()) : nullptr;
    auto *GCmp = GBr && GBr->isConditional() ? dyn_cast<ICmpInst>(GBr->getCondition()) : nullptr;
    if (GCmp && !guardTestsFirst(GBr, GCmp, Pre, Induction->getIncomingValueForBlock(Pre), Bound, Pred)) {
      if (Debug)
        errs() << "  not swept: its guard " << *GBr << "\n";
      continue;
    }
    if (!GCmp)
      Guard = nullptr;
    Loops.push_back({L, Induction, Stride, Bound, Pred, TestsNext, Guard});
  }
  if (Loops.empty())
    return 0;
  // Every work-item must reach them together (else a sweep's barrier would wait for
  // work-items that never come): the lockstep analysis, with the loops' entries as barriers.
  SmallPtrSet<const BasicBlock *, 4> Entries;
  for (const SweepLoop &S : Loops)
    Entries.insert(S.Guard ? S.Guard : S.L->getLoopPreheader());
  auto Meets = [&](const BasicBlock *BB) {
    if (Entries.contains(BB))
      return true;
    for (const Instruction &I : *BB)
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = calledFunction(*CB); Callee && (isBarrier(*Callee) || isWarpOperation(*Callee)))
          return true;
    return false;
  };
  SmallPtrSet<PHINode *, 16> Phis;
  if (!reachedTogether(Meets, Phis))
    return 0;
  FunctionCallee Barrier = M.getOrInsertFunction(BarrierName, Type::getVoidTy(Ctx));
  for (const SweepLoop &S : Loops)
    sweep(S.L, S.Induction, S.Stride, S.Bound, S.Stay, S.TestsNext, S.Guard, Barrier);
  return Loops.size();
}

/// The fewest sweeps a workgroup runs; fewer, none (the loop as written, per work-item).
constexpr uint64_t MinSweeps = 16;

void WorkItemLoops::sweep(Loop *L, PHINode *Induction, Value *StrideIn, Value *BoundIn,
                          CmpInst::Predicate Stay, bool TestsNext, BasicBlock *Guard,
                          FunctionCallee Barrier) {
  BasicBlock *Pre = L->getLoopPreheader(), *Header = L->getHeader(), *Latch = L->getLoopLatch();
  BasicBlock *Exiting = L->getExitingBlock();
  Type *Ty = Induction->getType();
  // A sweep reads a workgroup's few neighbouring elements, the next a grid's stride away: out
  // of the hardware prefetchers' reach (dot: 26 ms with the prefetch, 36 without).
  prefetchNextIteration(*L, Induction, StrideIn);
  auto block = [&](const char *Name) { return BasicBlock::Create(Ctx, Name, &F, Header); };
  BasicBlock *SPre = block("sweep.pre"), *SHeader = block("sweep.header"), *SCheck = block("sweep.check");
  BasicBlock *SLatch = block("sweep.latch"), *SDone = block("sweep.done");
  BasicBlock *Exit = nullptr;  // the guard's other way
  if (Guard) {
    auto *GBr = cast<BranchInst>(Guard->getTerminator());
    Exit = GBr->getSuccessor(0) == Pre ? GBr->getSuccessor(1) : GBr->getSuccessor(0);
    BranchInst::Create(SPre, GBr->getIterator());
    GBr->eraseFromParent();
    for (PHINode &P : Exit->phis())
      P.setIncomingBlock(P.getBasicBlockIndex(Guard), SDone);
  } else {
    Pre->getTerminator()->replaceSuccessorWith(Header, SPre);
  }

  // The count of sweeps: how many times the last work-item's loop goes on after an iteration
  // (or, testing before the body, how many iterations it runs).
  IRBuilder<> B(SPre);
  Instruction *At = B.CreateBr(SHeader);
  B.SetInsertPoint(At);
  Value *Stride = copyComputationBefore(StrideIn, At), *Bound = copyComputationBefore(BoundIn, At);
  Value *Start = Induction->getIncomingValueForBlock(Pre);
  // The start for the workgroup's last work-item: its index loads are the workgroup's size less one.
  Value *Last = startOfItem(Start, At, /*LastItem=*/true);
  // Starts that grow with x (`global_id_x()`): where the first work-item's start is not past the
  // last one's, no start is, so every work-item goes on wherever the last one does: each sweep
  // runs every work-item's iteration at `start + sweep * stride`, with no test and no index kept
  // per work-item, and the x loop reads neighbouring elements at indexes the vectoriser and the
  // range checks' versions (RangeCheckVersioning.cpp) can follow. Otherwise (a wrap) no sweep
  // runs: each work-item's own loop does it all.
  Value *Ordered = nullptr;
  if (growsWithX(Start)) {
    Value *Start0 = startOfItem(Start, At, /*LastItem=*/false);
    Ordered = B.CreateNot(B.CreateICmp(Stay, Last, Start0));
  }
  Value *First = TestsNext ? B.CreateAdd(Last, Stride) : Last;
  if (Ordered) {
    // ... and the last work-item is in the loop, and its next index does not wrap (the count
    // below, from that next index, is then every work-item's).
    Ordered = B.CreateAnd(Ordered, B.CreateICmp(Stay, Last, Bound));
    if (TestsNext)
      Ordered = B.CreateAnd(Ordered, B.CreateICmp(Stay, Last, First));
    Ordered->setName("sweep.starts.ordered");
  }
  Value *NoStride = B.CreateICmpEQ(Stride, ConstantInt::get(Ty, 0));
  Value *Runs = B.CreateAnd(B.CreateICmp(Stay, First, Bound), B.CreateNot(NoStride));
  // (Testing the next index: the last work-item must be in the loop too. Without this, a last
  // start past the bound whose next index wrapped below it, `i < n` with i near 2^64, counted
  // ~2^64 sweeps in which no work-item ran: a hang.)
  if (TestsNext)
    Runs = B.CreateAnd(Runs, B.CreateICmp(Stay, Last, Bound));
  // A few iterations per work-item run faster as each work-item's own loop (their elements stay
  // in the cache from one work-item to the next; a sweep's region and the state kept across its
  // barrier cost more): atomic-reduction's 8 (41 -> 60 ms swept), against 128 (61 -> 21 ms).
  // Whether there are MinSweeps of them is found without a division (Count >= M exactly when
  // (Bound - First - 1) / (M - 1) >= Stride; a division per work-item, where LLVM did not hoist
  // it, made a grid as large as the data 1.6x slower); the count, in sweep.count.
  Value *Left = B.CreateSub(B.CreateSub(Bound, First), ConstantInt::get(Ty, 1));
  Value *Enough = B.CreateICmpUGE(B.CreateUDiv(Left, ConstantInt::get(Ty, MinSweeps - 1)), Stride);
  Value *Go = B.CreateAnd(Runs, Enough);
  if (Ordered)
    Go = B.CreateAnd(Go, Ordered);
  Go->setName("sweep.go");
  BasicBlock *SCount = BasicBlock::Create(Ctx, "sweep.count", &F, SHeader);
  IRBuilder<> CB(SCount);
  Value *Sweeps = CB.CreateAdd(CB.CreateUDiv(Left, Stride), ConstantInt::get(Ty, 1), "sweeps");
  CB.CreateBr(SHeader);

  // sweep.header: the sweep's number and each work-item's state (the header's phis).
  B.SetInsertPoint(SHeader);
  PHINode *T = B.CreatePHI(Ty, 2, "sweep");
  T->addIncoming(ConstantInt::get(Ty, 0), SCount);
  SmallVector<std::pair<PHINode *, PHINode *>, 4> State;  // the header's phi, its sweep state
  for (PHINode &P : Header->phis()) {
    PHINode *Q = B.CreatePHI(P.getType(), 2, P.getName() + ".sweep");
    Q->addIncoming(P.getIncomingValueForBlock(Pre), SCount);
    State.push_back({&P, Q});
  }
  B.CreateCondBr(B.CreateICmpULT(T, Sweeps), SCheck, SDone);
  PHINode *Index = nullptr;
  for (auto [P, Q] : State)
    if (P == Induction)
      Index = Q;
  PHINode *const IndexState = Index;  // (Index becomes sweep.done's phi below)

  // The loop's body, cloned as one iteration: from sweep.check (if the loop goes on after it)
  // to sweep.latch.
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Clones;
  for (BasicBlock *BB : L->blocks()) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".sweep", &F);
    C->moveBefore(SLatch);
    VMap[BB] = C;
    Clones.push_back(C);
  }
  auto *CHeader = cast<BasicBlock>(VMap[Header]);
  // With ordered starts, the index of this sweep's iteration: start + sweep * stride.
  auto sweptIndex = [&](BasicBlock *BB, Value *Sweep) {
    Instruction *Here = new UnreachableInst(Ctx, BB);
    IRBuilder<> IB(Here);
    Value *I = IB.CreateAdd(copyComputationBefore(Start, Here),
                            IB.CreateMul(Sweep, copyComputationBefore(StrideIn, Here)), "sweep.index");
    Here->eraseFromParent();
    return I;
  };
  Value *IndexNow = Ordered ? sweptIndex(SCheck, T) : nullptr;
  SmallVector<Instruction *, 4> ClonedPhis;
  for (auto [P, Q] : State) {
    ClonedPhis.push_back(cast<Instruction>(VMap[P]));
    VMap[P] = P == Induction && IndexNow ? IndexNow : Q;
  }
  for (BasicBlock *C : Clones)
    for (Instruction &I : *C)
      RemapInstruction(&I, VMap, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
  for (Instruction *I : ClonedPhis)
    I->eraseFromParent();
  if (IndexNow)  // the workgroup's elements, prefetched once per line before the x loop
    prefetchSweepsAhead(Clones, Start, StrideIn, T);
  // The original loop runs what is left after the sweeps (one iteration for the usual start):
  // no prefetch there, its next element is past the data (a grid as large as the data, where
  // no sweep runs: 29 ms with the prefetches, each a page walk far past the arrays).
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : make_early_inc_range(*BB))
      if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::prefetch)
        II->eraseFromParent();
  // The test passes in the clone (sweep.check made it): its exit edge goes.
  auto *CBr = cast<BranchInst>(cast<BasicBlock>(VMap[Exiting])->getTerminator());
  auto *OBr = cast<BranchInst>(Exiting->getTerminator());  // (the clone's successors are clones)
  BasicBlock *Goes = CBr->getSuccessor(L->contains(OBr->getSuccessor(0)) ? 0 : 1);
  BranchInst::Create(Goes, CBr->getIterator());
  CBr->eraseFromParent();
  // The back edge ends the sweep.
  auto *CLatch = cast<BasicBlock>(VMap[Latch]);
  CLatch->getTerminator()->replaceSuccessorWith(CHeader, SLatch);

  B.SetInsertPoint(SCheck);
  if (IndexNow) {
    B.CreateBr(CHeader);  // every work-item goes on (ordered starts)
  } else {
    Instruction *Here = B.CreateUnreachable();  // (copyComputationBefore's place; replaced)
    B.SetInsertPoint(Here);
    // In the loop (not past the guard, or its test passed), and going on after this iteration.
    Value *BoundHere = copyComputationBefore(BoundIn, Here);
    Value *GoesOn = B.CreateICmp(Stay, Index, BoundHere, "sweep.in.loop");
    if (TestsNext)
      GoesOn = B.CreateAnd(GoesOn, B.CreateICmp(Stay, B.CreateAdd(Index, copyComputationBefore(StrideIn, Here)),
                                                BoundHere), "sweep.goes.on");
    B.CreateCondBr(GoesOn, CHeader, SLatch);
    Here->eraseFromParent();
  }

  // sweep.latch: every work-item's state after the sweep, the barrier, the next sweep.
  B.SetInsertPoint(SLatch);
  for (auto [P, Q] : State) {
    Value *Next = P->getIncomingValueForBlock(Latch);
    Value *Swept = VMap.count(Next) ? static_cast<Value *>(VMap[Next]) : Next;
    if (!IndexNow) {  // (with ordered starts every work-item ran the iteration)
      PHINode *After = B.CreatePHI(P->getType(), 2, P->getName() + ".swept");
      After->addIncoming(Q, SCheck);
      After->addIncoming(Swept, CLatch);
      Swept = After;
    }
    Q->addIncoming(Swept, SLatch);
  }
  Value *T1 = B.CreateAdd(T, ConstantInt::get(Ty, 1));
  T->addIncoming(T1, SLatch);
  B.CreateCall(Barrier);
  B.CreateBr(SHeader);

  // No sweep for this workgroup (a grid as large as the data: one iteration each), straight
  // to the original loop from sweep.pre: its start values then cross no barrier, kept in no slot
  // per work-item (a grid of 32768 x 256 over 2^23 elements: 28 ms through sweep.header, as
  // 19 ms unswept).
  {
    Instruction *PreBr = SPre->getTerminator();
    IRBuilder<> PB(PreBr);
    PB.CreateCondBr(Go, SCount, SDone);
    PreBr->eraseFromParent();
    B.SetInsertPoint(SDone);
    for (auto &[P, Q] : State) {
      PHINode *Either = B.CreatePHI(P->getType(), 2, P->getName() + ".from");
      Either->addIncoming(Q, SHeader);
      Either->addIncoming(P->getIncomingValueForBlock(Pre), SPre);
      if (Q == Index)
        Index = Either;
      Q = Either;  // what the original loop starts from below
    }
  }
  // With ordered starts, the index after the sweeps is computed (sweep.end), not kept per
  // work-item through them.
  if (IndexNow) {
    BasicBlock *SEnd = BasicBlock::Create(Ctx, "sweep.end", &F, SDone);
    SHeader->getTerminator()->replaceSuccessorWith(SDone, SEnd);
    Value *After = sweptIndex(SEnd, T);
    BranchInst::Create(SDone, SEnd);
    for (PHINode &P : SDone->phis())
      P.setIncomingBlock(P.getBasicBlockIndex(SHeader), SEnd);
    Index->setIncomingValueForBlock(SEnd, After);
    if (IndexState->use_empty())
      IndexState->eraseFromParent();
  }
  // sweep.done: the original loop, from each work-item's state (through the guard again).
  if (Guard) {
    B.SetInsertPoint(SDone);
    Instruction *Done = B.CreateUnreachable();
    B.SetInsertPoint(Done);
    B.CreateCondBr(B.CreateICmp(Stay, Index, copyComputationBefore(BoundIn, Done)), Pre, Exit);
    Done->eraseFromParent();
  } else {
    BranchInst::Create(Header, SDone);
  }
  for (auto [P, Q] : State) {
    const int In = P->getBasicBlockIndex(Pre);
    if (!Guard)
      P->setIncomingBlock(In, SDone);
    P->setIncomingValue(In, Q);
  }
}

} // namespace offload::compiler::workitems
