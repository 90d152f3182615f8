// compiler/CpuWorkItemLoops.cpp — see CpuWorkItemLoops.h.
#include "CpuWorkItemLoops.h"
#include "CpuRegionLoops.h"
#include "CpuWarpExchanges.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <array>
#include <deque>
#include <map>
#include <set>

using namespace llvm;

namespace offload::compiler {
namespace {

// Names from the headers (offload/workgroup.hpp, offload/reduce.hpp, offload/device.hpp,
// offload/detail/cpu_entry.hpp) and the runtime (runtime/cpu_device.cpp).
constexpr StringRef BarrierName = "_ZN7offload6detail11cpu_barrierEv";
constexpr StringRef WarpExchangePrefix = "_ZN7offload6detail17cpu_warp_exchange";
constexpr StringRef WorkItemsPrefix = "_ZN7offload6detail14cpu_work_itemsI";
constexpr StringRef CpuEntryPrefix = "__offload_cpu_entry";
constexpr StringRef CurrentItemName = "_ZN7offload6detail16current_cpu_itemE";
constexpr StringRef ScratchName = "__offload_cpu_workgroup_scratch";
// offload::shared<T>'s storage (a static thread_local of offload::shared<T, Tag>), and the
// host thread's dynamic shared memory (offload/workgroup.hpp).
constexpr StringRef SharedStoragePrefix = "_ZZN7offload6sharedI";
constexpr StringRef DynamicSharedName = "_ZN7offload6detail18cpu_dynamic_sharedEv";
constexpr StringRef NextRegionName = "__offload_cpu_next_region";
constexpr StringRef RunFibersName = "__offload_cpu_run_fibers";
/// Named metadata: functions whose CPU bitcode was reduced to a declaration because they reach
/// no barrier (CpuImage.cpp) — known at the link not to reach one.
constexpr StringRef NoBarriersName = "offload.no_barriers";
// offload::detail::cpu_item: dim3 thread, block, block_dim, grid_dim (static_asserts in
// offload/detail/cpu_entry.hpp hold the header to these offsets).
constexpr unsigned ThreadOffset = 0, BlockDimOffset = 24;
/// The most instructions a value live across a barrier is recomputed from at each use.
constexpr unsigned MaxRecomputed = 24;
/// The alignment of __offload_cpu_workgroup_scratch's buffer (runtime/cpu_device.cpp): the
/// most a local kept per work-item may ask (`alignas(4096)`; more keeps the fibers).
constexpr uint64_t ScratchAlign = 4096;
// The state a work-item that ended records (others record their next region's number).
constexpr uint32_t Ended = ~0u;
// More barriers than this (after inlining) keep the fibers: the loops' code and compile time
// grow with the regions.
constexpr unsigned MaxBarriers = 64;

std::string demangled(StringRef Mangled) { return llvm::demangle(Mangled.str()); }

/// The readable name of the kernel whose CPU entry is `Entry` ("dot<double>").
std::string kernelName(StringRef Entry) {
  const std::string Mangled = Entry.drop_front(CpuEntryPrefix.size()).str();
  ItaniumPartialDemangler D;
  if (!D.partialDemangle(Mangled.c_str()))
    if (char *Name = D.getFunctionName(nullptr, nullptr)) {
      std::string S = Name;
      std::free(Name);
      return S;
    }
  return demangled(Mangled);
}

bool isBarrier(const Function &F) { return F.getName() == BarrierName; }
bool isWarpOperation(const Function &F) { return F.getName().starts_with(WarpExchangePrefix); }

/// A declaration that cannot reach a barrier: LLVM's intrinsics, the C and C++ libraries, the
/// offload runtime's other entry points.
bool cannotMeet(const Function &F, const TargetLibraryInfo &TLI) {
  if (isBarrier(F) || isWarpOperation(F))
    return false;
  if (const NamedMDNode *Known = F.getParent()->getNamedMetadata(NoBarriersName))
    for (const MDNode *N : Known->operands())
      if (N->getNumOperands() == 1)
        if (const auto *Name = dyn_cast<MDString>(N->getOperand(0)); Name && Name->getString() == F.getName())
          return true;
  LibFunc LF;
  if (F.isIntrinsic() || TLI.getLibFunc(F, LF))
    return true;
  StringRef N = F.getName();
  // C's rounding to integers, which LLVM's library table lacks (std::lround sent a barrier
  // kernel to fibers: 620 against 160-200 ms).
  for (StringRef Math : {"lround", "lroundf", "lroundl", "llround", "llroundf", "llroundl", "lrint",
                         "lrintf", "lrintl", "llrint", "llrintf", "llrintl"})
    if (N == Math)
      return true;
  for (StringRef Prefix : {"_ZN7offload", "__offload", "__cxa_", "__assert", "_ZSt", "_ZNSt",
                           "_ZNKSt", "_ZN9__gnu_cxx", "_Unwind", "__gxx_", "__cxx"})
    if (N.starts_with(Prefix))
      return true;
  return false;
}

const Function *calledFunction(const CallBase &CB) {
  return dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
}

/// One barrier kernel's work-item function, turned into work-item loops.
class WorkItemLoops {
public:
  WorkItemLoops(Function &F, const DenseSet<const Function *> &Reach, const TargetLibraryInfo &TLI)
      : F(F), M(*F.getParent()), Ctx(F.getContext()), DL(M.getDataLayout()), Reach(Reach), TLI(TLI) {}

