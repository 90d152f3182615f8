// compiler/CpuRegionLoops.cpp — see CpuRegionLoops.h.
#include "CpuRegionLoops.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

#include <optional>

using namespace llvm;

namespace offload::compiler {

Value *copyComputationBefore(Value *V, Instruction *At) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  Instruction *Copy = I->clone();
  for (unsigned K = 0; K < I->getNumOperands(); ++K)
    Copy->setOperand(K, copyComputationBefore(I->getOperand(K), At));
  Copy->insertBefore(At->getIterator());
  return Copy;
}

bool trimToTestedRange(const RegionLoop &L, BasicBlock *Exit, UniformTest Uniform) {
  BasicBlock *Head = L.Head;
  auto *Br = dyn_cast<BranchInst>(Head->getTerminator());
  if (!Br || !Br->isConditional() || Head->getSinglePredecessor() != L.Body)
    return false;  // a loop inside the region may come back to Head and test again
  for (Instruction &I : *Head)
    if (&I != Br && (I.mayHaveSideEffects() || isa<PHINode>(I)))
      return false;  // work every work-item does before the test
  auto skipsToExit = [&](BasicBlock *BB) {
    for (unsigned Step = 0; Step < 8 && BB; ++Step, BB = BB->getSingleSuccessor()) {
      if (BB == Exit)
        return true;
      if (BB->size() != 1 || !isa<BranchInst>(BB->getTerminator()))
        return false;  // not an empty block on the way
    }
    return false;
  };
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return false;
  auto isIndex = [&](Value *V) {
    if (auto *C = dyn_cast<CastInst>(V); C && (isa<ZExtInst>(C) || isa<SExtInst>(C)))
      V = C->getOperand(0);  // x < 2^31: either extension is its value
    return V == L.X;
  };
  ICmpInst::Predicate Pred = Cmp->getPredicate();
  Value *Bound = Cmp->getOperand(1);
  if (!isIndex(Cmp->getOperand(0))) {
    if (!isIndex(Cmp->getOperand(1)))
      return false;
    Bound = Cmp->getOperand(0);
    Pred = ICmpInst::getSwappedPredicate(Pred);
  }
  unsigned Taken = 0;  // the successor that runs the body
  if (skipsToExit(Br->getSuccessor(0)) && !skipsToExit(Br->getSuccessor(1))) {
    Pred = ICmpInst::getInversePredicate(Pred);
    Taken = 1;
  } else if (!skipsToExit(Br->getSuccessor(1))) {
    return false;
  }
  if (!Bound->getType()->isIntegerTy() || Bound->getType()->getIntegerBitWidth() > 64 || !Uniform(Bound))
    return false;  // per work-item (it reads the index, or per-work-item memory)

  // [Lo, End) in 64 bits, saturating, computed at each row's start (LICM hoists it).
  Instruction *At = L.YLoop->getTerminator();
  IRBuilder<> G(At);
  Type *I64 = G.getInt64Ty();
  const bool Signed = ICmpInst::isSigned(Pred);
  Value *V = copyComputationBefore(Bound, At);
  V = Signed ? G.CreateSExtOrTrunc(V, I64) : G.CreateZExtOrTrunc(V, I64);
  Value *Zero = G.getInt64(0);
  auto plusOne = [&](Value *A) {
    return G.CreateBinaryIntrinsic(Signed ? Intrinsic::sadd_sat : Intrinsic::uadd_sat, A, G.getInt64(1));
  };
  auto notNegative = [&](Value *A) { return Signed ? G.CreateBinaryIntrinsic(Intrinsic::smax, A, Zero) : A; };
  Value *Lo = Zero, *Hi = nullptr;  // no Hi: the workgroup's end
  switch (Pred) {
  case ICmpInst::ICMP_ULT: case ICmpInst::ICMP_SLT: Hi = notNegative(V); break;
  case ICmpInst::ICMP_ULE: case ICmpInst::ICMP_SLE: Hi = notNegative(plusOne(V)); break;
  case ICmpInst::ICMP_UGT: case ICmpInst::ICMP_SGT: Lo = notNegative(plusOne(V)); break;
  case ICmpInst::ICMP_UGE: case ICmpInst::ICMP_SGE: Lo = notNegative(V); break;
  case ICmpInst::ICMP_EQ: Lo = V; Hi = G.CreateBinaryIntrinsic(Intrinsic::uadd_sat, V, G.getInt64(1)); break;
  default: return false;  // ne: two ranges
  }
  Value *Items = G.CreateZExt(L.Bx, I64);
  Value *End = Hi ? G.CreateBinaryIntrinsic(Intrinsic::umin, Hi, Items) : Items;
  Value *Any = G.CreateICmpULT(Lo, End, "some.tested");
  Type *IndexTy = L.X->getType();
  L.X->setIncomingValueForBlock(L.YLoop, G.CreateTrunc(Lo, IndexTy, "first.tested"));
  cast<ICmpInst>(L.Latch->getCondition())->setOperand(1, G.CreateTrunc(End, IndexTy, "end.tested"));
  G.CreateCondBr(Any, At->getSuccessor(0), L.YNext);
  At->eraseFromParent();
  BranchInst::Create(Br->getSuccessor(Taken), Br->getIterator());
  Br->eraseFromParent();
  if (Cmp->use_empty())
    Cmp->eraseFromParent();
  return true;
}

