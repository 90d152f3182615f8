// compiler/PointerParams.cpp — see PointerParams.h.
#include "PointerParams.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace llvm;

namespace offload::compiler {
namespace {

/// The variable E names, through parentheses and implicit conversions (the read of an lvalue, a
/// conversion to a const or base pointer, an array's decay), or null.
const VarDecl *namedVar(const Expr *E) {
  const auto *Ref = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Whether V holds a pointer (or is a reference to one).
bool holdsPointer(const VarDecl &V) {
  return V.getType().getNonReferenceType()->isPointerType();
}

/// Whether E is the constant 0 (`x[0]`, `x + 0`; also `x[N - N]`, `x[I]` with I = 0).
bool isZero(const Expr *E, const ASTContext &Ctx) {
  if (E->isValueDependent() || E->isTypeDependent())
    return false;
  Expr::EvalResult R;
  return E->EvaluateAsInt(R, Ctx) && R.Val.getInt().isZero();
}

/// A use of a pointer variable as an array, before it is known whether the variable is a kernel
/// parameter or a copy of one.
struct Candidate {
  const Expr *Use;
  const VarDecl *Var;
  /// For a pointer difference (`x - y`): the other pointer's variable, or null if it names none
  /// (a difference of one object's pointer with itself, or a copy of it, is fine).
  const VarDecl *Other;
  bool Difference;
  bool Indexed;
};

/// One walk over the kernel's body: the pointer locals and what they are given, the references
/// to them that may change them behind our back, and every use of a pointer variable as an
/// array.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  explicit BodyScan(ASTContext &Ctx) : Ctx(Ctx) {}

  bool shouldVisitLambdaBody() const { return true; }
  // Unevaluated operands (`sizeof(x[i])`, `decltype(x + i)`) use no memory and change nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = true) { return true; }

  struct Local {
    /// What the local is given: its initialiser and the right-hand sides of plain assignments.
    SmallVector<const Expr *, 2> Sources;
    /// Its address is taken, or a reference is bound to it: it may change unseen.
    bool Escapes = false;
  };
  MapVector<const VarDecl *, Local> Locals;
  std::vector<Candidate> Uses;

  bool VisitVarDecl(VarDecl *V) {
    if (isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !holdsPointer(*V))
      return true;
    Local &L = Locals[V];
    if (const Expr *Init = V->getInit())
      L.Sources.push_back(Init);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()); V && Locals.count(V))
      Refs.push_back(Ref);
    return true;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_LValueToRValue)
      account(Cast->getSubExpr());  // read: the local's value, not the local
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    const VarDecl *V = namedVar(A->getBase());
    if (V && holdsPointer(*V) && !isZero(A->getIdx(), Ctx))
      Uses.push_back({A, V, nullptr, false, true});
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *U) {
    if (!U->isIncrementDecrementOp())
      return true;
    const VarDecl *V = namedVar(U->getSubExpr());
    if (V && holdsPointer(*V)) {
      account(U->getSubExpr());  // still a copy of what it was given, moved
      Uses.push_back({U, V, nullptr, false, false});
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    const Expr *L = B->getLHS(), *R = B->getRHS();
    switch (B->getOpcode()) {
    case BO_Assign:
      if (const VarDecl *V = namedVar(L); V && Locals.count(V)) {
        account(L);
        Locals[V].Sources.push_back(R);
      }
      break;
    case BO_AddAssign:
    case BO_SubAssign:
      if (const VarDecl *V = namedVar(L); V && holdsPointer(*V)) {
        account(L);
        if (!isZero(R, Ctx))
          Uses.push_back({B, V, nullptr, false, false});
      }
      break;
    case BO_Add:
    case BO_Sub:
      if (L->getType()->isPointerType() && R->getType()->isPointerType()) {
        const VarDecl *LV = namedVar(L), *RV = namedVar(R);
        if (LV && holdsPointer(*LV))
          Uses.push_back({B, LV, RV, true, false});
        if (RV && holdsPointer(*RV))
          Uses.push_back({B, RV, LV, true, false});
        break;
      }
      if (const Expr *Ptr = L->getType()->isPointerType()   ? L
                            : R->getType()->isPointerType() ? R
                                                            : nullptr) {
        const VarDecl *V = namedVar(Ptr);
        if (V && holdsPointer(*V) && !isZero(Ptr == L ? R : L, Ctx))
          Uses.push_back({B, V, nullptr, false, false});
      }
      break;
    default:
      break;
    }
    return true;
  }

  /// Marks the locals whose references are neither read nor assigned nor moved (`&p`, a
  /// reference bound to p, an unevaluated operand): they may change where we do not look.
  void findEscapes() {
    for (const DeclRefExpr *Ref : Refs)
      if (!Accounted.count(Ref))
        Locals[cast<VarDecl>(Ref->getDecl())].Escapes = true;
  }

private:
  void account(const Expr *E) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
      Accounted.insert(Ref);
  }

  ASTContext &Ctx;
  SmallVector<const DeclRefExpr *, 16> Refs;
  SmallPtrSet<const DeclRefExpr *, 16> Accounted;
};