  bool Split = false;  ///< after run(): F reached barriers (several regions)

  /// Transforms F; on failure returns why (F is then broken: the caller drops it).
  std::string run() {
    if (std::string Why = inlineWhatMeets(); !Why.empty())
      return Why;
    // Without barriers, grid-stride loops stay as they are: interleaving them as virtual
    // regions (as with barriers) made the corpus's atomic-reduction slower (33 -> 41 ms).
    // Warp operations split the loops as barriers do (CpuWarpExchanges.h).
    const bool Barriers = Split = callsAny(isBarrier) || callsAny(isWarpOperation);
    if (std::string Why = checkCalls(Barriers); !Why.empty())
      return Why;
    if (std::string Why = scalarizeIndexLoads(); !Why.empty())
      return Why;
    lowerSharedAtomics();
    copyThreadLocalAddressesToUses();
    if (Barriers) {
      unsigned Count = 0;
      for (Instruction &I : instructions(F))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (const Function *Callee = calledFunction(*CB); Callee && (isBarrier(*Callee) || isWarpOperation(*Callee)))
            ++Count;
      if (Count > MaxBarriers)
        return "it has " + std::to_string(Count) + " barriers and warp operations after inlining "
               "(work-item loops split at most " + std::to_string(MaxBarriers) +
               ": each region is a copy of code)";
      tidy();
      addVirtualBarriers(MaxBarriers - Count);
      // After the grid-stride loops' virtual barriers: the runtime runs the lowest-numbered
      // virtual region first, so the lanes still in a loop (a row 784 long: lanes 0-15 go round
      // once more) reach the warp's exchange before it runs for those that left the loop.
      if (std::string Why = lowerWarpExchanges(F, WarpExchangePrefix, {Item(), ThreadOffset, BlockDimOffset},
                                               VirtualBlocks);
          !Why.empty())
        return Why;
      splitAtBarriers();
      demoteValuesLiveAcrossBarriers();
    }
    buildLoops(Barriers);
    F.removeFnAttr(Attribute::NoInline);
    std::string Problems;
    raw_string_ostream OS(Problems);
    if (verifyFunction(F, &OS)) {
      if (getenv("OFFLOAD_CXX_DEBUG_LOOPS"))
        F.print(errs());
      return "internal error in the transformation: " + Problems;
    }
    return "";
  }

private:
  Function &F;
  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  const DenseSet<const Function *> &Reach;
  const TargetLibraryInfo &TLI;
  SmallVector<BasicBlock *, 8> BarrierBlocks;  ///< each holds one barrier call and a branch
  /// Virtual barriers (addVirtualBarriers): blocks on the back edges of grid-stride loops, which
  /// splitAtBarriers puts after the real ones in BarrierBlocks. Not synchronisation points.
  SmallVector<BasicBlock *, 4> VirtualBlocks;
  bool IdsEscape = false;  ///< a thread-local's address escapes: keep current_cpu_item current
  Value *WarpBanks = nullptr;  ///< buildLoops: the warp exchanges' memory (CpuWarpExchanges.h)

