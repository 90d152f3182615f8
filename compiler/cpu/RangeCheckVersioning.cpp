// compiler/cpu/RangeCheckVersioning.cpp — see RangeCheckVersioning.h.
#include "RangeCheckVersioning.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace offload::compiler {
namespace {

/// Loops larger than this are not copied (the copy is code the image carries twice).
constexpr unsigned MaxLoopInstructions = 4000;

/// One comparison of the loop: the step-one recurrence `Rec` against the invariant `Bound`
/// (`RecFirst`: Rec is the comparison's first operand). An (in)equality is constant where the
/// bound is outside the recurrence's range (`x == 0` in every workgroup but the first).
struct RangeCheck {
  ICmpInst *Compare;
  const SCEVAddRecExpr *Rec;
  const SCEV *Bound;
  bool RecFirst;
};

bool isWorkItemLoop(const Loop &L) {
  if (!L.isInnermost())
    return false;
  MDNode *Id = L.getLoopID();
  return Id && findOptionMDForLoopID(Id, "llvm.loop.parallel_accesses");
}

unsigned instructionCount(const Loop &L) {
  unsigned Count = 0;
  for (const BasicBlock *BB : L.blocks())
    Count += static_cast<unsigned>(BB->size());
  return Count;
}

/// Whether Cmp decides (or helps decide) whether L goes on: the loop's own count.
bool decidesExit(const ICmpInst &Cmp, const Loop &L) {
  SmallVector<const Value *, 8> Work = {&Cmp};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || !L.contains(I))
        continue;
      if (I->isTerminator()) {
        if (L.isLoopExiting(I->getParent()))
          return true;
      } else if (I->getType()->isIntegerTy(1)) {
        Work.push_back(I);  // and/or/select of conditions
      }
    }
  }
  return false;
}

/// The comparisons of L that are range checks over its iterations.
SmallVector<RangeCheck, 4> findRangeChecks(const Loop &L, ScalarEvolution &SE) {
  SmallVector<RangeCheck, 4> Checks;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Cmp = dyn_cast<ICmpInst>(&I);
      if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy() ||
          Cmp->getOperand(0)->getType()->getIntegerBitWidth() < 32 || decidesExit(*Cmp, L))
        continue;
      for (unsigned Side : {0u, 1u}) {
        const auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Cmp->getOperand(Side)));
        if (!Rec || Rec->getLoop() != &L || !Rec->isAffine())
          continue;
        const auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
        const SCEV *Bound = SE.getSCEV(Cmp->getOperand(1 - Side));
        if (!Step || !Step->getAPInt().isOne() || !SE.isLoopInvariant(Bound, &L))
          continue;
        Checks.push_back({Cmp, Rec, Bound, Side == 0});
        break;
      }
    }
  return Checks;
}

/// What a check gives for the workgroups in the middle of the range (the copy is for them):
/// the index below a bound that is a size, above one that is a small constant (an edge: `> 0`,
/// `>= 1`); different from the index (`!=`).
bool expectedResult(const RangeCheck &C) {
  ICmpInst::Predicate P = C.Compare->getPredicate();
  if (!C.RecFirst)
    P = ICmpInst::getSwappedPredicate(P);  // now "index P bound"
  if (ICmpInst::isEquality(P))
    return P == ICmpInst::ICMP_NE;
  bool IndexBelow = true;
  if (const auto *K = dyn_cast<SCEVConstant>(C.Bound))
    IndexBelow = K->getAPInt().sgt(1);
  const bool LessLike = ICmpInst::isLT(P) || ICmpInst::isLE(P);
  return IndexBelow == LessLike;
}