/// The variable a pointer value is derived from: `v`, `v + k`, `v - k`, `&v[k]`, `&*v`, or null.
const VarDecl *derivedFrom(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) &&
      B->getType()->isPointerType())
    return derivedFrom(B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS());
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
    const Expr *Of = U->getSubExpr()->IgnoreParens();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(Of))
      return derivedFrom(A->getBase());
    if (const auto *D = dyn_cast<UnaryOperator>(Of); D && D->getOpcode() == UO_Deref)
      return derivedFrom(D->getSubExpr());  // &*v is v
  }
  return namedVar(E);
}

} // namespace

std::vector<PointerUsedAsArray>
findPointersUsedAsArrays(const FunctionDecl &Kernel,
                         function_ref<bool(const ParmVarDecl &)> Watch, ASTContext &Ctx) {
  std::vector<PointerUsedAsArray> Found;
  const FunctionDecl *Def = nullptr;
  if (!Kernel.hasBody(Def) || !Def->getBody())
    return Found;
  SmallVector<const ParmVarDecl *, 8> Watched;
  for (const ParmVarDecl *P : Def->parameters())
    if (Watch(*P))
      Watched.push_back(P);
  if (Watched.empty())
    return Found;

  BodyScan Scan(Ctx);
  Scan.TraverseStmt(Def->getBody());
  Scan.findEscapes();

  // Which parameter each variable holds a copy of: a watched parameter holds itself; a local
  // holds parameter P when everything it is given derives from P or from locals that hold P
  // (`float *p = x; p = p + 1;` holds x). Found as the largest such assignment: start from every
  // local that does not escape and whose sources all derive from some variable, then drop the
  // locals that derive from anything else until nothing changes.
  DenseMap<const VarDecl *, SmallPtrSet<const ParmVarDecl *, 2>> Holds;
  for (const ParmVarDecl *P : Watched)
    Holds[P].insert(P);
  SmallPtrSet<const VarDecl *, 16> Maybe;
  for (auto &[V, L] : Scan.Locals)
    if (!L.Escapes && !L.Sources.empty() &&
        all_of(L.Sources, [](const Expr *S) { return derivedFrom(S) != nullptr; }))
      Maybe.insert(V);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[V, L] : Scan.Locals)
      if (Maybe.count(V) && !all_of(L.Sources, [&](const Expr *S) {
            const VarDecl *From = derivedFrom(S);
            return Holds.count(From) || Maybe.count(From);
          })) {
        Maybe.erase(V);
        Changed = true;
      }
  }
  for (bool Changed = true; Changed;) {  // the parameters each remaining local may hold
    Changed = false;
    for (auto &[V, L] : Scan.Locals) {
      if (!Maybe.count(V))
        continue;
      for (const Expr *S : L.Sources)
        if (auto It = Holds.find(derivedFrom(S)); It != Holds.end())
          for (const ParmVarDecl *P : SmallVector<const ParmVarDecl *, 2>(It->second.begin(),
                                                                          It->second.end()))
            Changed |= Holds[V].insert(P).second;
    }
  }
  auto heldParam = [&](const VarDecl *V) -> const ParmVarDecl * {
    auto It = V ? Holds.find(V) : Holds.end();
    return It != Holds.end() && It->second.size() == 1 ? *It->second.begin() : nullptr;
  };

  SmallPtrSet<const ParmVarDecl *, 8> Reported;
  for (const Candidate &C : Scan.Uses) {
    const ParmVarDecl *P = heldParam(C.Var);
    if (!P || (C.Difference && heldParam(C.Other) == P) || !Reported.insert(P).second)
      continue;
    Found.push_back({P, C.Use, C.Var == P ? nullptr : C.Var, C.Indexed});
  }
  return Found;
}

} // namespace offload::compiler