  std::string inlineWhatMeets() {
    for (unsigned Inlined = 0;;) {
      SmallVector<CallBase *, 8> Calls;
      for (Instruction &I : instructions(F))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (const Function *Callee = calledFunction(*CB))
            if (!Callee->isDeclaration() && Reach.contains(Callee))
              Calls.push_back(CB);
      if (Calls.empty())
        return "";
      for (CallBase *CB : Calls) {
        const std::string Callee = demangled(calledFunction(*CB)->getName());
        if (++Inlined > 2000)
          return "it reaches a barrier through recursion ('" + Callee + "')";
        InlineFunctionInfo IFI;
        InlineResult R = InlineFunction(*CB, IFI);
        if (!R.isSuccess())
          return "cannot inline '" + Callee + "', which reaches a barrier: " + R.getFailureReason();
      }
    }
  }

  /// Whether F calls a function that Is says is one (a barrier, a warp operation).
  bool callsAny(bool (*Is)(const Function &)) const {
    for (const Instruction &I : instructions(F))
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = calledFunction(*CB); Callee && Is(*Callee))
          return true;
    return false;
  }

  /// offload::detail::current_cpu_item, declared if the module does not have it yet.
  GlobalVariable *Item() {
    if (GlobalVariable *G = M.getNamedGlobal(CurrentItemName))
      return G;
    return new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(Ctx), 48), false,
                              GlobalValue::ExternalLinkage, nullptr, CurrentItemName, nullptr,
                              GlobalValue::GeneralDynamicTLSModel);
  }

  /// Whether G reaches a barrier or a warp operation through direct calls of bodies the image
  /// has — not merely may (Reach counts every indirect call and unseen declaration: with it,
  /// any kernel that makes a virtual call, its own address taken, ran as fibers, 45x slower).
  static bool callsBarrier(const Function &G) {
    SmallVector<const Function *, 8> Work = {&G};
    DenseSet<const Function *> Seen;
    while (!Work.empty()) {
      const Function *Fn = Work.pop_back_val();
      if (!Seen.insert(Fn).second)
        continue;
      if (isBarrier(*Fn) || isWarpOperation(*Fn))
        return true;
      for (const Instruction &I : instructions(*Fn))
        if (const auto *CB = dyn_cast<CallBase>(&I))
          if (const Function *Callee = calledFunction(*CB))
            Work.push_back(Callee);
    }
    return false;
  }

  /// Without barriers (nor warp operations), F is one loop over the work-items (a call that
  /// reaches a barrier anyway is the runtime's error).
  std::string checkCalls(bool Barriers) {
    if (!Barriers) {
      // One loop over the work-items — unless an indirect call may reach a barrier: some
      // function that reaches one has its address taken somewhere in the program.
      for (Instruction &I : instructions(F))
        if (const auto *CB = dyn_cast<CallBase>(&I); CB && !CB->isInlineAsm() && !calledFunction(*CB))
          for (const Function &G : M)
            if ((isBarrier(G) || (Reach.contains(&G) && callsBarrier(G))) &&
                G.hasAddressTaken(nullptr, false, true, /*IgnoreLLVMUsed=*/true))
              return "it makes an indirect call, and '" + demangled(G.getName()) +
                     "', which reaches a barrier, has its address taken";
      return "";
    }
    for (Instruction &I : instructions(F)) {
      if (auto *A = dyn_cast<AllocaInst>(&I)) {
        if (!A->isStaticAlloca() || A->getParent() != &F.getEntryBlock())
          return "it has a variable-length array (or alloca())";
        if (A->getAlign().value() > ScratchAlign)
          return "a local is aligned to " + std::to_string(A->getAlign().value()) +
                 " bytes (work-item loops keep locals aligned to at most " + std::to_string(ScratchAlign) + ")";
      }
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm())
        continue;
      const Function *Callee = calledFunction(*CB);
      if (!Callee)
        return "it makes an indirect call, which may reach a barrier";
      if (Callee->isDeclaration() && !isBarrier(*Callee) && !isWarpOperation(*Callee) &&
          !cannotMeet(*Callee, TLI))
        return "it calls '" + demangled(Callee->getName()) +
               "', whose body the CPU image does not have (it may reach a barrier)";
    }
    return "";
  }

  /// Loads of current_cpu_item that cover the work-item's index other than as one 32-bit field
  /// (the SLP vectoriser makes `load <2 x i32>` of thread.x and .y with AVX-512) become one
  /// 32-bit load per word, put back together: useCounters replaces only those, and a vector
  /// load left in a loop gave every work-item of the workgroup the first one's index.
  std::string scalarizeIndexLoads() {
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
  static bool isShared(const Value *Ptr) {
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
  void lowerSharedAtomics() {
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
  void tidy() {
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

  /// Thread-local addresses, and constant offsets from them, are computed where they are used:
  /// never values that live across a barrier, and loads of the work-item's index stay
  /// recognisable (useCounters).
  void copyThreadLocalAddressesToUses() {
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
        // A thread-local's address that is stored, merged or passed on: the runtime's
        // thread-local then holds the index too (it may be read through it).
        if (!isa<LoadInst>(User) && !(isa<StoreInst>(User) && U.getOperandNo() == 1) &&
            !isa<GetElementPtrInst>(User))
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
  static bool isAddressOfThreadLocal(const Value *V) {
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
  static Instruction *copyAddressBefore(Instruction *I, Instruction *At) {
    Instruction *Copy = I->clone();
    if (!isa<IntrinsicInst>(I))
      Copy->setOperand(0, copyAddressBefore(cast<Instruction>(I->getOperand(0)), At));
    Copy->insertBefore(At->getIterator());
    return Copy;
  }

  /// Whether V reads the work-item's index (current_cpu_item.thread; Dim 3: any of x, y, z).
  bool readsIndex(const Value *V, unsigned Dim, unsigned Depth = 0) const {
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > MaxRecomputed)
      return false;
    if (const auto *L = dyn_cast<LoadInst>(I)) {
      APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
      const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
      const auto *Tls = dyn_cast<IntrinsicInst>(Base);
      if (!Tls || Tls->getIntrinsicID() != Intrinsic::threadlocal_address ||
          Tls->getArgOperand(0)->getName() != CurrentItemName)
        return false;
      const uint64_t At = Offset.getZExtValue();
      return At >= ThreadOffset && At < ThreadOffset + 12 &&
             (Dim == 3 || (At - ThreadOffset) / 4 == Dim);
    }
    return llvm::any_of(I->operands(), [&](const Use &Op) { return readsIndex(Op.get(), Dim, Depth + 1); });
  }

  /// The same for every work-item of the workgroup, and computable anywhere: from arguments,
  /// constants and current_cpu_item's fields other than the index.
  bool uniform(const Value *V) const {
    unsigned Budget = MaxRecomputed;
    return recomputable(V, Budget) && !readsIndex(V, 3);
  }

  /// Whether L is a grid-stride loop: an induction variable that starts at a value computed from
  /// the work-item's x index, steps by a uniform value, and is tested against a uniform bound.
  bool gridStride(const Loop &L, PHINode *&Induction, Value *&Stride) const {
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
  void prefetchNextIteration(const Loop &L, PHINode *Induction, Value *Stride) {
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
  SmallVector<std::tuple<Loop *, PHINode *, Value *>, 8> gridStrideLoops(LoopInfo &LI) const {
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
  void addVirtualBarriers(unsigned Room) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (auto [L, Induction, Stride] : gridStrideLoops(LI)) {
      if (VirtualBlocks.size() >= Room)
        break;
      prefetchNextIteration(*L, Induction, Stride);
      // As a barrier's: a block of its own, then the region's head (the header's phis have
      // an incoming block of the region).
      BasicBlock *V = SplitEdge(L->getLoopLatch(), L->getHeader());
      V->setName("virtual.barrier");
      SplitBlock(V, V->getTerminator())->setName("virtual.resume");
      VirtualBlocks.push_back(V);
    }
  }

  void splitAtBarriers() {
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

  bool isBarrierBlock(const BasicBlock *BB) const { return llvm::is_contained(BarrierBlocks, BB); }
  /// Whether region R (R > 0) starts at a virtual barrier.
  bool isVirtual(size_t R) const { return llvm::is_contained(VirtualBlocks, BarrierBlocks[R - 1]); }

  /// Blocks reachable from X's successors through a barrier without passing X again (where a
  /// value X defines arrives from before a barrier).
  DenseSet<const BasicBlock *> reachedThroughBarrier(const BasicBlock *X) const {
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

  void demoteValuesLiveAcrossBarriers() {
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
      else
        DemoteRegToStack(*I, false, AllocaPoint);  // reloads at each use
    }
    demotePhis(Phis, AllocaPoint);
  }

  /// Phis to stack slots, reloaded at each use (a use past a barrier reads the slot, not a
  /// reload made in another region). The phis of a block are one parallel copy per incoming
  /// edge: every value is read before any slot is written (`x, y = y, x` across a barrier in
  /// a loop swaps), and an edge from a block with several successors gets a block of its own,
  /// so the copy runs only when that edge is taken.
  void demotePhis(ArrayRef<PHINode *> Phis, BasicBlock::iterator AllocaPoint) {
    DenseMap<PHINode *, AllocaInst *> Slot;
    SetVector<BasicBlock *> Blocks;
    for (PHINode *P : Phis) {
      Slot[P] = new AllocaInst(P->getType(), DL.getAllocaAddrSpace(), nullptr,
                               P->getName() + ".slot", AllocaPoint);
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

  /// Whether V can be computed again where it is used, from what it was computed from, instead
  /// of being kept per work-item across a barrier: arithmetic, comparisons, casts and addresses
  /// over constants, arguments (decoded once per workgroup), thread-locals' addresses, fields
  /// of current_cpu_item (constant through a workgroup; its `.thread` becomes the loops'
  /// counters) and `[[gnu::const]]` calls — at most Budget instructions. The work-item's index
  /// and what is derived from it (global ids, `&shared[t]`) then cost nothing per work-item.
  bool recomputable(const Value *V, unsigned &Budget) const {
    if (isa<Constant>(V) || isa<Argument>(V))
      return true;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Budget == 0)
      return false;
    --Budget;
    if (const auto *L = dyn_cast<LoadInst>(I)) {
      APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
      const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
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
  void recomputeAtUses(Instruction *I) {
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

  /// The blocks of the region that starts at Head: reachable without passing a barrier.
  SmallVector<BasicBlock *, 16> regionBlocks(BasicBlock *Head) const {
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
  /// intrinsic or a C library function, which the runtime's thread-local must then serve.
  bool callsThatMayReadIds(ArrayRef<BasicBlock *> Blocks) const {
    for (BasicBlock *BB : Blocks)
      for (Instruction &I : *BB)
        if (const auto *CB = dyn_cast<CallBase>(&I); CB && !CB->isInlineAsm()) {
          const Function *Callee = calledFunction(*CB);
          LibFunc LF;
          if (Callee && (Callee->getName() == WarpPresentName || Callee->getName() == WarpBanksName ||
                         Callee->getName() == EveryLaneName || Callee->getName() == StatesName))
            continue;  // the warp exchanges' (they read no index)
          if (!Callee || !(Callee->isIntrinsic() || TLI.getLibFunc(*Callee, LF)))
            return true;
        }
    return false;
  }

  /// Loads of current_cpu_item.thread.{x,y,z} in Blocks become X, Y, Z.
  void useCounters(ArrayRef<BasicBlock *> Blocks, const GlobalVariable *Item, Value *X, Value *Y,
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
  void markParallel(ArrayRef<BasicBlock *> Blocks, Instruction *Latch) const {
    MDNode *Group = MDNode::getDistinct(Ctx, {});
    bool Any = false;
    for (BasicBlock *BB : Blocks)
      for (Instruction &I : *BB) {
        const bool Plain = (isa<LoadInst>(I) && cast<LoadInst>(I).isSimple()) ||
                           (isa<StoreInst>(I) && cast<StoreInst>(I).isSimple());
        if (!Plain || I.getMetadata(LLVMContext::MD_access_group))
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
  void buildLoops(bool Barriers) {
    SmallVector<BasicBlock *, 32> Original;
    for (BasicBlock &BB : F)
      Original.push_back(&BB);
    SmallVector<AllocaInst *, 16> Allocas;
    if (Barriers)
      for (Instruction &I : F.getEntryBlock())
        if (auto *A = dyn_cast<AllocaInst>(&I))
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
      Value *StateAt = reserve(4);
      Value *PendingAt = reserve(4, 8);  // the runtime's: count words and two of its own
      Function *BanksFn = M.getFunction(WarpBanksName);
      const bool Warps = BanksFn && !BanksFn->use_empty();
      Value *BanksAt = Warps ? reserve(12) : nullptr;  // two banks of words, the counts
      FunctionCallee Scratch = M.getOrInsertFunction(ScratchName, Ptr, I64);
      if (auto *SF = dyn_cast<Function>(Scratch.getCallee()))
        SF->setReturnDoesNotAlias();  // may throw (a buffer too large): not nounwind
      Value *Base = B.CreateCall(Scratch, {Bytes}, "scratch");
      for (Value *Offset : Offsets)
        Arrays.push_back(B.CreateInBoundsGEP(I8, Base, Offset));
      States = B.CreateInBoundsGEP(I8, Base, StateAt, "states");
      Pending = B.CreateInBoundsGEP(I8, Base, PendingAt, "pending");
      B.CreateStore(B.getInt32(0), B.CreateInBoundsGEP(I32, Pending, Count64));  // no round yet
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
    BasicBlock *Next = Barriers ? BasicBlock::Create(Ctx, "wi.next", &F) : nullptr;

    // Starts[R][0]: every work-item; Starts[R][1]: those waiting at region R's barrier.
    std::vector<std::array<BasicBlock *, 2>> Starts(Heads.size(), {nullptr, nullptr});
    for (size_t R = 0; R < Heads.size(); ++R) {
      Starts[R][0] = BasicBlock::Create(Ctx, "region" + Twine(R), &F);
      if (R > 0)
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
      IRBuilder<>(Starts[R][OnlyWaiting]).CreateBr(ZLoop);
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
      Value *StateOf = Barriers ? B.CreateInBoundsGEP(I32, States, Index64, "state") : nullptr;
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
          if (Barriers)
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
      B.CreateBr(Barriers ? Next : End);
    };
    // One dispatch for all regions (a switch per region made the code quadratic in barriers):
    // 2R releases every work-item at region R's barrier; 2R + 1 only some (others ended, or
    // wait at another barrier: released in turn, as NVIDIA's bar.sync counts any barrier).
    if (Barriers) {
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
      if (R > 0)
        emitRegion(R, true);
    }

    // The original blocks go; the clones no longer refer to them.
    for (BasicBlock *BB : Original)
      BB->dropAllReferences();
    for (BasicBlock *BB : Original)
      BB->eraseFromParent();
    for (AllocaInst *A : Allocas)
      A->eraseFromParent();
    if (WarpBanks) {
      SmallVector<BasicBlock *, 32> All;
      for (BasicBlock &BB : F)
        All.push_back(&BB);
      replaceCalls(All, WarpBanksName, WarpBanks);
      replaceCalls(All, StatesName, States);
    }
  }

  /// Calls of the placeholder Name (CpuWarpExchanges.h) in Blocks become With.
  static void replaceCalls(ArrayRef<BasicBlock *> Blocks, StringRef Name, Value *With) {
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
};

} // namespace

DenseSet<const Function *> functionsReachingBarriers(const Module &M) {
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  TargetLibraryInfo TLI(TLII);
  DenseSet<const Function *> Reach;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : M) {
      if (F.isDeclaration() || Reach.contains(&F))
        continue;
      for (const Instruction &I : instructions(F)) {
        const auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || CB->isInlineAsm())
          continue;
        const Function *Callee = calledFunction(*CB);
        if (!Callee || (Callee->isDeclaration() ? !cannotMeet(*Callee, TLI) : Reach.contains(Callee))) {
          Reach.insert(&F);
          Changed = true;
          break;
        }
      }
    }
  }
  return Reach;
}

void recordNoBarriers(Module &M, ArrayRef<std::string> Names) {
  NamedMDNode *Known = M.getOrInsertNamedMetadata(NoBarriersName);
  for (const std::string &Name : Names)
    Known->addOperand(MDNode::get(M.getContext(), MDString::get(M.getContext(), Name)));
}

std::vector<WorkItemLoopsOutcome> formWorkItemLoops(Module &M) {
  std::vector<WorkItemLoopsOutcome> Outcomes;
  const DenseSet<const Function *> Reach = functionsReachingBarriers(M);
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  TargetLibraryInfo TLI(TLII);
  // work-item function → its loops (nullptr: fibers), and whether they are split at barriers
  struct Formed {
    Function *Loops = nullptr;
    bool Split = false;
  };
  DenseMap<Function *, Formed> Done;
  SmallVector<Function *, 8> Entries;
  for (Function &F : M)
    if (F.getName().starts_with(CpuEntryPrefix) && !F.isDeclaration())
      Entries.push_back(&F);
  for (Function *Entry : Entries) {
    // The work-item function: called by the entry, or by what the entry calls.
    Function *Items = nullptr;
    SmallVector<Function *, 4> Work = {Entry};
    DenseSet<Function *> Seen;
    while (!Work.empty() && !Items) {
      Function *Caller = Work.pop_back_val();
      if (!Seen.insert(Caller).second || Caller->isDeclaration())
        continue;
      for (Instruction &I : instructions(*Caller))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (auto *Callee = const_cast<Function *>(calledFunction(*CB))) {
            if (Callee->getName().starts_with(WorkItemsPrefix)) {
              Items = Callee;
              break;
            }
            Work.push_back(Callee);
          }
    }
    if (!Items)
      continue;
    WorkItemLoopsOutcome Outcome;
    Outcome.Kernel = kernelName(Entry->getName());
    auto [It, New] = Done.try_emplace(Items);
    if (New) {
      ValueToValueMapTy VMap;
      Function *Loops = CloneFunction(Items, VMap);
      WorkItemLoops Transform(*Loops, Reach, TLI);
      Outcome.Reason = Transform.run();
      It->second.Split = Transform.Split;
      if (Outcome.Reason.empty()) {
        Items->replaceAllUsesWith(Loops);
        Loops->takeName(Items);
        Items->eraseFromParent();
        It->second.Loops = Loops;
        // The scratch buffer's allocation may throw: nothing from the loops up to the entry
        // may still claim not to unwind (clang inferred it for the work-item function).
        SmallVector<Function *, 4> Up = {Loops};
        DenseSet<Function *> Cleared;
        while (!Up.empty()) {
          Function *Fn = Up.pop_back_val();
          if (!Cleared.insert(Fn).second)
            continue;
          Fn->removeFnAttr(Attribute::NoUnwind);
          for (User *U : Fn->users())
            if (auto *CB = dyn_cast<CallBase>(U)) {
              CB->removeFnAttr(Attribute::NoUnwind);
              Up.push_back(CB->getFunction());
            }
        }
      } else {
        Loops->eraseFromParent();
      }
    }
    Outcome.Loops = It->second.Loops != nullptr;
    Outcome.Split = It->second.Split;
    if (!Outcome.Loops) {
      if (Outcome.Reason.empty())
        Outcome.Reason = "(as another entry of the same kernel)";
      // The fiber path: the entry hands its workgroup to the runtime.
      Entry->deleteBody();
      Entry->setLinkage(GlobalValue::WeakODRLinkage);
      BasicBlock *BB = BasicBlock::Create(M.getContext(), "fibers", Entry);
      IRBuilder<> B(BB);
      FunctionCallee RunFibers = M.getOrInsertFunction(
          RunFibersName, Type::getVoidTy(M.getContext()), PointerType::getUnqual(M.getContext()));
      B.CreateCall(RunFibers, {Entry->getArg(0)});
      B.CreateRetVoid();
    }
    Outcomes.push_back(std::move(Outcome));
  }
  return Outcomes;
}

} // namespace offload::compiler
