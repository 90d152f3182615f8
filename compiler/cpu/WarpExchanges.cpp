// compiler/cpu/WarpExchanges.cpp — see WarpExchanges.h.
#include "WarpExchanges.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace offload::compiler {
namespace {

/// The work-item's linear index within its workgroup and the workgroup's size, read where B is.
std::pair<Value *, Value *> linearIndex(IRBuilder<> &B, const WorkItemFields &Fields) {
  Type *I8 = B.getInt8Ty(), *I32 = B.getInt32Ty();
  Value *Tls = B.CreateThreadLocalAddress(Fields.Item);
  auto field = [&](unsigned Offset) {
    return B.CreateLoad(I32, B.CreateConstInBoundsGEP1_32(I8, Tls, Offset));
  };
  Value *X = field(Fields.ThreadOffset), *Y = field(Fields.ThreadOffset + 4);
  Value *Z = field(Fields.ThreadOffset + 8);
  Value *Bx = field(Fields.BlockDimOffset), *By = field(Fields.BlockDimOffset + 4);
  Value *Bz = field(Fields.BlockDimOffset + 8);
  Value *Index = B.CreateAdd(B.CreateMul(B.CreateAdd(B.CreateMul(Z, By), Y), Bx), X, "lane.index");
  Value *Items = B.CreateMul(B.CreateMul(Bx, By), Bz, "lane.items");
  return {B.CreateZExt(Index, B.getInt64Ty()), B.CreateZExt(Items, B.getInt64Ty())};
}

} // namespace

