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
#include "llvm/IR/PatternMatch.h"
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
/// Loops larger than this do not get their first and last iterations peeled (the image carries
/// such a loop four times).
constexpr unsigned MaxPeeledInstructions = 1000;

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

/// What a condition the loop does not change (`ty == 0 && gy > 0`: a tile's halo row) is for
/// most rows of work-items, if it can tell: a comparison as expectedResult has it, its first
/// operand taken as the index (`gy < n` holds, `ty == 0` does not, `gy > 0` holds), and logical
/// and, or, not of such.
std::optional<bool> expectedCondition(const Value *V, unsigned Depth = 0) {
  using namespace PatternMatch;
  if (Depth > 8)
    return std::nullopt;
  if (const auto *Cmp = dyn_cast<ICmpInst>(V)) {
    const ICmpInst::Predicate P = Cmp->getPredicate();
    if (ICmpInst::isEquality(P))
      return P == ICmpInst::ICMP_NE;
    bool IndexBelow = true;
    if (const auto *K = dyn_cast<ConstantInt>(Cmp->getOperand(1)))
      IndexBelow = K->getValue().sgt(1);
    return IndexBelow == (ICmpInst::isLT(P) || ICmpInst::isLE(P));
  }
  const Value *A = nullptr, *B = nullptr;
  const bool And = match(V, m_LogicalAnd(m_Value(A), m_Value(B)));
  if (And || match(V, m_LogicalOr(m_Value(A), m_Value(B)))) {
    std::optional<bool> EA = expectedCondition(A, Depth + 1), EB = expectedCondition(B, Depth + 1);
    if (!EA || !EB)
      return std::nullopt;
    return And ? *EA && *EB : *EA || *EB;
  }
  if (match(V, m_Not(m_Value(A))))
    if (std::optional<bool> EA = expectedCondition(A, Depth + 1))
      return !*EA;
  return std::nullopt;
}

/// L's exit test when it is `x + 1 <u Bound` on its canonical counter x, in its latch, the loop
/// going on when it holds: the test, else null.
ICmpInst *countedExit(const Loop &L, PHINode *Counter) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!Counter || !Latch || L.getExitingBlock() != Latch)
    return nullptr;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp || Cmp->getPredicate() != ICmpInst::ICMP_ULT || Br->getSuccessor(0) != L.getHeader() ||
      Cmp->getOperand(0) != Counter->getIncomingValueForBlock(Latch) || !L.isLoopInvariant(Cmp->getOperand(1)))
    return nullptr;
  return Cmp;
}

/// Gives Copy a loop id of its own with L's properties: one id naming two loops confuses passes
/// that mark a loop done (the vectoriser's llvm.loop.isvectorized).
void giveOwnLoopId(const Loop &L, Loop &Copy) {
  MDNode *Id = L.getLoopID();
  if (!Id)
    return;
  SmallVector<Metadata *, 4> Ops = {nullptr};
  for (unsigned K = 1; K < Id->getNumOperands(); ++K)
    Ops.push_back(Id->getOperand(K));
  MDNode *CopyId = MDNode::getDistinct(Id->getContext(), Ops);
  CopyId->replaceOperandWith(0, CopyId);
  Copy.setLoopID(CopyId);
}

