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

namespace {

/// A prefetch of At for reading, kept in every cache level (what each prefetch of this file is).
void emitPrefetch(IRBuilder<> &B, Value *At) {
  B.CreateIntrinsic(Intrinsic::prefetch, {At->getType()}, {At, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
}

} // namespace

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
    emitPrefetch(B, At);
  }
}

namespace {

/// The module's helper Name: SweepPrefetchName(item, group, bytes), the work-item's own prefetch
/// of `item` (what a sweep's prefetch is where buildLoops cannot make it the workgroup's), or
/// PrefetchLinesName(at, bytes), a prefetch per 64 bytes of [at, at + bytes). Inlined at -O3.
Function *prefetchHelper(Module &M, StringRef Name) {
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  const bool Lines = Name == PrefetchLinesName;
  SmallVector<Type *, 3> Params{Ptr};
  if (!Lines)
    Params.push_back(Ptr);
  Params.push_back(I64);
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), Params, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::AlwaysInline);
  F->addFnAttr(Attribute::NoUnwind);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
  IRBuilder<> B(Entry);
  if (!Lines) {
    emitPrefetch(B, F->getArg(0));
    B.CreateRetVoid();
    return F;
  }
  BasicBlock *Loop = BasicBlock::Create(Ctx, "line", F), *Done = BasicBlock::Create(Ctx, "done", F);
  B.CreateCondBr(B.CreateICmpEQ(F->getArg(1), B.getInt64(0)), Done, Loop);
  B.SetInsertPoint(Loop);
  PHINode *Offset = B.CreatePHI(I64, 2, "offset");
  Offset->addIncoming(B.getInt64(0), Entry);
  emitPrefetch(B, B.CreateGEP(B.getInt8Ty(), F->getArg(0), Offset));
  Value *Next = B.CreateAdd(Offset, B.getInt64(64));
  Offset->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpULT(Next, F->getArg(1)), Loop, Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

/// How many sweeps ahead a sweep prefetches the workgroup's elements.
constexpr uint64_t SweepsAhead = 2;
/// The most bytes a sweep prefetches per array (1024 work-items' doubles).
constexpr uint64_t MostPrefetched = 8192;

} // namespace

/// A copy before At of Start (a grid-stride loop's start, computed from the work-item's index)
/// for the workgroup's first work-item (index 0) or its last (the workgroup's size less one).
Value *WorkItemLoops::startOfItem(Value *Start, Instruction *At, bool LastItem) {
  GlobalVariable *ItemVar = Item();
  return copyComputationBefore(Start, At, {}, [&](Instruction *I) -> Value * {
    const auto *L = dyn_cast<LoadInst>(I);
    const std::optional<uint64_t> Field = L ? itemFieldOffset(*L) : std::nullopt;
    if (!Field || *Field >= ThreadOffset + 12)
      return nullptr;
    if (!LastItem)
      return ConstantInt::get(I->getType(), 0);
    IRBuilder<> B(At);
    Value *Size = B.CreateLoad(B.getInt32Ty(), B.CreateConstInBoundsGEP1_32(
        B.getInt8Ty(), B.CreateThreadLocalAddress(ItemVar), BlockDimOffset + (*Field - ThreadOffset)));
    return B.CreateSub(Size, B.getInt32(1), "last.index");
  });
}