std::string lowerWarpExchanges(Function &F, StringRef Prefix, const WorkItemFields &Fields,
                               SmallVectorImpl<BasicBlock *> &Virtual) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Callee = dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
          Callee && Callee->getName().starts_with(Prefix)) {
        auto *Call = dyn_cast<CallInst>(CB);
        auto *Ty = dyn_cast<StructType>(CB->getType());
        if (!Call || !Ty || Ty->getNumElements() != 2 || !Ty->getElementType(0)->isPointerTy() ||
            !Ty->getElementType(1)->isIntegerTy(32) || CB->arg_size() != 1 ||
            !CB->getArgOperand(0)->getType()->isIntegerTy(32))
          return "its warp operations are not the exchange work-item loops know";
        Calls.push_back(Call);
      }
  if (Calls.empty())
    return "";
  Module &M = *F.getParent();
  LLVMContext &Ctx = F.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx), *I1 = Type::getInt1Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  // Placeholders without memory effects: the loops recompute them anywhere and replace them.
  auto placeholder = [&](StringRef Name, Type *Result) {
    FunctionCallee C = M.getOrInsertFunction(Name, Result);
    auto *Fn = cast<Function>(C.getCallee());
    Fn->setDoesNotAccessMemory();
    Fn->setDoesNotThrow();
    Fn->setWillReturn();
    return C;
  };
  FunctionCallee Banks = placeholder(WarpBanksName, Ptr), Every = placeholder(EveryLaneName, I1);
  FunctionCallee States = placeholder(StatesName, Ptr), Cache = placeholder(WarpCacheName, Ptr);
  FunctionCallee Present = M.getOrInsertFunction(WarpPresentName, I32, Ptr, I32, I32, Ptr);
  if (auto *Fn = dyn_cast<Function>(Present.getCallee())) {
    Fn->setOnlyReadsMemory();  // or throws offload::error: lanes that never meet
    Fn->setOnlyAccessesArgMemory();
  }

  for (CallInst *Call : Calls) {
    // Before: count, store the word in the count's bank.
    IRBuilder<> B(Call);
    auto [Index, Items] = linearIndex(B, Fields);
    Value *Base = B.CreateCall(Banks, {}, "warp.banks");
    Value *CountAt = B.CreateInBoundsGEP(I32, Base, B.CreateAdd(B.CreateMul(Items, B.getInt64(2)), Index));
    Value *Count = B.CreateAdd(B.CreateLoad(I32, CountAt), B.getInt32(1), "warp.count");
    B.CreateStore(Count, CountAt);
    Value *Bank = B.CreateMul(B.CreateZExt(B.CreateAnd(Count, 1), I64), Items);
    B.CreateStore(Call->getArgOperand(0), B.CreateInBoundsGEP(I32, Base, B.CreateAdd(Bank, Index)));
    // The virtual barrier: an empty block of its own, then the region's head.
    BasicBlock *Before = Call->getParent();
    BasicBlock *Resume = SplitBlock(Before, Call);
    BasicBlock *V = SplitEdge(Before, Resume);
    V->setName("warp.exchange");
    Resume->setName("warp.resume");
    Virtual.push_back(V);
    // After: the warp's words, and which lanes took part. Everything is read again here (the
    // work-item's index and count are recomputed or reloaded, not kept across the barrier).
    B.SetInsertPoint(Call);
    auto [Index2, Items2] = linearIndex(B, Fields);
    Value *Base2 = B.CreateCall(Banks, {}, "warp.banks");
    Value *Counts = B.CreateInBoundsGEP(I32, Base2, B.CreateMul(Items2, B.getInt64(2)));
    Value *Mine = B.CreateLoad(I32, B.CreateInBoundsGEP(I32, Counts, Index2), "warp.mine");
    Value *First = B.CreateAnd(Index2, B.getInt64(~uint64_t(31)), "warp.first");
    Value *Lanes = B.CreateTrunc(B.CreateBinaryIntrinsic(Intrinsic::umin, B.CreateSub(Items2, First),
                                                         B.getInt64(32)), I32, "warp.lanes");
    Value *Bank2 = B.CreateMul(B.CreateZExt(B.CreateAnd(Mine, 1), I64), Items2);
    Value *Words = B.CreateInBoundsGEP(I32, Base2, B.CreateAdd(Bank2, First), "warp.words");
    // Every lane: the lanes that exist (Lanes of them); some: ask the counts.
    Value *AllLanes = B.CreateSelect(B.CreateICmpEQ(Lanes, B.getInt32(32)), B.getInt32(~0u),
                                     B.CreateSub(B.CreateShl(B.getInt32(1), Lanes), B.getInt32(1)));
    BasicBlock *Here = Call->getParent();
    BasicBlock *Join = SplitBlock(Here, Call);
    BasicBlock *Ask = BasicBlock::Create(Ctx, "warp.ask", &F, Join);
    BasicBlock *Miss = BasicBlock::Create(Ctx, "warp.ask.runtime", &F, Join);
    Here->getTerminator()->eraseFromParent();
    B.SetInsertPoint(Here);
    B.CreateCondBr(B.CreateCall(Every, {}, "warp.every"), Join, Ask);
    // Some: every lane of a warp that reaches this exchange in one pass gets the same answer
    // (those present are in the pass or past it; the others wait elsewhere until it ends), so
    // the warp's first asker's answer is kept for the rest (jacobi: a quarter of its time).
    B.SetInsertPoint(Ask);
    Value *CacheAt = B.CreateCall(Cache, {}, "warp.cache");
    Value *Key = B.CreateOr(B.CreateShl(First, 32), B.CreateZExt(Mine, I64), "warp.key");
    Value *MaskAt = B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), CacheAt, 8);
    // Volatile: carried from one work-item to the next on purpose, so not among the loop's
    // parallel accesses (BuildLoops.cpp markParallel takes only simple ones).
    Value *Kept = B.CreateLoad(I32, MaskAt, /*isVolatile=*/true, "warp.kept");
    B.CreateCondBr(B.CreateICmpEQ(B.CreateLoad(I64, CacheAt, /*isVolatile=*/true), Key), Join, Miss);
    B.SetInsertPoint(Miss);
    Value *StatesOfWarp = B.CreateInBoundsGEP(I32, B.CreateCall(States, {}, "warp.states"), First);
    Value *Asked = B.CreateCall(Present, {B.CreateInBoundsGEP(I32, Counts, First), Mine, Lanes, StatesOfWarp},
                                "warp.present");
    B.CreateStore(Asked, MaskAt, /*isVolatile=*/true);
    B.CreateStore(Key, CacheAt, /*isVolatile=*/true);
    B.CreateBr(Join);
    B.SetInsertPoint(Call);
    PHINode *Which = B.CreatePHI(I32, 3, "warp.took.part");
    Which->addIncoming(AllLanes, Here);
    Which->addIncoming(Kept, Ask);
    Which->addIncoming(Asked, Miss);
    Value *Result = B.CreateInsertValue(PoisonValue::get(Call->getType()), Words, 0);
    Result = B.CreateInsertValue(Result, Which, 1);
    Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
  }
  return "";
}

} // namespace offload::compiler
