// compiler/cpu/PrepareWorkItems.cpp — before the split: index loads, shared-memory atomics,
// thread-local addresses.
#include "WorkItemLoopsImpl.h"

namespace offload::compiler::workitems {

/// Loads of current_cpu_item that cover the work-item's index other than as one 32-bit field
/// (the SLP vectoriser makes `load <2 x i32>` of thread.x and .y with AVX-512) become one
/// 32-bit load per word, put back together: useCounters replaces only those, and a vector
/// load left in a loop gave every work-item of the workgroup the first one's index.
std::string WorkItemLoops::scalarizeIndexLoads() {
  SmallVector<LoadInst *, 8> Loads;
  for (Instruction &I : instructions(F)) {
    auto *L = dyn_cast<LoadInst>(&I);
    if (!L)
      continue;
    APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
    const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
    const auto *Tls = dyn_cast<IntrinsicInst>(Base);
    if (!Tls || Tls->getIntrinsicID() != Intrinsic::threadlocal_address ||
        Tls->getArgOperand(0)->getName() != CurrentItemName)
      continue;
    const uint64_t At = Offset.getZExtValue(), Size = DL.getTypeStoreSize(L->getType());
    if (At >= ThreadOffset + 12 || At + Size <= ThreadOffset)
      continue;  // not the index
    if (L->getType()->isIntegerTy(32) && At % 4 == 0)
      continue;  // one field: useCounters' own
    Loads.push_back(L);
  }
  Type *I32 = Type::getInt32Ty(Ctx);
  for (LoadInst *L : Loads) {
    Type *Ty = L->getType();
    auto *Vec = dyn_cast<FixedVectorType>(Ty);
    const bool Words = Vec ? Vec->getElementType()->isIntegerTy(32)
                           : Ty->isIntegerTy() && Ty->getIntegerBitWidth() % 32 == 0;
    APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
    Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
    if (!Words || L->isVolatile() || L->isAtomic() || Offset.getZExtValue() % 4 != 0)
      return "it reads the work-item's index in a way work-item loops do not know (a load of " +
             std::to_string(DL.getTypeStoreSize(Ty)) + " bytes)";
    IRBuilder<> B(L);
    const unsigned N = unsigned(DL.getTypeStoreSize(Ty) / 4);
    Value *Result = PoisonValue::get(Ty);
    for (unsigned K = 0; K < N; ++K) {
      Value *Word = B.CreateLoad(I32, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base,
                                                                  Offset.getZExtValue() + 4 * K));
      if (Vec)
        Result = B.CreateInsertElement(Result, Word, B.getInt32(K));
      else
        Result = B.CreateOr(K == 0 ? B.CreateZExt(Word, Ty) : Result,
                            K == 0 ? Constant::getNullValue(Ty)
                                   : B.CreateShl(B.CreateZExt(Word, Ty), uint64_t(32) * K));
    }
    L->replaceAllUsesWith(Result);
    L->eraseFromParent();
  }
  return "";
}

/// Whether Ptr points into shared memory: a variable offset from a static shared<T>'s
/// storage or from the dynamic shared memory, both the host thread's own.
bool WorkItemLoops::isShared(const Value *Ptr) {
  for (;;) {
    if (const auto *G = dyn_cast<GEPOperator>(Ptr))
      Ptr = G->getPointerOperand();
    else if (const auto *C = dyn_cast<Operator>(Ptr); C && (C->getOpcode() == Instruction::BitCast ||
                                                          C->getOpcode() == Instruction::AddrSpaceCast))
      Ptr = C->getOperand(0);
    else
      break;
  }
  const auto *CB = dyn_cast<CallBase>(Ptr);
  const Function *Callee = CB ? calledFunction(*CB) : nullptr;
  if (!Callee)
    return false;
  if (Callee->getIntrinsicID() == Intrinsic::threadlocal_address) {
    const auto *G = dyn_cast<GlobalVariable>(CB->getArgOperand(0));
    return G && G->isThreadLocal() && G->getName().starts_with(SharedStoragePrefix);
  }
  return Callee->getName() == DynamicSharedName;
}

/// Atomics on shared memory need no atomicity on the CPU device: a workgroup's work-items run
/// on one host thread, and no other thread sees its shared memory (a thread_local). They
/// become plain loads and stores (LLVM's LowerAtomic), in an access group of their own that
/// markParallel does not mark parallel (work-items may update the same element: a histogram's
/// bins). Stronger orderings than relaxed order nothing that another thread could observe
/// through this memory.
void WorkItemLoops::lowerSharedAtomics() {
  SmallVector<Instruction *, 8> Atomics;
  for (Instruction &I : instructions(F)) {
    const Value *Ptr = nullptr;
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I); RMW && !RMW->isVolatile())
      Ptr = RMW->getPointerOperand();
    else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I); CX && !CX->isVolatile())
      Ptr = CX->getPointerOperand();
    else if (auto *L = dyn_cast<LoadInst>(&I); L && L->isAtomic() && !L->isVolatile())
      Ptr = L->getPointerOperand();
    else if (auto *S = dyn_cast<StoreInst>(&I); S && S->isAtomic() && !S->isVolatile())
      Ptr = S->getPointerOperand();
    if (Ptr && isShared(Ptr))
      Atomics.push_back(&I);
  }
  if (Atomics.empty())
    return;
  MDNode *Racy = MDNode::getDistinct(Ctx, {});
  for (Instruction *I : Atomics) {
    // The loads and stores LowerAtomic puts before I: those between I's predecessor and I.
    Instruction *Before = I->getPrevNode();
    BasicBlock *BB = I->getParent();
    Instruction *After = I->getNextNode();
    if (auto *L = dyn_cast<LoadInst>(I)) {
      L->setAtomic(AtomicOrdering::NotAtomic);
      L->setMetadata(LLVMContext::MD_access_group, Racy);
      continue;
    }
    if (auto *S = dyn_cast<StoreInst>(I)) {
      S->setAtomic(AtomicOrdering::NotAtomic);
      S->setMetadata(LLVMContext::MD_access_group, Racy);
      continue;
    }
    if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
      lowerAtomicRMWInst(RMW);
    else
      lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(I));
    for (auto It = Before ? std::next(Before->getIterator()) : BB->begin(); &*It != After; ++It)
      if (isa<LoadInst>(*It) || isa<StoreInst>(*It))
        It->setMetadata(LLVMContext::MD_access_group, Racy);
  }
}