/// In a sweep's body (Clones) whose work-items' starts grow with x (each sweep reads the
/// workgroup's neighbouring elements, Start + Sweep * Stride for the first), each work-item's
/// prefetch of its next element (prefetchNextIteration) becomes a SweepPrefetchName call that
/// also names the workgroup's elements SweepsAhead sweeps on: hoistSweepPrefetches makes it one
/// prefetch per cache line before the region's x loop, which a prefetch per work-item kept
/// scalar (the vectoriser takes no call).
void WorkItemLoops::prefetchSweepsAhead(ArrayRef<BasicBlock *> Clones, Value *Start, Value *Stride,
                                        Value *Sweep) {
  SmallVector<IntrinsicInst *, 4> Prefetches;
  for (BasicBlock *C : Clones)
    for (Instruction &I : *C)
      if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::prefetch)
        Prefetches.push_back(II);
  for (IntrinsicInst *PF : Prefetches) {
    auto *G = dyn_cast<GetElementPtrInst>(PF->getArgOperand(0));
    if (!G || G->getNumIndices() != 1)
      continue;
    IRBuilder<> B(PF);
    Value *First = startOfItem(Start, PF, false), *Last = startOfItem(Start, PF, true);
    Type *Ty = First->getType();
    Value *Ahead = B.CreateAdd(
        First, B.CreateMul(B.CreateAdd(B.CreateZExtOrTrunc(Sweep, Ty), ConstantInt::get(Ty, SweepsAhead)),
                           copyComputationBefore(Stride, PF)));
    Value *Group = B.CreateGEP(G->getSourceElementType(), G->getPointerOperand(), Ahead, "sweep.ahead");
    Value *Count = B.CreateAdd(B.CreateZExtOrTrunc(B.CreateSub(Last, First), B.getInt64Ty()), B.getInt64(1));
    Value *Bytes = B.CreateBinaryIntrinsic(
        Intrinsic::umin, B.CreateMul(Count, B.getInt64(DL.getTypeAllocSize(G->getSourceElementType()))),
        B.getInt64(MostPrefetched));
    B.CreateCall(prefetchHelper(M, SweepPrefetchName), {PF->getArgOperand(0), Group, Bytes});
    PF->eraseFromParent();
  }
}

