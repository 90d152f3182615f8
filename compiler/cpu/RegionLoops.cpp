// compiler/cpu/RegionLoops.cpp — see RegionLoops.h.
#include "RegionLoops.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

#include <functional>
#include <optional>

using namespace llvm;

namespace offload::compiler {

Value *copyComputationBefore(Value *V, Instruction *At, ArrayRef<Value *> Keep,
                             function_ref<Value *(Instruction *)> Replace) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || llvm::is_contained(Keep, V))
    return V;
  if (Replace)
    if (Value *With = Replace(I))
      return With;
  Instruction *Copy = I->clone();
  for (unsigned K = 0; K < I->getNumOperands(); ++K)
    Copy->setOperand(K, copyComputationBefore(I->getOperand(K), At, Keep, Replace));
  Copy->insertBefore(At->getIterator());
  return Copy;
}

namespace {

/// One test of trimToTestedRange: Cmp's index side is Terms + x (Terms fixed through a row).
struct IndexTest {
  ICmpInst::Predicate Pred;
  Value *Bound;
  SmallVector<Value *, 2> Terms;
  unsigned Taken;  ///< the successor that runs the body
};

} // namespace

bool trimToTestedRange(const RegionLoop &L, BasicBlock *Exit, UniformTest Uniform) {
  auto skipsToExit = [&](BasicBlock *BB) {
    for (unsigned Step = 0; Step < 8 && BB; ++Step, BB = BB->getSingleSuccessor()) {
      if (BB == Exit)
        return true;
      if (BB->size() != 1 || !isa<BranchInst>(BB->getTerminator()))
        return false;  // not an empty block on the way
    }
    return false;
  };
  // What is fixed through a row: y, z, and what is computed from them and uniform values.
  std::function<bool(Value *, unsigned)> rowFixed = [&](Value *V, unsigned Depth) {
    if (V == L.Y || V == L.Z || Uniform(V))
      return true;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 8 || !(isa<BinaryOperator>(I) || isa<CastInst>(I)))
      return false;
    return llvm::all_of(I->operands(), [&](Value *Op) { return rowFixed(Op, Depth + 1); });
  };
  // Whether V is x plus terms fixed through a row (`id + half` with id = row + x, the linear
  // index of local_linear_id(); at most 1024 work-items: no wrapping), collecting them.
  bool SignExtended = false;  // the tested value is sext(...): of row + x, exact only below 2^31
  std::function<bool(Value *, SmallVectorImpl<Value *> &, unsigned)> isIndex =
      [&](Value *V, SmallVectorImpl<Value *> &Terms, unsigned Depth) {
        if (auto *C = dyn_cast<CastInst>(V); C && (isa<ZExtInst>(C) || isa<SExtInst>(C))) {
          V = C->getOperand(0);  // x < 2^31: either extension is its value
          SignExtended = SignExtended || (Depth == 0 && isa<SExtInst>(C));
        }
        if (V == L.X)
          return true;
        auto *Add = dyn_cast<BinaryOperator>(V);
        if (!Add || Add->getOpcode() != Instruction::Add || !Add->getType()->isIntegerTy(32) || Depth > 4)
          return false;
        for (unsigned K = 0; K < 2; ++K)
          if (rowFixed(Add->getOperand(1 - K), 0) && isIndex(Add->getOperand(K), Terms, Depth + 1)) {
            Terms.push_back(Add->getOperand(1 - K));
            return true;
          }
        return false;
      };
  // The test that ends Block (entered only from Pred, no side effects before it), if any.
  auto testIn = [&](BasicBlock *Block, BasicBlock *Pred) -> std::optional<IndexTest> {
    auto *Br = dyn_cast<BranchInst>(Block->getTerminator());
    if (!Br || !Br->isConditional() || Block->getSinglePredecessor() != Pred)
      return std::nullopt;  // a loop inside the region may come back and test again
    for (Instruction &I : *Block)
      if (&I != Br && (I.mayHaveSideEffects() || isa<PHINode>(I)))
        return std::nullopt;  // work every work-item does before the test
    auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
    if (!Cmp)
      return std::nullopt;
    IndexTest T{Cmp->getPredicate(), Cmp->getOperand(1), {}, 0};
    SignExtended = false;
    if (!isIndex(Cmp->getOperand(0), T.Terms, 0)) {
      T.Terms.clear();
      SignExtended = false;
      if (!isIndex(Cmp->getOperand(1), T.Terms, 0))
        return std::nullopt;
      T.Bound = Cmp->getOperand(0);
      T.Pred = ICmpInst::getSwappedPredicate(T.Pred);
    }
    if (!T.Terms.empty() && (ICmpInst::isSigned(T.Pred) || SignExtended))
      return std::nullopt;  // row + x against a signed bound: not worth the cases
    if (skipsToExit(Br->getSuccessor(0)) && !skipsToExit(Br->getSuccessor(1))) {
      T.Pred = ICmpInst::getInversePredicate(T.Pred);
      T.Taken = 1;
    } else if (!skipsToExit(Br->getSuccessor(1))) {
      return std::nullopt;
    }
    if (!T.Bound->getType()->isIntegerTy() || T.Bound->getType()->getIntegerBitWidth() > 64 || !Uniform(T.Bound))
      return std::nullopt;  // per work-item (it reads the index, or per-work-item memory)
    if (T.Pred != ICmpInst::ICMP_EQ && !ICmpInst::isRelational(T.Pred))
      return std::nullopt;  // ne: two ranges
    return T;
  };

  // [Lo, End) in 64 bits, saturating, computed at each row's start (LICM hoists it): the
  // intersection of the successive tests (`if (id < half && id + half < n)`).
  Instruction *At = L.YLoop->getTerminator();
  IRBuilder<> G(At);
  Type *I64 = G.getInt64Ty();
  Value *Zero = G.getInt64(0), *Lo = Zero, *End = G.CreateZExt(L.Bx, I64);
  BasicBlock *Block = L.Head, *Pred = L.Body;
  bool Any = false;
  while (std::optional<IndexTest> T = testIn(Block, Pred)) {
    const bool Signed = ICmpInst::isSigned(T->Pred);
    Value *V = copyComputationBefore(T->Bound, At);
    V = Signed ? G.CreateSExtOrTrunc(V, I64) : G.CreateZExtOrTrunc(V, I64);
    auto plusOne = [&](Value *A) {
      return G.CreateBinaryIntrinsic(Signed ? Intrinsic::sadd_sat : Intrinsic::uadd_sat, A, G.getInt64(1));
    };
    auto notNegative = [&](Value *A) { return Signed ? G.CreateBinaryIntrinsic(Intrinsic::smax, A, Zero) : A; };
    Value *TLo = nullptr, *THi = nullptr;  // none: that side of the workgroup's
    switch (T->Pred) {
    case ICmpInst::ICMP_ULT: case ICmpInst::ICMP_SLT: THi = notNegative(V); break;
    case ICmpInst::ICMP_ULE: case ICmpInst::ICMP_SLE: THi = notNegative(plusOne(V)); break;
    case ICmpInst::ICMP_UGT: case ICmpInst::ICMP_SGT: TLo = notNegative(plusOne(V)); break;
    case ICmpInst::ICMP_UGE: case ICmpInst::ICMP_SGE: TLo = notNegative(V); break;
    default: TLo = V; THi = G.CreateBinaryIntrinsic(Intrinsic::uadd_sat, V, G.getInt64(1)); break;  // eq
    }
    if (!T->Terms.empty()) {
      // Terms + x, added in 32 bits as the kernel does: x in [TLo - S, THi - S) (none below 0)
      // when S + x cannot wrap for any x of the row (S + block_dim_x <= 2^32: `t - 5u` wraps);
      // else the whole row. The test itself stays (adversarial pass: `t - 5u < len` ran none).
      Value *Sum = G.getInt32(0);
      for (Value *Term : T->Terms)
        Sum = G.CreateAdd(Sum, copyComputationBefore(Term, At, {L.Y, L.Z}));
      Value *S = G.CreateZExt(Sum, I64);
      Value *Exact = G.CreateICmpULE(G.CreateAdd(S, G.CreateZExt(L.Bx, I64)), G.getInt64(uint64_t(1) << 32));
      if (TLo)
        TLo = G.CreateSelect(Exact, G.CreateBinaryIntrinsic(Intrinsic::usub_sat, TLo, S), Zero);
      if (THi)
        THi = G.CreateSelect(Exact, G.CreateBinaryIntrinsic(Intrinsic::usub_sat, THi, S), G.CreateZExt(L.Bx, I64));
    }
    if (TLo)
      Lo = G.CreateBinaryIntrinsic(Intrinsic::umax, Lo, TLo);
    if (THi)
      End = G.CreateBinaryIntrinsic(Intrinsic::umin, End, THi);
    // Every work-item of the range passes the test of x alone: its branch goes straight on
    // (a test of terms + x, whose range may be the whole row, is kept).
    auto *Br = cast<BranchInst>(Block->getTerminator());
    BasicBlock *Taken = Br->getSuccessor(T->Taken);
    if (T->Terms.empty()) {
      auto *Cmp = cast<ICmpInst>(Br->getCondition());
      BranchInst::Create(Taken, Br->getIterator());
      Br->eraseFromParent();
      if (Cmp->use_empty())
        Cmp->eraseFromParent();
    }
    Any = true;
    Pred = Block;
    Block = Taken;
  }
  if (!Any) {
    if (auto *Unused = dyn_cast<Instruction>(End))  // the row's end: nothing was trimmed
      Unused->eraseFromParent();
    return false;
  }
  Value *Some = G.CreateICmpULT(Lo, End, "some.tested");
  Type *IndexTy = L.X->getType();
  L.X->setIncomingValueForBlock(L.YLoop, G.CreateTrunc(Lo, IndexTy, "first.tested"));
  cast<ICmpInst>(L.Latch->getCondition())->setOperand(1, G.CreateTrunc(End, IndexTy, "end.tested"));
  G.CreateCondBr(Some, At->getSuccessor(0), L.YNext);
  At->eraseFromParent();
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
  // A relaxed atomic load whose value is unused has no effect; offload::atomic_add(p, 0) is one
  // on the CPU device (offload/atomic.hpp reads instead of adding 0), which made every
  // atomic_add of a variable conditional on it and kept it from being combined (a grid-stride
  // sum's one atomic per work-item: atomic-reduction at 0.23 of OpenMP, 0.04 on 2 threads).
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : make_early_inc_range(*BB))
      if (auto *L = dyn_cast<LoadInst>(&I); L && L->isAtomic() && !L->isVolatile() &&
                                            L->getOrdering() == AtomicOrdering::Monotonic && L->use_empty())
        L->eraseFromParent();
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
  // Another atomic, a fence or a volatile access in the region may be a work-item waiting for
  // one of these atomics (a spin lock released by atomic_sub, a flag set by work-item 0 that
  // work-item 1 polls, a handshake with another workgroup): delayed to the end of the loop,
  // it would never come (adversarial pass, 2026-12-04: three such kernels hung). Combined only
  // where every atomic of the region is one combined.
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB) {
      const bool Volatile = (isa<LoadInst>(I) && cast<LoadInst>(I).isVolatile()) ||
                            (isa<StoreInst>(I) && cast<StoreInst>(I).isVolatile());
      if ((I.isAtomic() || isa<FenceInst>(I) || Volatile) && !llvm::is_contained(Found, &I))
        return Done;
    }

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
