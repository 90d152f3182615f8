// compiler/cpu/BuildLoops.cpp — each region of the work-item function as a loop over the work-
// items.
#include "WorkItemLoopsImpl.h"

namespace offload::compiler::workitems {

/// The blocks of the region that starts at Head: reachable without passing a barrier.
SmallVector<BasicBlock *, 16> WorkItemLoops::regionBlocks(BasicBlock *Head) const {
  SmallVector<BasicBlock *, 16> Blocks;
  DenseSet<BasicBlock *> Seen;
  SmallVector<BasicBlock *, 16> Work = {Head};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (isBarrierBlock(BB) || !Seen.insert(BB).second)
      continue;
    Blocks.push_back(BB);
    for (BasicBlock *S : successors(BB))
      Work.push_back(S);
  }
  return Blocks;
}

/// Whether the region's code may read the work-item's index other than by loading it from
/// current_cpu_item itself (such loads become the loop's counters): a call that is not an
/// intrinsic or a C library function and may read memory (a function that reads none, e.g.
/// `[[gnu::const]]` offload::detail::cpu_dynamic_shared, cannot read the index), which the
/// runtime's thread-local must then serve.
bool WorkItemLoops::callsThatMayReadIds(ArrayRef<BasicBlock *> Blocks) const {
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      if (const auto *CB = dyn_cast<CallBase>(&I); CB && !CB->isInlineAsm()) {
        const Function *Callee = calledFunction(*CB);
        LibFunc LF;
        if (Callee && (Callee->getName() == WarpPresentName || Callee->getName() == WarpBanksName ||
                       Callee->getName() == EveryLaneName || Callee->getName() == StatesName ||
                       Callee->getName() == WarpCacheName || Callee->getName() == SweepPrefetchName ||
                       Callee->getName() == PrefetchLinesName))
          continue;  // the warp exchanges' and the sweeps' prefetches (they read no index)
        if (CB->doesNotAccessMemory())
          continue;
        if (!Callee || !(Callee->isIntrinsic() || TLI.getLibFunc(*Callee, LF)))
          return true;
      }
  return false;
}

/// Loads of current_cpu_item.thread.{x,y,z} in Blocks become X, Y, Z.
void WorkItemLoops::useCounters(ArrayRef<BasicBlock *> Blocks, const GlobalVariable *Item, Value *X, Value *Y,
                 Value *Z) const {
  SmallVector<LoadInst *, 8> Loads;
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      if (auto *L = dyn_cast<LoadInst>(&I); L && !L->isVolatile() && L->getType() == X->getType())
        Loads.push_back(L);
  for (LoadInst *L : Loads) {
    APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
    const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
    const auto *Tls = dyn_cast<IntrinsicInst>(Base);
    if (!Tls || Tls->getIntrinsicID() != Intrinsic::threadlocal_address ||
        Tls->getArgOperand(0) != Item || Offset.getZExtValue() >= ThreadOffset + 12)
      continue;
    Value *Counter[] = {X, Y, Z};
    L->replaceAllUsesWith(Counter[(Offset.getZExtValue() - ThreadOffset) / 4]);
    L->eraseFromParent();
  }
}

/// Work-items between two barriers are independent (a GPU runs them in any order; a race
/// between them is the kernel's bug): the x loop's iterations are marked parallel, as PoCL's
/// work-item loops, so that the vectoriser needs no run-time checks between their accesses.
void WorkItemLoops::markParallel(ArrayRef<BasicBlock *> Blocks, Instruction *Latch) const {
  MDNode *Group = MDNode::getDistinct(Ctx, {});
  bool Any = false;
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB) {
      const bool Plain = (isa<LoadInst>(I) && cast<LoadInst>(I).isSimple()) ||
                         (isa<StoreInst>(I) && cast<StoreInst>(I).isSimple());
      if (!Plain || I.getMetadata(LLVMContext::MD_access_group) ||
          LastItemWins.contains(getLoadStorePointerOperand(&I)))
        continue;
      I.setMetadata(LLVMContext::MD_access_group, Group);
      Any = true;
    }
  if (!Any)
    return;
  MDNode *Parallel = MDNode::get(Ctx, {MDString::get(Ctx, "llvm.loop.parallel_accesses"), Group});
  MDNode *Loop = MDNode::getDistinct(Ctx, {nullptr, Parallel});
  Loop->replaceOperandWith(0, Loop);
  Latch->setMetadata(LLVMContext::MD_loop, Loop);
}