/// Versions L on its range checks when it has some that can be evaluated before it; returns
/// the new loops' headers (none when L was left alone).
///
/// An (in)equality of the index with a bound at the range's first or last work-item (`x == 0`,
/// `x == block_dim_x() - 1`: a tile's halo) holds for one work-item of every workgroup, so the
/// copy would never run. When L has one, a loop counted `x + 1 < Bx` on its counter, no phi but
/// the counter and no value used after it, the checks are evaluated over its middle work-items
/// (the second to the one before last) instead, and where they hold the first work-item runs in
/// a copy of L as written, the middle ones in the version, the last one in another copy: in
/// order (a value the loop's end reads is the last work-item's).
SmallVector<BasicBlock *, 3> versionLoop(Loop &L, DominatorTree &DT, LoopInfo &LI, ScalarEvolution &SE) {
  BasicBlock *Preheader = L.getLoopPreheader();
  BasicBlock *Header = L.getHeader();
  if (!Preheader || Preheader->getSingleSuccessor() != Header || !L.getExitBlock() ||
      instructionCount(L) > MaxLoopInstructions)
    return {};
  SmallVector<RangeCheck, 4> Checks = findRangeChecks(L, SE);
  if (Checks.empty())
    return {};
  const SCEV *Taken = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(Taken))
    return {};
  PHINode *Counter = L.getCanonicalInductionVariable();  // x, from which the copy's indexes are made
  ICmpInst *Exiting = countedExit(L, Counter);
  bool PeelEnds = Exiting && instructionCount(L) <= MaxPeeledInstructions &&
                  llvm::any_of(Checks, [](const RangeCheck &C) { return C.Compare->isEquality(); }) &&
                  llvm::all_of(Header->phis(), [&](const PHINode &P) { return &P == Counter; }) &&
                  llvm::none_of(L.blocks(), [&](const BasicBlock *BB) {  // no value used after it
                    return llvm::any_of(*BB, [&](const Instruction &I) {
                      return llvm::any_of(I.users(), [&](const User *U) {
                        return !L.contains(cast<Instruction>(U)->getParent());
                      });
                    });
                  });
  // What each check is at the first and the last iteration, computed before the loop.
  SCEVExpander Expander(SE, "wi.range");
  Instruction *At = Preheader->getTerminator();
  if (PeelEnds && !Expander.isSafeToExpandAt(Taken, At))
    PeelEnds = false;
  // Each check over the work-items the version runs: from its first (Low) to its last (High).
  struct Expandable {
    RangeCheck Check;
    const SCEV *Low, *High;
  };
  SmallVector<Expandable, 4> Usable;
  for (const RangeCheck &C : Checks) {
    Type *Ty = C.Rec->getType();
    if (SE.getTypeSizeInBits(Taken->getType()) > SE.getTypeSizeInBits(Ty))
      continue;  // more iterations than the compared type counts
    const SCEV *LastIteration = SE.getNoopOrZeroExtend(Taken, Ty);
    const SCEV *Low = PeelEnds ? C.Rec->evaluateAtIteration(SE.getOne(Ty), SE) : C.Rec->getStart();
    const SCEV *High = C.Rec->evaluateAtIteration(
        PeelEnds ? SE.getMinusSCEV(LastIteration, SE.getOne(Ty)) : LastIteration, SE);
    if (Expander.isSafeToExpandAt(C.Rec->getStart(), At) && Expander.isSafeToExpandAt(Low, At) &&
        Expander.isSafeToExpandAt(High, At) && Expander.isSafeToExpandAt(C.Bound, At))
      Usable.push_back({C, Low, High});
  }
  if (Usable.empty())
    return {};
  // Tests of the row (comparisons of values that change with y or z, not with x: a tile's halo
  // rows, `ty == 0 && gy > 0`, and `gy < n`), computed before the loop: the copy is for the rows
  // where each has the result most rows give (a halo row runs the loop as written), as loop
  // unswitching would, without a copy per combination.
  SmallVector<std::pair<ICmpInst *, bool>, 4> RowTests;
  auto changesWithRow = [&](const Value *V) {
    return SCEVExprContains(SE.getSCEV(const_cast<Value *>(V)), [&](const SCEV *S) {
      const auto *AR = dyn_cast<SCEVAddRecExpr>(S);
      return AR && AR->getLoop() != &L && AR->getLoop()->contains(&L);
    });
  };
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : make_early_inc_range(*BB)) {
      auto *Cmp = dyn_cast<ICmpInst>(&I);
      if (!Cmp || RowTests.size() >= 8 || !Cmp->getOperand(0)->getType()->isIntegerTy() ||
          llvm::any_of(Checks, [&](const RangeCheck &C) { return C.Compare == Cmp; }) ||
          llvm::none_of(Cmp->operands(), [&](const Use &Op) { return changesWithRow(Op.get()); }))
        continue;
      bool Changed = false;
      if (L.makeLoopInvariant(Cmp, Changed, At, nullptr, &SE))
        RowTests.push_back({Cmp, *expectedCondition(Cmp)});
    }
  if (!formLCSSA(L, DT, &LI, &SE) && !L.isLCSSAForm(DT))
    return {};
  BasicBlock *Exit = L.getExitBlock();
  // Each value of the loop that is a check's recurrence (or its extension to a wider type, as
  // an index is): in the copy it is First + x, which does not wrap there, so that LLVM sees the
  // addresses made from it as consecutive (a 32-bit index's `and i64 %i, 4294967295` is not).
  struct Index {
    Instruction *Value;
    unsigned Check;
    Instruction::CastOps Extend;  // CastOps(0): the recurrence itself
  };
  SmallVector<Index, 8> Indexes;
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
  if (PeelEnds) {  // a first, a last and at least one middle work-item
    Value *TakenHere = Expander.expandCodeFor(Taken, Taken->getType(), At);
    B.SetInsertPoint(At);
    UseCopy = B.CreateICmpUGE(TakenHere, ConstantInt::get(Taken->getType(), 2));
  }
  for (const Expandable &E : Usable) {
    Type *Ty = E.Check.Rec->getType();
    Value *First = Expander.expandCodeFor(E.Check.Rec->getStart(), Ty, At);
    Value *Low = Expander.expandCodeFor(E.Low, Ty, At);
    Value *High = Expander.expandCodeFor(E.High, Ty, At);
    Value *Bound = Expander.expandCodeFor(E.Check.Bound, Ty, At);
    B.SetInsertPoint(At);
    const ICmpInst::Predicate P = E.Check.Compare->getPredicate();
    const bool Result = expectedResult(E.Check);
    // The value grows by one from First (the first work-item's) to High: no wrap between them
    // when High is not below First as the comparison orders them.
    Value *Holds = ICmpInst::isSigned(P) ? B.CreateICmpSLE(First, High) : B.CreateICmpULE(First, High);
    if (ICmpInst::isEquality(P)) {
      // (In)equal for every work-item the version runs when the bound is outside [Low, High].
      Holds = B.CreateAnd(Holds, B.CreateOr(B.CreateICmpULT(Bound, Low), B.CreateICmpULT(High, Bound)));
    } else {
      auto Compare = [&](Value *Rec) {
        Value *C = E.Check.RecFirst ? B.CreateICmp(P, Rec, Bound) : B.CreateICmp(P, Bound, Rec);
        return Result ? C : B.CreateNot(C);
      };
      Holds = B.CreateAnd(Holds, B.CreateAnd(Compare(Low), Compare(High)));
    }
    UseCopy = UseCopy ? B.CreateAnd(UseCopy, Holds) : Holds;
    Firsts.push_back(First);
    Expected.emplace_back(E.Check.Compare, Result);
  }
  B.SetInsertPoint(At);
  for (auto [Cmp, Expected] : RowTests) {
    // Computed now where the loop may not have computed it (under a test of its own): frozen, a
    // poison value (an `add nsw` that would overflow there) picks a version, not undefined
    // behaviour; in the version it is a constant, which refines it.
    Value *Now = B.CreateFreeze(Cmp);
    UseCopy = B.CreateAnd(UseCopy, Expected ? Now : B.CreateNot(Now));
  }
  UseCopy->setName("wi.range.same");
  // Preheader → (checks) → the original loop's new preheader, or the copy's.
  BasicBlock *Checked = Preheader;
  BasicBlock *OriginalPreheader = SplitEdge(Checked, Header, &DT, &LI);
  auto cloneL = [&](const char *Suffix, ValueToValueMapTy &Map) {
    SmallVector<BasicBlock *, 16> Blocks;
    Loop *Clone = cloneLoopWithPreheader(OriginalPreheader, Checked, &L, Map, Suffix, &LI, &DT, Blocks);
    remapInstructionsInBlocks(Blocks, Map);
    giveOwnLoopId(L, *Clone);
    return Clone;
  };
  ValueToValueMapTy Map;
  Loop *Copy = cloneL(".same", Map);
  auto *CopyPreheader = cast<BasicBlock>(Map[OriginalPreheader]);
  SmallVector<BasicBlock *, 3> Made = {Copy->getHeader()};
  BasicBlock *Enter = CopyPreheader;
  if (PeelEnds) {
    // first (x = 0) -> the version (1 <= x < Bx - 1) -> last (x = Bx - 1) -> the exit.
    ValueToValueMapTy FirstMap, LastMap;
    Loop *FirstLoop = cloneL(".first", FirstMap);
    Loop *LastLoop = cloneL(".last", LastMap);
    Made.append({FirstLoop->getHeader(), LastLoop->getHeader()});
    auto *FirstPreheader = cast<BasicBlock>(FirstMap[OriginalPreheader]);
    auto *LastPreheader = cast<BasicBlock>(LastMap[OriginalPreheader]);
    Value *Bx = Exiting->getOperand(1);
    auto exitTo = [&](ValueToValueMapTy &M, BasicBlock *To) {
      cast<BasicBlock>(M[L.getLoopLatch()])->getTerminator()->replaceSuccessorWith(Exit, To);
    };
    cast<ICmpInst>(FirstMap[Exiting])->setOperand(1, ConstantInt::get(Bx->getType(), 1));
    exitTo(FirstMap, CopyPreheader);
    IRBuilder<> CB(CopyPreheader->getTerminator());
    cast<ICmpInst>(Map[Exiting])->setOperand(1, CB.CreateSub(Bx, ConstantInt::get(Bx->getType(), 1)));
    auto *CopyCounter = cast<PHINode>(Map[Counter]);
    CopyCounter->setIncomingValueForBlock(CopyPreheader, ConstantInt::get(Counter->getType(), 1));
    exitTo(Map, LastPreheader);
    IRBuilder<> LB(LastPreheader->getTerminator());
    auto *LastCounter = cast<PHINode>(LastMap[Counter]);
    LastCounter->setIncomingValueForBlock(
        LastPreheader, LB.CreateZExtOrTrunc(LB.CreateSub(Bx, ConstantInt::get(Bx->getType(), 1)), Counter->getType()));
    Enter = FirstPreheader;
  }
  Checked->getTerminator()->eraseFromParent();
  BranchInst::Create(Enter, OriginalPreheader, UseCopy, Checked);
  // The exit's PHIs (LCSSA) take the copy's values too.
  for (PHINode &Phi : Exit->phis())
    for (unsigned K = 0, N = Phi.getNumIncomingValues(); K < N; ++K)
      if (L.contains(Phi.getIncomingBlock(K))) {
        Value *V = Phi.getIncomingValue(K);
        Value *Copied = Map.count(V) ? static_cast<Value *>(Map[V]) : V;
        Phi.addIncoming(Copied, cast<BasicBlock>(Map[Phi.getIncomingBlock(K)]));
      }
  // In the copy, each check is its expected value, and each index First + x.
  for (auto [Cmp, Expected] : RowTests)
    for (Use &U : make_early_inc_range(Cmp->uses()))
      if (auto *User = dyn_cast<Instruction>(U.getUser()); User && Copy->contains(User->getParent()))
        U.set(ConstantInt::getBool(Cmp->getContext(), Expected));
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
  return Made;
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
      if (SmallVector<BasicBlock *, 3> Made = versionLoop(*L, DT, LI, SE); !Made.empty()) {
        Done.insert(Made.begin(), Made.end());
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