/// Drops what does not survive the copy of stack objects into per-work-item arrays:
/// lifetime markers and stack save/restore (on allocas only), variable-location records.
void WorkItemLoops::tidy() {
  SmallVector<Instruction *, 16> Dead;
  for (Instruction &I : instructions(F)) {
    I.dropDbgRecords();
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::lifetime_start:
      case Intrinsic::lifetime_end:
      case Intrinsic::stackrestore:
      case Intrinsic::dbg_declare:
      case Intrinsic::dbg_value:
      case Intrinsic::dbg_assign:
        Dead.push_back(II);
        break;
      default:
        break;
      }
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
  Dead.clear();

  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::stacksave && II->use_empty())
        Dead.push_back(II);
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

static bool isCurrentItemAddress(const Value *V);

/// Thread-local addresses, and constant offsets from them, are computed where they are used:
/// never values that live across a barrier, and loads of the work-item's index stay
/// recognisable (useCounters).
void WorkItemLoops::copyThreadLocalAddressesToUses() {
  SmallVector<Instruction *, 16> Addresses;
  for (Instruction &I : instructions(F))
    if (isAddressOfThreadLocal(&I))
      Addresses.push_back(&I);
  for (Instruction *I : Addresses) {
    DenseMap<std::pair<PHINode *, BasicBlock *>, Instruction *> AtEnd;  // one per phi entry block
    for (Use &U : make_early_inc_range(I->uses())) {
      auto *User = cast<Instruction>(U.getUser());
      if (isAddressOfThreadLocal(User))
        continue;
      // The work-item's thread-local's address stored, merged or passed on: the runtime's
      // thread-local then holds the index too (it may be read through it). Not another
      // thread-local's (offload::shared's storage, whose address a select or a phi merges: a
      // new user's tiled stencil stored the index there for every work-item, 5x OpenMP's time).
      if (!isa<LoadInst>(User) && !(isa<StoreInst>(User) && U.getOperandNo() == 1) &&
          !isa<GetElementPtrInst>(User) && isCurrentItemAddress(I))
        IdsEscape = true;
      if (auto *P = dyn_cast<PHINode>(User)) {
        Instruction *&Copy = AtEnd[{P, P->getIncomingBlock(U)}];
        if (!Copy)
          Copy = copyAddressBefore(I, P->getIncomingBlock(U)->getTerminator());
        U.set(Copy);
        continue;
      }
      U.set(copyAddressBefore(I, User));
    }
  }
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (Instruction *&I : Addresses)
      if (I && I->use_empty()) {
        I->eraseFromParent();
        I = nullptr;
        Erased = true;
      }
  }
}

/// llvm.threadlocal.address, or a constant offset (GEP, cast) from one.
/// Whether V, an address of a thread-local (isAddressOfThreadLocal), is one in current_cpu_item.
static bool isCurrentItemAddress(const Value *V) {
  while (const auto *I = dyn_cast<Instruction>(V)) {
    if (const auto *II = dyn_cast<IntrinsicInst>(I))
      return II->getIntrinsicID() == Intrinsic::threadlocal_address &&
             II->getArgOperand(0)->getName() == CurrentItemName;
    if (!(isa<GetElementPtrInst>(I) || isa<CastInst>(I)))
      return true;  // (not expected: counted as the item's, as before)
    V = I->getOperand(0);
  }
  return true;
}

bool WorkItemLoops::isAddressOfThreadLocal(const Value *V) {
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    return II->getIntrinsicID() == Intrinsic::threadlocal_address;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !(isa<GetElementPtrInst>(I) || isa<CastInst>(I)) || !I->getType()->isPointerTy())
    return false;
  if (!isAddressOfThreadLocal(I->getOperand(0)))
    return false;
  return llvm::all_of(llvm::drop_begin(I->operands()), [](const Use &Op) { return isa<Constant>(Op); });
}

/// A copy of the address computation I, placed before At.
Instruction *WorkItemLoops::copyAddressBefore(Instruction *I, Instruction *At) {
  Instruction *Copy = I->clone();
  if (!isa<IntrinsicInst>(I))
    Copy->setOperand(0, copyAddressBefore(cast<Instruction>(I->getOperand(0)), At));
  Copy->insertBefore(At->getIterator());
  return Copy;
}

} // namespace offload::compiler::workitems