/// Versions L on its range checks when it has some that can be evaluated before it; returns
/// the new loop's header (null when L was left alone).
BasicBlock *versionLoop(Loop &L, DominatorTree &DT, LoopInfo &LI, ScalarEvolution &SE) {
  BasicBlock *Preheader = L.getLoopPreheader();
  BasicBlock *Header = L.getHeader();
  if (!Preheader || Preheader->getSingleSuccessor() != Header || !L.getExitBlock() ||
      instructionCount(L) > MaxLoopInstructions)
    return nullptr;
  SmallVector<RangeCheck, 4> Checks = findRangeChecks(L, SE);
  if (Checks.empty())
    return nullptr;
  const SCEV *Taken = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(Taken))
    return nullptr;
  // What each check is at the first and the last iteration, computed before the loop.
  SCEVExpander Expander(SE, "wi.range");
  Instruction *At = Preheader->getTerminator();
  struct Expandable {
    RangeCheck Check;
    const SCEV *Last;
  };
  SmallVector<Expandable, 4> Usable;
  for (const RangeCheck &C : Checks) {
    Type *Ty = C.Rec->getType();
    if (SE.getTypeSizeInBits(Taken->getType()) > SE.getTypeSizeInBits(Ty))
      continue;  // more iterations than the compared type counts
    const SCEV *Last = C.Rec->evaluateAtIteration(SE.getNoopOrZeroExtend(Taken, Ty), SE);
    if (Expander.isSafeToExpandAt(C.Rec->getStart(), At) && Expander.isSafeToExpandAt(Last, At) &&
        Expander.isSafeToExpandAt(C.Bound, At))
      Usable.push_back({C, Last});
  }
  if (Usable.empty())
    return nullptr;
  if (!formLCSSA(L, DT, &LI, &SE) && !L.isLCSSAForm(DT))
    return nullptr;
  // Each value of the loop that is a check's recurrence (or its extension to a wider type, as
  // an index is): in the copy it is First + x, which does not wrap there, so that LLVM sees the
  // addresses made from it as consecutive (a 32-bit index's `and i64 %i, 4294967295` is not).
  struct Index {
    Instruction *Value;
    unsigned Check;
    Instruction::CastOps Extend;  // CastOps(0): the recurrence itself
  };
  SmallVector<Index, 8> Indexes;
  PHINode *Counter = L.getCanonicalInductionVariable();  // x, from which the copy's indexes are made
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (!I.getType()->isIntegerTy() || isa<ICmpInst>(I) || &I == Counter)
        continue;
      const SCEV *S = SE.getSCEV(&I);
      for (unsigned K = 0; K < Usable.size(); ++K) {
        const SCEVAddRecExpr *Rec = Usable[K].Check.Rec;
        const bool Signed = ICmpInst::isSigned(Usable[K].Check.Compare->getPredicate());
        if (S == Rec)
          Indexes.push_back({&I, K, Instruction::CastOps(0)});
        else if (const auto *Z = dyn_cast<SCEVZeroExtendExpr>(S); Z && !Signed && Z->getOperand() == Rec)
          Indexes.push_back({&I, K, Instruction::ZExt});
        else if (const auto *X = dyn_cast<SCEVSignExtendExpr>(S); X && Signed && X->getOperand() == Rec)
          Indexes.push_back({&I, K, Instruction::SExt});
        else
          continue;
        break;
      }
    }
  IRBuilder<> B(At);
  Value *UseCopy = nullptr;
  SmallVector<Value *, 4> Firsts;
  SmallVector<std::pair<ICmpInst *, bool>, 4> Expected;  // each check, and its value in the copy
  for (const Expandable &E : Usable) {
    Type *Ty = E.Check.Rec->getType();
    Value *First = Expander.expandCodeFor(E.Check.Rec->getStart(), Ty, At);
    Value *Last = Expander.expandCodeFor(E.Last, Ty, At);
    Value *Bound = Expander.expandCodeFor(E.Check.Bound, Ty, At);
    B.SetInsertPoint(At);
    const ICmpInst::Predicate P = E.Check.Compare->getPredicate();
    const bool Result = expectedResult(E.Check);
    // The value grows by one from First to Last: no wrap between them when Last is not below
    // First as the comparison orders them.
    Value *Holds = ICmpInst::isSigned(P) ? B.CreateICmpSLE(First, Last) : B.CreateICmpULE(First, Last);
    if (ICmpInst::isEquality(P)) {
      // (In)equal for every work-item when the bound is outside [First, Last].
      Holds = B.CreateAnd(Holds, B.CreateOr(B.CreateICmpULT(Bound, First), B.CreateICmpULT(Last, Bound)));
    } else {
      auto Compare = [&](Value *Rec) {
        Value *C = E.Check.RecFirst ? B.CreateICmp(P, Rec, Bound) : B.CreateICmp(P, Bound, Rec);
        return Result ? C : B.CreateNot(C);
      };
      Holds = B.CreateAnd(Holds, B.CreateAnd(Compare(First), Compare(Last)));
    }
    UseCopy = UseCopy ? B.CreateAnd(UseCopy, Holds) : Holds;
    Firsts.push_back(First);
    Expected.emplace_back(E.Check.Compare, Result);
  }
  UseCopy->setName("wi.range.same");
  // Preheader → (checks) → the original loop's new preheader, or the copy's.
  BasicBlock *Checked = Preheader;
  BasicBlock *OriginalPreheader = SplitEdge(Checked, Header, &DT, &LI);
  ValueToValueMapTy Map;
  SmallVector<BasicBlock *, 16> Blocks;
  Loop *Copy = cloneLoopWithPreheader(OriginalPreheader, Checked, &L, Map, ".same", &LI, &DT, Blocks);
  remapInstructionsInBlocks(Blocks, Map);
  auto *CopyPreheader = cast<BasicBlock>(Map[OriginalPreheader]);
  Checked->getTerminator()->eraseFromParent();
  BranchInst::Create(CopyPreheader, OriginalPreheader, UseCopy, Checked);
  // The exit's PHIs (LCSSA) take the copy's values too.
  BasicBlock *Exit = L.getExitBlock();
  for (PHINode &Phi : Exit->phis())
    for (unsigned K = 0, N = Phi.getNumIncomingValues(); K < N; ++K)
      if (L.contains(Phi.getIncomingBlock(K))) {
        Value *V = Phi.getIncomingValue(K);
        Value *Copied = Map.count(V) ? static_cast<Value *>(Map[V]) : V;
        Phi.addIncoming(Copied, cast<BasicBlock>(Map[Phi.getIncomingBlock(K)]));
      }
  // In the copy, each check is its expected value, and each index First + x.
  for (auto &[Compare, Result] : Expected) {
    auto *Copied = cast<Instruction>(Map[Compare]);
    Copied->replaceAllUsesWith(ConstantInt::getBool(Compare->getContext(), Result));
    Copied->eraseFromParent();
  }
  if (Counter) {
    auto *X = cast<PHINode>(Map[Counter]);
    IRBuilder<> In(Copy->getHeader(), Copy->getHeader()->getFirstInsertionPt());
    SmallVector<Value *, 4> Plus(Usable.size(), nullptr);  // First + x, made when first needed
    for (const Index &I : Indexes) {
      const bool Signed = ICmpInst::isSigned(Usable[I.Check].Check.Compare->getPredicate());
      Value *&Sum = Plus[I.Check];
      if (!Sum) {
        Value *Offset = In.CreateZExtOrTrunc(X, Firsts[I.Check]->getType());
        Sum = In.CreateAdd(Firsts[I.Check], Offset, "wi.index", /*HasNUW=*/!Signed, /*HasNSW=*/Signed);
      }
      Value *Replacement = I.Extend ? In.CreateCast(I.Extend, Sum, I.Value->getType()) : Sum;
      auto *Copied = cast<Instruction>(Map[I.Value]);
      Copied->replaceAllUsesWith(Replacement);
    }
  }
  // A loop id of its own (the same properties): one id naming two loops confuses passes that
  // mark a loop done (the vectoriser's llvm.loop.isvectorized).
  if (MDNode *Id = L.getLoopID()) {
    SmallVector<Metadata *, 4> Ops = {nullptr};
    for (unsigned K = 1; K < Id->getNumOperands(); ++K)
      Ops.push_back(Id->getOperand(K));
    MDNode *CopyId = MDNode::getDistinct(Id->getContext(), Ops);
    CopyId->replaceOperandWith(0, CopyId);
    Copy->setLoopID(CopyId);
  }
  return Copy->getHeader();
}

} // namespace

unsigned versionRangeChecks(Function &F) {
  if (F.isDeclaration())
    return 0;
  TargetLibraryInfoImpl TLII(Triple(F.getParent()->getTargetTriple()));
  TargetLibraryInfo TLI(TLII);
  SmallPtrSet<BasicBlock *, 8> Done;  // headers of loops seen (a copy is not versioned again)
  unsigned Versioned = 0;
  for (bool Changed = true; Changed;) {
    Changed = false;
    // Analyses afresh after each change (the functions are small; the loops few).
    DominatorTree DT(F);
    LoopInfo LI(DT);
    AssumptionCache AC(F);
    ScalarEvolution SE(F, TLI, AC, DT, LI);
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!isWorkItemLoop(*L) || !Done.insert(L->getHeader()).second)
        continue;
      if (BasicBlock *CopyHeader = versionLoop(*L, DT, LI, SE)) {
        Done.insert(CopyHeader);
        ++Versioned;
        Changed = true;
        break;
      }
    }
  }
  return Versioned;
}

unsigned versionRangeChecks(Module &M) {
  unsigned Versioned = 0;
  for (Function &F : M)
    Versioned += versionRangeChecks(F);
  return Versioned;
}

} // namespace offload::compiler