/// Before a region's loops (at the end of To), a prefetch per cache line for each sweep's
/// prefetch in its body (Clones) whose workgroup operands can be computed there: from constants,
/// arguments, values before the loops, the workgroup's fields, and the region's start value of
/// a uniform value kept across barriers (a load of the work-item's copy, Copies' second, in the
/// blocks every work-item runs first, before any store to it: the slot's value). The others
/// stay the work-item's own prefetch.
void WorkItemLoops::hoistSweepPrefetches(ArrayRef<BasicBlock *> Always, ArrayRef<BasicBlock *> Clones,
                                         BasicBlock *To, ArrayRef<std::pair<AllocaInst *, AllocaInst *>> Copies) {
  SmallVector<CallInst *, 4> Markers;
  for (BasicBlock *C : Clones)
    for (Instruction &I : *C)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (const Function *Callee = calledFunction(*CI); Callee && Callee->getName() == SweepPrefetchName)
          Markers.push_back(CI);
  if (Markers.empty())
    return;
  DenseMap<const Value *, AllocaInst *> SlotOf;  // a work-item's copy -> the workgroup's slot
  for (auto [Slot, Own] : Copies)
    SlotOf[Own] = Slot;
  DenseSet<const LoadInst *> StartValues;
  DenseSet<const Value *> Stored;
  for (BasicBlock *BB : Always)
    for (Instruction &I : *BB) {
      if (auto *S = dyn_cast<StoreInst>(&I); S && SlotOf.count(S->getPointerOperand()))
        Stored.insert(S->getPointerOperand());
      else if (auto *L = dyn_cast<LoadInst>(&I);
               L && L->isSimple() && SlotOf.count(L->getPointerOperand()) && !Stored.contains(L->getPointerOperand()))
        StartValues.insert(L);
    }
  BasicBlock *Entry = &F.getEntryBlock();
  Instruction *At = To->getTerminator();
  std::function<bool(Value *, unsigned)> computable = [&](Value *V, unsigned Depth) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() == Entry || I->getParent() == To)
      return true;
    if (Depth > MaxRecomputed)
      return false;
    if (auto *P = dyn_cast<PHINode>(I)) {
      Value *Same = P->hasConstantValue();
      return Same && computable(Same, Depth + 1);
    }
    if (auto *L = dyn_cast<LoadInst>(I)) {
      if (StartValues.contains(L))
        return true;
      if (!invariantLoad(*L))
        return false;
    } else if (auto *II = dyn_cast<IntrinsicInst>(I); II && II->getIntrinsicID() == Intrinsic::threadlocal_address) {
    } else if (!(isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<GetElementPtrInst>(I) || isa<CmpInst>(I) ||
                 isa<SelectInst>(I) || isa<IntrinsicInst>(I)) ||
               !isSafeToSpeculativelyExecute(I)) {
      return false;
    }
    return llvm::all_of(I->operands(), [&](const Use &Op) { return computable(Op.get(), Depth + 1); });
  };
  DenseMap<Value *, Value *> Copied;
  std::function<Value *(Value *)> copy = [&](Value *V) -> Value * {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() == Entry || I->getParent() == To)
      return V;
    if (Value *Done = Copied.lookup(V))
      return Done;
    Value *Made = nullptr;
    if (auto *P = dyn_cast<PHINode>(I)) {
      Made = copy(P->hasConstantValue());
    } else if (auto *L = dyn_cast<LoadInst>(I); L && StartValues.contains(L)) {
      Made = new LoadInst(L->getType(), SlotOf.lookup(L->getPointerOperand()), L->getName() + ".start",
                          At->getIterator());
    } else {
      Instruction *C = I->clone();
      for (unsigned K = 0; K < I->getNumOperands(); ++K)
        C->setOperand(K, copy(I->getOperand(K)));
      C->dropPoisonGeneratingAnnotations();  // speculated (as hoistUniformValues' moves)
      C->insertBefore(At->getIterator());
      Made = C;
    }
    Copied[V] = Made;
    return Made;
  };
  Function *Lines = prefetchHelper(M, PrefetchLinesName);
  for (CallInst *Marker : Markers) {
    Value *Group = Marker->getArgOperand(1), *Bytes = Marker->getArgOperand(2);
    if (computable(Group, 0) && computable(Bytes, 0)) {
      CallInst::Create(Lines, {copy(Group), copy(Bytes)}, "", At->getIterator());
    } else {
      IRBuilder<> B(Marker);
      emitPrefetch(B, Marker->getArgOperand(0));
    }
    Marker->eraseFromParent();
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

/// Whether L reads memory that no work-item changes while the workgroup runs: a field of
/// current_cpu_item other than the index (the workgroup's id and shape), or a field of a
/// parameter passed in memory (`byval`) that the function only reads — within its bounds, so
/// that the load may run where the work-item's code would not have reached it.
bool WorkItemLoops::invariantLoad(const LoadInst &L) const {
  if (!L.isSimple())
    return false;
  if (const std::optional<uint64_t> At = itemFieldOffset(L))
    return *At >= ThreadOffset + 12 && *At + DL.getTypeStoreSize(L.getType()) <= BlockDimOffset + 24;
  APInt Offset(DL.getIndexTypeSizeInBits(L.getPointerOperandType()), 0);
  const Value *Base = L.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
  const auto *Arg = dyn_cast<Argument>(Base);
  if (!Arg || !Arg->hasByValAttr() || Offset.isNegative() || !onlyLoadedFrom(Arg))
    return false;
  return Offset.getZExtValue() + DL.getTypeStoreSize(L.getType()) <=
         DL.getTypeAllocSize(Arg->getParamByValType());
}

/// Uniform values computed once per pass of a region, not by each work-item (issue 31, item 2;
/// as AdaptiveCpp's CBS and PoCL keep a work-group's uniform values out of their work-item
/// loops): each instruction of Always (the blocks of a region's loop body that every work-item
/// runs) — and of Others (the region's other blocks) a load or a division with what it is
/// computed from — computed only from constants,
/// arguments, what is already before To's end (the workgroup's shape, values moved before) and
/// memory no work-item changes (invariantLoad), and safe to run where the work-item's code would
/// not have run (no division by a value that may be 0), is moved to the end of To, which runs
/// before the region's loops. LLVM's LICM leaves most of them: a load of current_cpu_item's
/// fields may alias the per-work-item stores the loops make (states, values kept across
/// barriers), and grid-stride sweeps' bounds are computed under the loop's conditions.
/// Returns how many moved.
unsigned WorkItemLoops::hoistUniformValues(ArrayRef<BasicBlock *> Always, ArrayRef<BasicBlock *> Others,
                                           BasicBlock *To) {
  BasicBlock *Entry = &F.getEntryBlock();
  auto before = [&](const Value *V) {
    const auto *I = dyn_cast<Instruction>(V);
    return !I || I->getParent() == Entry || I->getParent() == To;
  };
  auto movable = [&](const Instruction &I) {
    if (isa<PHINode>(I) || I.isTerminator())
      return false;
    if (const auto *L = dyn_cast<LoadInst>(&I))
      return invariantLoad(*L);
    if (const auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
      return true;
    if (isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<GetElementPtrInst>(I) || isa<CmpInst>(I) ||
        isa<SelectInst>(I) || isa<FreezeInst>(I) || isa<IntrinsicInst>(I))
      return isSafeToSpeculativelyExecute(&I);
    return false;
  };
  unsigned Moved = 0;
  DenseSet<const Instruction *> Gone;  // merged into an identical value (no new instruction is made here)
  auto move = [&](Instruction &I) {
    // A speculated value may be poison where the work-item's code would not have used it:
    // flags that assumed the code's conditions go (as LICM drops them).
    I.dropPoisonGeneratingAnnotations();
    // The same value moved before (an unrolled loop's copies each load the same field): one
    // value, not one live across the loops per copy (rodinia-nw, region 5: 96 loads, 3 values).
    for (Instruction &J : *To)
      if (&J != To->getTerminator() && J.isIdenticalTo(&I)) {
        I.replaceAllUsesWith(&J);
        Gone.insert(&I);
        I.eraseFromParent();
        return;
      }
    I.moveBefore(To->getTerminator()->getIterator());
    ++Moved;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : Always)
      for (Instruction &I : make_early_inc_range(*BB))
        if (llvm::all_of(I.operands(), before) && movable(I)) {
          move(I);
          Changed = true;
        }
  }
  // The cost rule for the other blocks: a value that saves each work-item a load or a division
  // moves, with the arithmetic it is computed from (at most MaxRecomputed instructions, all of
  // the region); cheap arithmetic alone stays where few work-items may compute it.
  DenseSet<const BasicBlock *> InOthers(Others.begin(), Others.end());
  SmallVector<Instruction *, 32> Costly;
  for (BasicBlock *BB : Others)
    for (Instruction &I : *BB)
      if (isa<LoadInst>(I) || I.getOpcode() == Instruction::UDiv || I.getOpcode() == Instruction::SDiv ||
          I.getOpcode() == Instruction::URem || I.getOpcode() == Instruction::SRem)
        Costly.push_back(&I);
  for (Instruction *Root : Costly) {
    if (Gone.contains(Root))
      continue;
    Instruction &I = *Root;
    if (I.getParent() == To || !movable(I))
      continue;
    // The instructions to move, operands before their users.
    SmallVector<Instruction *, 8> Order;
    SmallPtrSet<Instruction *, 8> Seen;
    bool Fits = true;
    std::function<void(Instruction &)> collect = [&](Instruction &J) {
      if (!Fits || !Seen.insert(&J).second)
        return;
      if ((!InOthers.contains(J.getParent()) && !llvm::is_contained(Always, J.getParent())) || !movable(J) ||
          Order.size() >= MaxRecomputed) {
        Fits = false;
        return;
      }
      for (Value *Op : J.operands())
        if (auto *OpI = dyn_cast<Instruction>(Op); OpI && !before(OpI))
          collect(*OpI);
      Order.push_back(&J);
    };
    collect(I);
    if (!Fits)
      continue;
    for (Instruction *J : Order)
      move(*J);
  }
  return Moved;
}

} // namespace offload::compiler::workitems
