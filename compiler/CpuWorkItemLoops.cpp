// compiler/CpuWorkItemLoops.cpp — see CpuWorkItemLoops.h.
#include "CpuWorkItemLoops.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

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
constexpr StringRef NextRegionName = "__offload_cpu_next_region";
constexpr StringRef RunFibersName = "__offload_cpu_run_fibers";
/// Named metadata: functions whose CPU bitcode was reduced to a declaration because they reach
/// no barrier (CpuImage.cpp) — known at the link not to reach one.
constexpr StringRef NoBarriersName = "offload.no_barriers";
// offload::detail::cpu_item: dim3 thread, block, block_dim, grid_dim (static_asserts in
// offload/detail/cpu_entry.hpp hold the header to these offsets).
constexpr unsigned ThreadOffset = 0, BlockDimOffset = 24;
// The state a work-item that ended records (others record their next region's number).
constexpr uint32_t Ended = ~0u;

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

  /// Transforms F; on failure returns why (F is then broken: the caller drops it).
  std::string run() {
    if (std::string Why = inlineWhatMeets(); !Why.empty())
      return Why;
    const bool Barriers = hasBarriers();
    if (std::string Why = checkCalls(Barriers); !Why.empty())
      return Why;
    if (Barriers) {
      tidy();
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

  bool hasBarriers() {
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = calledFunction(*CB); Callee && isBarrier(*Callee))
          return true;
    return false;
  }

  /// Warp operations keep the fibers. Without barriers, F is one loop over the work-items, as a
  /// kernel without barriers (a call that reaches one anyway is the runtime's error, as there).
  std::string checkCalls(bool Barriers) {
    for (Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      const Function *Callee = CB && !CB->isInlineAsm() ? calledFunction(*CB) : nullptr;
      if (Callee && isWarpOperation(*Callee))
        return "it uses warp operations (shuffle, ballot, warp_reduce), which run as fibers";
    }
    if (!Barriers)
      return "";
    for (Instruction &I : instructions(F)) {
      if (auto *A = dyn_cast<AllocaInst>(&I))
        if (!A->isStaticAlloca() || A->getParent() != &F.getEntryBlock())
          return "it has a variable-length array (or alloca())";
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm())
        continue;
      const Function *Callee = calledFunction(*CB);
      if (!Callee)
        return "it makes an indirect call, which may reach a barrier";
      if (Callee->isDeclaration() && !isBarrier(*Callee) && !cannotMeet(*Callee, TLI))
        return "it calls '" + demangled(Callee->getName()) +
               "', whose body the CPU image does not have (it may reach a barrier)";
    }
    return "";
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
  }

  bool isBarrierBlock(const BasicBlock *BB) const { return llvm::is_contained(BarrierBlocks, BB); }

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
    for (Instruction *I : Demote) {
      auto *Phi = dyn_cast<PHINode>(I);
      if (!Phi) {
        DemoteRegToStack(*I, false, AllocaPoint);  // reloads at each use
        continue;
      }
      // DemotePHIToStack reloads once, where the phi was: reload at each use instead (a use
      // past a barrier would otherwise read the reload of another region).
      AllocaInst *Slot = DemotePHIToStack(Phi, AllocaPoint);
      SmallVector<LoadInst *, 2> Reloads;
      for (User *U : Slot->users())
        if (auto *L = dyn_cast<LoadInst>(U))
          Reloads.push_back(L);
      for (LoadInst *L : Reloads)
        for (Use &U : make_early_inc_range(L->uses())) {
          auto *User = cast<Instruction>(U.getUser());
          Instruction *At = User;
          if (auto *P = dyn_cast<PHINode>(User))
            At = P->getIncomingBlock(U)->getTerminator();
          else if (User->getParent() == L->getParent())
            continue;
          U.set(new LoadInst(L->getType(), Slot, L->getName(), At->getIterator()));
        }
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

  /// The loops. Without barriers: one region, every stack object kept as it is.
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

    // The workgroup's size, and one scratch buffer for the per-work-item arrays and states.
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
    GlobalVariable *Item = M.getNamedGlobal(CurrentItemName);
    if (!Item) {
      Item = new GlobalVariable(M, ArrayType::get(I8, 48), false, GlobalValue::ExternalLinkage,
                                nullptr, CurrentItemName, nullptr,
                                GlobalValue::GeneralDynamicTLSModel);
    }
    Value *Tls = B.CreateThreadLocalAddress(Item);
    auto field = [&](unsigned Offset) { return B.CreateConstInBoundsGEP1_32(I8, Tls, Offset); };
    Value *Bx = B.CreateLoad(I32, field(BlockDimOffset), "block.x");
    Value *By = B.CreateLoad(I32, field(BlockDimOffset + 4), "block.y");
    Value *Bz = B.CreateLoad(I32, field(BlockDimOffset + 8), "block.z");
    Value *Count = B.CreateMul(B.CreateMul(Bx, By), Bz, "items");
    Value *Count64 = B.CreateZExt(Count, I64);
    Value *Bytes = B.getInt64(0);
    auto reserve = [&](uint64_t Stride) {
      Value *Offset = Bytes;
      Value *End = B.CreateAdd(Bytes, B.CreateMul(Count64, B.getInt64(Stride)));
      Bytes = B.CreateAnd(B.CreateAdd(End, B.getInt64(63)), B.getInt64(~uint64_t(63)));
      return Offset;
    };
    SmallVector<std::pair<Value *, uint64_t>, 16> ArrayAt;  // offset, stride of each alloca
    for (AllocaInst *A : Allocas) {
      const uint64_t Size = A->getAllocationSize(DL)->getFixedValue();
      const uint64_t Stride = alignTo(std::max<uint64_t>(Size, 1), A->getAlign());
      ArrayAt.push_back({reserve(Stride), Stride});
    }
    Value *StateAt = reserve(4);
    SmallVector<Value *, 16> Arrays;
    Value *States = nullptr;
    if (Barriers) {
      FunctionCallee Scratch = M.getOrInsertFunction(ScratchName, Ptr, I64);
      if (auto *SF = dyn_cast<Function>(Scratch.getCallee())) {
        SF->setReturnDoesNotAlias();
        SF->setDoesNotThrow();
      }
      Value *Base = B.CreateCall(Scratch, {Bytes}, "scratch");
      for (auto &[Offset, Stride] : ArrayAt)
        Arrays.push_back(B.CreateInBoundsGEP(I8, Base, Offset));
      States = B.CreateInBoundsGEP(I8, Base, StateAt, "states");
    }
    FunctionCallee NextRegion;
    if (Barriers) {
      NextRegion = M.getOrInsertFunction(NextRegionName, I32, Ptr, I32);
      if (auto *NF = dyn_cast<Function>(NextRegion.getCallee()))
        NF->setDoesNotThrow();
    }
    BasicBlock *End = BasicBlock::Create(Ctx, "wi.end", &F);
    ReturnInst::Create(Ctx, End);

    SmallVector<BasicBlock *, 8> Starts;  // each region's first block
    for (size_t R = 0; R < Heads.size(); ++R)
      Starts.push_back(BasicBlock::Create(Ctx, "region" + Twine(R), &F));
    B.CreateBr(Starts[0]);

    for (size_t R = 0; R < Heads.size(); ++R) {
      const std::string Name = "region" + std::to_string(R);
      BasicBlock *Loop = BasicBlock::Create(Ctx, Name + ".item", &F);
      BasicBlock *Body = BasicBlock::Create(Ctx, Name + ".body", &F);
      BasicBlock *Latch = BasicBlock::Create(Ctx, Name + ".next", &F);
      BasicBlock *Dispatch = BasicBlock::Create(Ctx, Name + ".done", &F);
      IRBuilder<>(Starts[R]).CreateBr(Loop);

      // The work-item: linear index and (x, y, z), x fastest; region 0 runs every work-item,
      // later regions those waiting at their barrier.
      B.SetInsertPoint(Loop);
      PHINode *Index = B.CreatePHI(I32, 2, "item");
      PHINode *X = B.CreatePHI(I32, 2, "x"), *Y = B.CreatePHI(I32, 2, "y"), *Z = B.CreatePHI(I32, 2, "z");
      for (PHINode *P : {Index, X, Y, Z})
        P->addIncoming(B.getInt32(0), Starts[R]);
      Value *Index64 = B.CreateZExt(Index, I64);
      Value *StateOf = Barriers ? B.CreateInBoundsGEP(I32, States, Index64, "state") : nullptr;
      if (R == 0)
        B.CreateBr(Body);
      else
        B.CreateCondBr(B.CreateICmpEQ(B.CreateLoad(I32, StateOf), B.getInt32(R)), Body, Latch);

      B.SetInsertPoint(Body);
      B.CreateStore(X, field(ThreadOffset));
      B.CreateStore(Y, field(ThreadOffset + 4));
      B.CreateStore(Z, field(ThreadOffset + 8));
      ValueToValueMapTy VMap;
      for (size_t A = 0; A < Allocas.size(); ++A)
        VMap[Allocas[A]] = B.CreateInBoundsGEP(
            I8, Arrays[A], B.CreateMul(Index64, B.getInt64(ArrayAt[A].second)), Allocas[A]->getName());

      // The region's blocks, cloned; edges to a barrier record it and go to the next work-item.
      SmallVector<BasicBlock *, 16> Blocks = regionBlocks(Heads[R]);
      DenseSet<BasicBlock *> InRegion(Blocks.begin(), Blocks.end());
      std::map<uint32_t, BasicBlock *> Exits;  // not DenseMap: ~0u is its empty key
      auto exitTo = [&](uint32_t State) {
        BasicBlock *&Exit = Exits[State];
        if (!Exit) {
          Exit = BasicBlock::Create(Ctx, Name + ".stop", &F, Latch);
          IRBuilder<> E(Exit);
          if (Barriers)
            E.CreateStore(E.getInt32(State), StateOf);
          E.CreateBr(Latch);
        }
        return Exit;
      };
      SmallVector<BasicBlock *, 16> Clones;
      for (BasicBlock *BB : Blocks) {
        BasicBlock *C = CloneBasicBlock(BB, VMap, "." + Name, &F);
        C->moveBefore(Latch);
        VMap[BB] = C;
        Clones.push_back(C);
      }
      for (size_t I = 0; I < Blocks.size(); ++I) {
        BasicBlock *C = Clones[I];
        Instruction *T = C->getTerminator();
        if (isa<ReturnInst>(T)) {
          BranchInst::Create(exitTo(Ended), T->getIterator());
          T->eraseFromParent();
        } else {
          for (unsigned S = 0; S < T->getNumSuccessors(); ++S)
            if (BasicBlock *Succ = T->getSuccessor(S); isBarrierBlock(Succ)) {
              const uint32_t Next = 1 + (llvm::find(BarrierBlocks, Succ) - BarrierBlocks.begin());
              T->setSuccessor(S, exitTo(Next));
            }
        }
        for (PHINode &Phi : C->phis())
          for (int In = int(Phi.getNumIncomingValues()) - 1; In >= 0; --In)
            if (!InRegion.contains(Phi.getIncomingBlock(In)))
              Phi.removeIncomingValue(In, /*DeletePHIIfEmpty=*/false);
      }
      for (BasicBlock *C : Clones)
        for (Instruction &I : *C)
          RemapInstruction(&I, VMap, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
      B.SetInsertPoint(Body);
      B.CreateBr(cast<BasicBlock>(VMap[Heads[R]]));

      // Next work-item; after the last, the region where the work-items wait (or the end).
      B.SetInsertPoint(Latch);
      Value *NextIndex = B.CreateAdd(Index, B.getInt32(1));
      Value *X1 = B.CreateAdd(X, B.getInt32(1));
      Value *WrapX = B.CreateICmpEQ(X1, Bx);
      Value *Y1 = B.CreateSelect(WrapX, B.CreateAdd(Y, B.getInt32(1)), Y);
      Value *WrapY = B.CreateAnd(WrapX, B.CreateICmpEQ(Y1, By));
      Index->addIncoming(NextIndex, Latch);
      X->addIncoming(B.CreateSelect(WrapX, B.getInt32(0), X1), Latch);
      Y->addIncoming(B.CreateSelect(WrapY, B.getInt32(0), Y1), Latch);
      Z->addIncoming(B.CreateSelect(WrapY, B.CreateAdd(Z, B.getInt32(1)), Z), Latch);
      B.CreateCondBr(B.CreateICmpULT(NextIndex, Count), Loop, Dispatch);

      B.SetInsertPoint(Dispatch);
      if (!Barriers) {
        B.CreateBr(End);
        continue;
      }
      Value *Next = B.CreateCall(NextRegion, {States, Count}, "next");
      SwitchInst *S = B.CreateSwitch(Next, End, Heads.size());
      for (size_t To = 1; To < Heads.size(); ++To)
        S->addCase(B.getInt32(To), Starts[To]);
    }

    // The original blocks go; the clones no longer refer to them.
    for (BasicBlock *BB : Original)
      BB->dropAllReferences();
    for (BasicBlock *BB : Original)
      BB->eraseFromParent();
    for (AllocaInst *A : Allocas)
      A->eraseFromParent();
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
  DenseMap<Function *, Function *> Done;  // work-item function → its loops (nullptr: fibers)
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
    auto [It, New] = Done.try_emplace(Items, nullptr);
    if (New) {
      ValueToValueMapTy VMap;
      Function *Loops = CloneFunction(Items, VMap);
      Outcome.Reason = WorkItemLoops(*Loops, Reach, TLI).run();
      if (Outcome.Reason.empty()) {
        Items->replaceAllUsesWith(Loops);
        Loops->takeName(Items);
        Items->eraseFromParent();
        It->second = Loops;
      } else {
        Loops->eraseFromParent();
      }
    }
    Outcome.Loops = It->second != nullptr;
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