namespace {

/// The value that leaves the operation's target unchanged, when it has one.
std::optional<APInt> identity(AtomicRMWInst::BinOp Op, unsigned Bits) {
  switch (Op) {
  case AtomicRMWInst::Add: case AtomicRMWInst::Sub: case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor: case AtomicRMWInst::UMax:
    return APInt::getZero(Bits);
  case AtomicRMWInst::And: case AtomicRMWInst::UMin: return APInt::getAllOnes(Bits);
  case AtomicRMWInst::Max: return APInt::getSignedMinValue(Bits);
  case AtomicRMWInst::Min: return APInt::getSignedMaxValue(Bits);
  default: return std::nullopt;  // exchange, floating point, wrapping increments
  }
}

/// Two of the operation's operands combined (sub accumulates what is subtracted).
Value *combine(IRBuilder<> &B, AtomicRMWInst::BinOp Op, Value *A, Value *V) {
  switch (Op) {
  case AtomicRMWInst::Add: case AtomicRMWInst::Sub: return B.CreateAdd(A, V);
  case AtomicRMWInst::Or: return B.CreateOr(A, V);
  case AtomicRMWInst::Xor: return B.CreateXor(A, V);
  case AtomicRMWInst::And: return B.CreateAnd(A, V);
  case AtomicRMWInst::Max: return B.CreateBinaryIntrinsic(Intrinsic::smax, A, V);
  case AtomicRMWInst::Min: return B.CreateBinaryIntrinsic(Intrinsic::smin, A, V);
  case AtomicRMWInst::UMax: return B.CreateBinaryIntrinsic(Intrinsic::umax, A, V);
  default: return B.CreateBinaryIntrinsic(Intrinsic::umin, A, V);
  }
}

/// Whether, from just after I, a work-item may touch memory before it leaves the region's
/// blocks (In): anything that reads or writes it, I itself again included.
bool touchesMemoryAfter(Instruction *I, const DenseSet<BasicBlock *> &In) {
  for (Instruction *J = I->getNextNode(); J; J = J->getNextNode())
    if (J->mayReadOrWriteMemory())
      return true;
  SmallVector<BasicBlock *, 8> Work(successors(I->getParent()));
  DenseSet<BasicBlock *> Seen;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!In.contains(BB) || !Seen.insert(BB).second)
      continue;
    for (Instruction &J : *BB)
      if (J.mayReadOrWriteMemory())
        return true;
    append_range(Work, successors(BB));
  }
  return false;
}

} // namespace

BasicBlock *combineUniformAtomics(ArrayRef<BasicBlock *> Blocks, BasicBlock *Start, BasicBlock *Done,
                                  UniformTest Uniform) {
  DenseSet<BasicBlock *> In(Blocks.begin(), Blocks.end());
  SmallVector<AtomicRMWInst *, 4> Found;
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
          RMW && !RMW->isVolatile() && RMW->use_empty() && RMW->getType()->isIntegerTy() &&
          identity(RMW->getOperation(), RMW->getType()->getIntegerBitWidth()) &&
          Uniform(RMW->getPointerOperand()) && !touchesMemoryAfter(RMW, In))
        Found.push_back(RMW);
  if (Found.empty())
    return Done;

  Function &F = *Done->getParent();
  BasicBlock *Continue = Done;
  for (AtomicRMWInst *RMW : Found) {
    const AtomicRMWInst::BinOp Op = RMW->getOperation();
    Type *Ty = RMW->getType();
    Constant *Identity = ConstantInt::get(Ty, *identity(Op, Ty->getIntegerBitWidth()));
    // The accumulator: a stack slot of the function (mem2reg makes it a register), set before
    // the loops.
    IRBuilder<> E(&*F.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Acc = E.CreateAlloca(Ty, nullptr, "combined");
    IRBuilder<>(Start->getTerminator()).CreateStore(Identity, Acc);
    IRBuilder<> B(RMW);
    B.CreateStore(combine(B, Op, B.CreateLoad(Ty, Acc), RMW->getValOperand()), Acc);
    // After the loops: one atomic, unless no work-item changed the accumulator.
    IRBuilder<> D(Continue);
    Value *Total = D.CreateLoad(Ty, Acc, "combined.total");
    BasicBlock *Flush = BasicBlock::Create(F.getContext(), Continue->getName() + ".flush", &F);
    BasicBlock *After = BasicBlock::Create(F.getContext(), Continue->getName() + ".flushed", &F);
    D.CreateCondBr(D.CreateICmpNE(Total, Identity), Flush, After);
    Instruction *ToAfter = BranchInst::Create(After, Flush);
    IRBuilder<> FB(ToAfter);
    FB.CreateAtomicRMW(Op, copyComputationBefore(RMW->getPointerOperand(), ToAfter), Total,
                       RMW->getAlign(), RMW->getOrdering(), RMW->getSyncScopeID());
    RMW->eraseFromParent();
    Continue = After;
  }
  return Continue;
}

} // namespace offload::compiler