/// The loops. Without barriers: one region, every stack object kept as it is. With barriers,
/// each region after the first has two versions: for every work-item (none has ended), and
/// for the work-items waiting at its barrier (some ended) — the first is the one that
/// vectorises; the runtime says which (__offload_cpu_next_region).
void WorkItemLoops::buildLoops(bool Barriers) {
  SmallVector<BasicBlock *, 32> Original;
  for (BasicBlock &BB : F)
    Original.push_back(&BB);
  SmallVector<AllocaInst *, 16> Allocas;
  if (Barriers)
    for (Instruction &I : F.getEntryBlock())
      if (auto *A = dyn_cast<AllocaInst>(&I); A && !UniformSlots.contains(A))
        Allocas.push_back(A);
  SmallVector<BasicBlock *, 8> Heads = {&F.getEntryBlock()};
  for (BasicBlock *B : BarrierBlocks)
    Heads.push_back(B->getSingleSuccessor());

  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx), *I8 = Type::getInt8Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);

  // Stack objects are not cloned with the first block: each becomes an array (with barriers)
  // or stays one object of the workgroup function (without).
  SmallVector<AllocaInst *, 16> Kept;
  for (Instruction &I : F.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I); A && A->isStaticAlloca())
      Kept.push_back(A);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "wi.entry", &F, &F.getEntryBlock());
  for (AllocaInst *A : Kept)
    A->moveBefore(*Entry, Entry->end());
  IRBuilder<> B(Entry);
  GlobalVariable *Item = this->Item();
  Value *Tls = B.CreateThreadLocalAddress(Item);
  auto field = [&](unsigned Offset) { return B.CreateConstInBoundsGEP1_32(I8, Tls, Offset); };
  Value *Bx = B.CreateLoad(I32, field(BlockDimOffset), "block.x");
  Value *By = B.CreateLoad(I32, field(BlockDimOffset + 4), "block.y");
  Value *Bz = B.CreateLoad(I32, field(BlockDimOffset + 8), "block.z");
  Value *Count = B.CreateMul(B.CreateMul(Bx, By), Bz, "items");
  Value *Count64 = B.CreateZExt(Count, I64);

  // One scratch buffer for the per-work-item arrays and the states.
  Value *Bytes = B.getInt64(0);
  // Each array starts at a multiple of its objects' alignment (at least a cache line: no two
  // arrays share one); the runtime's buffer is ScratchAlign-aligned (checkCalls refuses more).
  auto reserve = [&](uint64_t Stride, uint64_t Extra = 0, uint64_t Align = 64) {
    if (Align > 64)
      Bytes = B.CreateAnd(B.CreateAdd(Bytes, B.getInt64(Align - 1)), B.getInt64(~(Align - 1)));
    Value *Offset = Bytes;
    Value *End = B.CreateAdd(Bytes, B.CreateAdd(B.CreateMul(Count64, B.getInt64(Stride)),
                                                B.getInt64(Extra)));
    Bytes = B.CreateAnd(B.CreateAdd(End, B.getInt64(63)), B.getInt64(~uint64_t(63)));
    return Offset;
  };
  SmallVector<uint64_t, 16> Strides;
  SmallVector<Value *, 16> Arrays;
  Value *States = nullptr, *Pending = nullptr;
  FunctionCallee NextRegion;
  if (Barriers) {
    SmallVector<Value *, 16> Offsets;
    for (AllocaInst *A : Allocas) {
      const uint64_t Size = A->getAllocationSize(DL)->getFixedValue();
      Strides.push_back(alignTo(std::max<uint64_t>(Size, 1), A->getAlign()));
      Offsets.push_back(reserve(Strides.back(), 0, A->getAlign().value()));
    }
    // In lockstep no work-item records its state (nor the runtime its rounds).
    Value *StateAt = Lockstep ? nullptr : reserve(4);
    Value *PendingAt = Lockstep ? nullptr : reserve(4, 8);  // the runtime's: count words and two of its own
    Function *BanksFn = M.getFunction(WarpBanksName);
    const bool Warps = BanksFn && !BanksFn->use_empty();
    Value *BanksAt = Warps ? reserve(12) : nullptr;  // two banks of words, the counts
    FunctionCallee Scratch = M.getOrInsertFunction(ScratchName, Ptr, I64);
    if (auto *SF = dyn_cast<Function>(Scratch.getCallee()))
      SF->setReturnDoesNotAlias();  // may throw (a buffer too large): not nounwind
    Value *Base = B.CreateCall(Scratch, {Bytes}, "scratch");
    for (Value *Offset : Offsets)
      Arrays.push_back(B.CreateInBoundsGEP(I8, Base, Offset));
    if (!Lockstep) {
      States = B.CreateInBoundsGEP(I8, Base, StateAt, "states");
      Pending = B.CreateInBoundsGEP(I8, Base, PendingAt, "pending");
      B.CreateStore(B.getInt32(0), B.CreateInBoundsGEP(I32, Pending, Count64));  // no round yet
    }
    if (Warps && !Lockstep)
      WarpCache = new AllocaInst(ArrayType::get(I64, 2), DL.getAllocaAddrSpace(), nullptr,
                                 "warp.cache", Entry->begin());
    if (Warps) {  // each work-item's count of exchanges starts at 0
      WarpBanks = B.CreateInBoundsGEP(I8, Base, BanksAt, "warp.banks");
      B.CreateMemSet(B.CreateInBoundsGEP(I32, WarpBanks, B.CreateMul(Count64, B.getInt64(2))),
                     B.getInt8(0), B.CreateMul(Count64, B.getInt64(4)), MaybeAlign(4));
    }
    NextRegion = M.getOrInsertFunction(NextRegionName, I32, Ptr, Ptr, I32, I64);
    if (auto *NF = dyn_cast<Function>(NextRegion.getCallee())) {
      NF->setDoesNotThrow();
      NF->setOnlyAccessesArgMemory();
    }
  }
  BasicBlock *End = BasicBlock::Create(Ctx, "wi.end", &F);
  ReturnInst::Create(Ctx, End);
  // In lockstep (Lockstep.cpp) every work-item leaves a region by the same exit: the last one
  // to leave says which (ExitTaken), and no runtime call chooses the next region.
  BasicBlock *Next = Barriers && !Lockstep ? BasicBlock::Create(Ctx, "wi.next", &F) : nullptr;
  AllocaInst *ExitTaken = nullptr;
  if (Barriers && Lockstep)
    ExitTaken = new AllocaInst(I32, DL.getAllocaAddrSpace(), nullptr, "exit.taken", Entry->begin());
  if (ExitTaken)
    LastItemWins.insert(ExitTaken);

  // Starts[R][0]: every work-item; Starts[R][1]: those waiting at region R's barrier.
  std::vector<std::array<BasicBlock *, 2>> Starts(Heads.size(), {nullptr, nullptr});
  for (size_t R = 0; R < Heads.size(); ++R) {
    Starts[R][0] = BasicBlock::Create(Ctx, "region" + Twine(R), &F);
    if (R > 0 && !Lockstep)
      Starts[R][1] = BasicBlock::Create(Ctx, "region" + Twine(R) + ".some", &F);
  }
  B.CreateBr(Starts[0][0]);

  auto emitRegion = [&](size_t R, bool OnlyWaiting) {
    const std::string Name = "region" + std::to_string(R) + (OnlyWaiting ? ".some" : "");
    auto block = [&](const char *Suffix) {
      return BasicBlock::Create(Ctx, Name + Suffix, &F);
    };
    BasicBlock *ZLoop = block(".z"), *YLoop = block(".y"), *XLoop = block(".x");
    BasicBlock *Body = block(".body"), *XNext = block(".xnext"), *YNext = block(".ynext");
    BasicBlock *ZNext = block(".znext"), *Dispatch = block(".done");
    IRBuilder<> Start(Starts[R][OnlyWaiting]);
    if (WarpCache)  // a new pass: no warp's answer kept (WarpExchanges.cpp)
      Start.CreateStore(Start.getInt64(NoWarpCached), WarpCache);
    Start.CreateBr(ZLoop);
    // z, y, x nested, x innermost: the loop the vectoriser sees runs along x.
    B.SetInsertPoint(ZLoop);
    PHINode *Z = B.CreatePHI(I32, 2, "z");
    Z->addIncoming(B.getInt32(0), Starts[R][OnlyWaiting]);
    B.CreateBr(YLoop);
    B.SetInsertPoint(YLoop);
    PHINode *Y = B.CreatePHI(I32, 2, "y");
    Y->addIncoming(B.getInt32(0), ZLoop);
    Value *Row = B.CreateNUWMul(B.CreateNUWAdd(B.CreateNUWMul(Z, By), Y), Bx, "row");
    B.CreateBr(XLoop);
    B.SetInsertPoint(XLoop);
    PHINode *X = B.CreatePHI(I32, 2, "x");
    X->addIncoming(B.getInt32(0), YLoop);
    Value *Index64 = B.CreateZExt(B.CreateNUWAdd(Row, X, "item"), I64);
    Value *StateOf = States ? B.CreateInBoundsGEP(I32, States, Index64, "state") : nullptr;
    if (OnlyWaiting)  // the work-items the runtime releases from this region's barrier now
      B.CreateCondBr(B.CreateICmpEQ(B.CreateLoad(I32, isVirtual(R) ? StateOf  // all that wait
                                                          : B.CreateInBoundsGEP(I32, Pending, Index64)),
                                    B.getInt32(R)),
                     Body, XNext);
    else
      B.CreateBr(Body);

    SmallVector<BasicBlock *, 16> Blocks = regionBlocks(Heads[R]);
    B.SetInsertPoint(Body);
    if (IdsEscape || callsThatMayReadIds(Blocks)) {
      B.CreateStore(X, field(ThreadOffset));
      B.CreateStore(Y, field(ThreadOffset + 4));
      B.CreateStore(Z, field(ThreadOffset + 8));
    }
    ValueToValueMapTy VMap;
    for (size_t A = 0; A < Allocas.size(); ++A)
      VMap[Allocas[A]] = B.CreateInBoundsGEP(
          I8, Arrays[A], B.CreateNUWMul(Index64, B.getInt64(Strides[A])), Allocas[A]->getName());

    // The region's blocks, cloned; edges to a barrier record it and go to the next work-item.
    DenseSet<BasicBlock *> InRegion(Blocks.begin(), Blocks.end());
    std::map<uint32_t, BasicBlock *> Exits;  // not DenseMap: ~0u is its empty key
    auto exitTo = [&](uint32_t State) {
      BasicBlock *&Exit = Exits[State];
      if (!Exit) {
        Exit = BasicBlock::Create(Ctx, Name + ".stop", &F, XNext);
        IRBuilder<> E(Exit);
        if (ExitTaken)
          E.CreateStore(E.getInt32(State), ExitTaken);
        else if (Barriers)
          E.CreateStore(E.getInt32(State), StateOf);
        E.CreateBr(XNext);
      }
      return Exit;
    };
    SmallVector<BasicBlock *, 16> Clones;
    for (BasicBlock *BB : Blocks) {
      BasicBlock *C = CloneBasicBlock(BB, VMap, "." + Name, &F);
      C->moveBefore(XNext);
      VMap[BB] = C;
      Clones.push_back(C);
    }
    for (BasicBlock *C : Clones) {
      Instruction *T = C->getTerminator();
      if (isa<ReturnInst>(T)) {
        BranchInst::Create(exitTo(Ended), T->getIterator());
        T->eraseFromParent();
      } else {
        for (unsigned S = 0; S < T->getNumSuccessors(); ++S)
          if (BasicBlock *Succ = T->getSuccessor(S); isBarrierBlock(Succ))
            T->setSuccessor(S, exitTo(1 + (llvm::find(BarrierBlocks, Succ) - BarrierBlocks.begin())));
      }
      for (PHINode &Phi : C->phis())
        for (int In = int(Phi.getNumIncomingValues()) - 1; In >= 0; --In)
          if (!InRegion.contains(Phi.getIncomingBlock(In)))
            Phi.removeIncomingValue(In, /*DeletePHIIfEmpty=*/false);
    }
    for (BasicBlock *C : Clones)
      for (Instruction &I : *C)
        RemapInstruction(&I, VMap, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    useCounters(Clones, Item, X, Y, Z);
    SmallVector<BasicBlock *, 8> Always;  // the region's first blocks, which every work-item runs
    {
      // Cheap arithmetic only from the blocks every work-item runs: the region's first block
      // and those that follow it unconditionally. A value of a branch few work-items take (nw's
      // tile corner) is computed by those alone; moved before the loops it cost every pass of
      // the region, and kept hundreds of values live across the loops (rodinia-nw 134 -> 162 ms
      // on a Xeon). From the other blocks, loads and divisions (hoistUniformValues' cost rule).
      DenseSet<BasicBlock *> InClones(Clones.begin(), Clones.end());
      for (BasicBlock *BB = cast<BasicBlock>(VMap[Heads[R]]); BB && InClones.contains(BB) &&
                                                               !llvm::is_contained(Always, BB);) {
        Always.push_back(BB);
        BasicBlock *Next = BB->getSingleSuccessor();
        BB = Next && Next->getSinglePredecessor() == BB ? Next : nullptr;
      }
      SmallVector<BasicBlock *, 16> Others;
      for (BasicBlock *C : Clones)
        if (!llvm::is_contained(Always, C))
          Others.push_back(C);
      hoistUniformValues(Always, Others, Starts[R][OnlyWaiting]);
    }
    // Uniform values kept across barriers (one slot each for the workgroup): each work-item
    // starts from the value the region started with and works on a copy of its own; the last
    // work-item's copy (the same as every other's) is the slot's value after the region.
    SmallVector<std::pair<AllocaInst *, AllocaInst *>, 4> Copies;
    for (AllocaInst *Slot : UniformSlots) {
      const bool Used = llvm::any_of(Slot->users(), [&](const User *U) {
        const auto *I = dyn_cast<Instruction>(U);
        return I && llvm::is_contained(Clones, I->getParent());
      });
      if (!Used)
        continue;
      auto *Own = new AllocaInst(Slot->getAllocatedType(), DL.getAllocaAddrSpace(), nullptr,
                                 Slot->getName() + ".item", Entry->begin());
      LastItemWins.insert(Own);
      for (Use &U : make_early_inc_range(Slot->uses()))
        if (auto *I = dyn_cast<Instruction>(U.getUser()); I && llvm::is_contained(Clones, I->getParent()))
          U.set(Own);
      IRBuilder<> S(Starts[R][OnlyWaiting]->getTerminator());
      S.CreateStore(S.CreateLoad(Slot->getAllocatedType(), Slot), Own);
      Copies.push_back({Slot, Own});
    }
    if (!Copies.empty()) {
      IRBuilder<> W(Body, Body->begin());
      for (auto [Slot, Own] : Copies)  // the region's start value (the slot is written after it)
        W.CreateStore(W.CreateLoad(Slot->getAllocatedType(), Slot), Own);
    }
    hoistSweepPrefetches(Always, Clones, Starts[R][OnlyWaiting], Copies);
    replaceCalls(Clones, EveryLaneName, ConstantInt::getBool(Ctx, !OnlyWaiting));
    B.SetInsertPoint(Body);
    B.CreateBr(cast<BasicBlock>(VMap[Heads[R]]));

    // Next work-item; after the last, the region where the work-items wait (or the end).
    B.SetInsertPoint(XNext);
    Value *X1 = B.CreateNUWAdd(X, B.getInt32(1));
    X->addIncoming(X1, XNext);
    Instruction *Latch = B.CreateCondBr(B.CreateICmpULT(X1, Bx), XLoop, YNext);
    SmallVector<BasicBlock *, 16> LoopBlocks(Clones.begin(), Clones.end());
    LoopBlocks.append({XLoop, Body});
    for (auto &[State, Exit] : Exits)
      LoopBlocks.push_back(Exit);
    markParallel(LoopBlocks, Latch);
    B.SetInsertPoint(YNext);
    Value *Y1 = B.CreateNUWAdd(Y, B.getInt32(1));
    Y->addIncoming(Y1, YNext);
    B.CreateCondBr(B.CreateICmpULT(Y1, By), YLoop, ZNext);
    B.SetInsertPoint(ZNext);
    Value *Z1 = B.CreateNUWAdd(Z, B.getInt32(1));
    Z->addIncoming(Z1, ZNext);
    B.CreateCondBr(B.CreateICmpULT(Z1, Bz), ZLoop, Dispatch);

    // One atomic per region for the work-items' atomics on one address (after markParallel:
    // the accumulator is a reduction, not a parallel access).
    auto Uniform = [&](const Value *V) {
      unsigned Budget = MaxRecomputed;
      return recomputable(V, Budget);  // the index is the loops' phis now: not recomputable
    };
    B.SetInsertPoint(combineUniformAtomics(Clones, Starts[R][OnlyWaiting], Dispatch, Uniform));
    for (auto [Slot, Own] : Copies)
      B.CreateStore(B.CreateLoad(Own->getAllocatedType(), Own), Slot);
    // Every work-item of the region stops at the same place (one barrier, or the end) when
    // it has one exit: then all of them run that barrier's region next (its version for
    // every work-item), or the workgroup is done — without recording each one's state or
    // asking the runtime. Not from a version for some work-items: others wait elsewhere.
    if (Barriers && !OnlyWaiting && Exits.size() == 1) {
      auto [State, Exit] = *Exits.begin();
      cast<StoreInst>(&Exit->front())->eraseFromParent();
      trimToTestedRange({X, Y, Z, YLoop, YNext, Body, cast<BasicBlock>(VMap[Heads[R]]),
                         cast<BranchInst>(Latch), Bx}, Exit, Uniform);
      B.CreateBr(State == Ended ? End : Starts[State][0]);
      return;
    }
    if (ExitTaken) {  // several exits (one is handled above): the last work-item's
      SwitchInst *S = B.CreateSwitch(B.CreateLoad(I32, ExitTaken), End, Exits.size());
      for (auto &[State, Exit] : Exits)
        if (State != Ended)
          S->addCase(B.getInt32(State), Starts[State][0]);
      return;
    }
    B.CreateBr(Barriers ? Next : End);
  };
  // One dispatch for all regions (a switch per region made the code quadratic in barriers):
  // 2R releases every work-item at region R's barrier; 2R + 1 only some (others ended, or
  // wait at another barrier: released in turn, as NVIDIA's bar.sync counts any barrier).
  if (Next) {
    B.SetInsertPoint(Next);
    uint64_t VirtualMask = 0;  // bit R - 1: region R starts at a virtual barrier
    for (size_t R = 1; R < Heads.size(); ++R)
      if (isVirtual(R))
        VirtualMask |= uint64_t(1) << (R - 1);
    Value *To = B.CreateCall(NextRegion, {States, Pending, Count, B.getInt64(VirtualMask)}, "next");
    SwitchInst *S = B.CreateSwitch(To, End, 2 * Heads.size());
    for (size_t R = 1; R < Heads.size(); ++R) {
      S->addCase(B.getInt32(2 * R), Starts[R][0]);
      S->addCase(B.getInt32(2 * R + 1), Starts[R][1]);
    }
  }
  for (size_t R = 0; R < Heads.size(); ++R) {
    emitRegion(R, false);
    if (R > 0 && !Lockstep)
      emitRegion(R, true);
  }

  // The original blocks go; the clones no longer refer to them.
  for (BasicBlock *BB : Original)
    BB->dropAllReferences();
  for (BasicBlock *BB : Original)
    BB->eraseFromParent();
  for (AllocaInst *A : Allocas)
    A->eraseFromParent();
  if (WarpBanks && Lockstep) {
    // Every lane takes part in each exchange: the branches that would ask the runtime which
    // lanes did (reading the states, which lockstep has not) go, with the blocks they reach.
    for (BasicBlock &BB : F)
      ConstantFoldTerminator(&BB);
    removeUnreachableBlocks(F);
  }
  if (WarpBanks) {
    SmallVector<BasicBlock *, 32> All;
    for (BasicBlock &BB : F)
      All.push_back(&BB);
    replaceCalls(All, WarpBanksName, WarpBanks);
    replaceCalls(All, StatesName, States);
    replaceCalls(All, WarpCacheName,
                 WarpCache ? static_cast<Value *>(WarpCache) : PoisonValue::get(PointerType::getUnqual(Ctx)));
  }
}

/// Calls of the placeholder Name (WarpExchanges.h) in Blocks become With.
void WorkItemLoops::replaceCalls(ArrayRef<BasicBlock *> Blocks, StringRef Name, Value *With) {
  SmallVector<CallInst *, 8> Calls;
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      if (auto *C = dyn_cast<CallInst>(&I); C && C->getCalledFunction() && C->getCalledFunction()->getName() == Name)
        Calls.push_back(C);
  for (CallInst *C : Calls) {
    C->replaceAllUsesWith(With);
    C->eraseFromParent();
  }
}

} // namespace offload::compiler::workitems
