// compiler/LambdaSites.cpp — see LambdaSites.h.
#include "LambdaSites.h"

#include "ArgClassifier.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace offload::compiler {
namespace {

/// FNV-1a, 32 bits: the file's part of a site's ID.
uint32_t fnv32(StringRef Text) {
  uint32_t H = 2166136261u;
  for (unsigned char C : Text)
    H = (H ^ C) * 16777619u;
  return H;
}

/// The variables a lambda's body uses from around it, in the order of first use (nested lambdas
/// included, unevaluated operands not): the captures of its explicit list. Computed from the text
/// rather than read from clang's captures, which a lambda in a template has only once
/// instantiated.
class OuterUses : public RecursiveASTVisitor<OuterUses> {
public:
  explicit OuterUses(const CXXRecordDecl *Closure) : Closure(Closure) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    const auto *V = dyn_cast<VarDecl>(D);
    // (A static local, like a global, is not captured: the body names it where it is; one of the
    // function around the lambda is kept apart, to be refused.)
    if (V && V->isStaticLocal() && !inside(D)) {
      if (Seen.insert(D).second)
        StaticLocals.push_back({V, E->getLocation()});
      return true;
    }
    if (!(V ? V->hasLocalStorage() : isa<BindingDecl>(D)) || inside(D))
      return true;
    if (Seen.insert(D).second)
      Uses.push_back({D, E->getLocation()});
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *E) {
    if (!E->isImplicit() || !This.isValid())
      This = E->getLocation();
    return true;
  }
  // What an unevaluated operand names is not captured.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = true) { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }

  SmallVector<std::pair<const ValueDecl *, SourceLocation>, 8> Uses;
  /// Static locals of the functions around the lambda that its body names.
  SmallVector<std::pair<const VarDecl *, SourceLocation>, 2> StaticLocals;
  SourceLocation This;  ///< the first use of `this`, if any

private:
  /// Whether D is declared in the lambda (its parameters, its locals, a nested lambda's).
  bool inside(const ValueDecl *D) const {
    for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
      if (DC == Closure || (isa<CXXMethodDecl>(DC) && cast<CXXMethodDecl>(DC)->getParent() == Closure))
        return true;
    return false;
  }
  const CXXRecordDecl *Closure;
  SmallPtrSet<const ValueDecl *, 8> Seen;
};

class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
public:
  SiteFinder(ASTContext &Ctx, StringRef Salt, StringRef ShownName)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()),
        R(SM, Ctx.getLangOpts()), Salt(Salt), ShownName(ShownName) {}

  // Each lambda is rewritten once, in the text: templates are visited as written.
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    const StringRef What = lambdaLaunch(Call);
    if (What.empty() || Call->getNumArgs() == 0)
      return true;
    // The kernel is the first lambda among the arguments (parallel_reduce's operation follows).
    LambdaExpr *Lambda = nullptr;
    for (Expr *Arg : Call->arguments())
      if (auto *L = dyn_cast<LambdaExpr>(Arg->IgnoreImplicit()->IgnoreParens())) {
        if (!Lambda)
          Lambda = L;
        else
          error(L->getBeginLoc(), "offload::" + What.str() +
                                      ": the operation cannot be a lambda (the device must name "
                                      "its type): use std::plus<>{}, offload::minimum<>{}, "
                                      "offload::maximum<>{} or a struct with operator()");
      }
    SourceLocation At = Call->getBeginLoc();
    if (!Lambda) {
      error(At, "offload::" + What.str() +
                    ": write the lambda in the call (offload-cxx makes each lambda written there "
                    "a kernel; a lambda passed through a variable or a parameter cannot be)");
      return true;
    }
    rewrite(Call, Lambda);
    return true;
  }

  std::optional<std::string> result() {
    if (Sites == 0 || Diags.hasErrorOccurred())
      return std::nullopt;
    const RewriteBuffer *Buffer = R.getRewriteBufferFor(SM.getMainFileID());
    if (!Buffer)
      return std::nullopt;
    std::string Text;
    raw_string_ostream OS(Text);
    OS << "#line 1 \"" << escaped(shownName()) << "\"\n";
    std::string Body;
    raw_string_ostream BodyOS(Body);
    Buffer->write(BodyOS);
    // A UTF-8 byte order mark starts the file only: after the #line it is a stray character
    // (adversarial pass: "stray '\357' in program").
    OS << StringRef(Body).drop_front(StringRef(Body).starts_with("\xEF\xBB\xBF") ? 3 : 0);
    return Text;
  }

private:
  void error(SourceLocation Loc, StringRef Message) {
    Diags.Report(Loc, Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Message;
  }

  static std::string escaped(StringRef Path) {
    std::string Out;
    for (char C : Path) {
      if (C == '"' || C == '\\')
        Out += '\\';
      Out += C;
    }
    return Out;
  }

  /// The name __FILE__ and diagnostics give the file: as the command line spells it (g++'s).
  StringRef shownName() const { return ShownName.empty() ? mainFileName() : ShownName; }

  /// After an edit that changes the length of a line's text: the text that follows it (at Next)
  /// goes back to its own line and column, so that a warning there and __LINE__ are g++'s — a
  /// line break, a #line naming Next's line, and spaces up to its column.
  std::string backToOriginalColumn(SourceLocation Next) const {
    const PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Next));
    if (P.isInvalid())
      return "";
    // The file's name as a #line of the user's gives it, else as the command line spells it.
    const StringRef Name = StringRef(P.getFilename()) == mainFileName() ? shownName()
                                                                          : StringRef(P.getFilename());
    return "\n#line " + std::to_string(P.getLine()) + " \"" + escaped(Name) + "\"\n" +
           std::string(P.getColumn() - 1, ' ');
  }

  StringRef mainFileName() const {
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    return Main ? Main->getName() : StringRef();
  }

  /// "parallel_for" or "parallel_reduce" for a call of one of them (offload's, or a queue's;
  /// resolved, or a template's unresolved name), else empty.
  static StringRef lambdaLaunch(const CallExpr *Call) {
    static const char *const Names[] = {"parallel_for", "parallel_reduce"};
    auto ours = [](const NamedDecl *D) {
      const std::string Q = D->getQualifiedNameAsString();
      return StringRef(Q).starts_with("offload::") &&
             (Q == "offload::parallel_for" || Q == "offload::parallel_reduce" ||
              Q == "offload::queue::parallel_for" || Q == "offload::queue::parallel_reduce");
    };
    auto named = [&](StringRef Name) -> StringRef {
      for (const char *N : Names)
        if (Name == N)
          return N;
      return "";
    };
    const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();  // `(offload::parallel_for)(...)` too
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
      return ours(Ref->getDecl()) ? named(Ref->getDecl()->getName()) : "";
    if (const auto *M = dyn_cast<MemberExpr>(Callee))
      return ours(M->getMemberDecl()) ? named(M->getMemberDecl()->getName()) : "";
    if (const auto *U = dyn_cast<UnresolvedLookupExpr>(Callee)) {
      for (const NamedDecl *D : U->decls())
        if (ours(D))
          return named(U->getName().getAsString());
      return "";
    }
    if (const auto *U = dyn_cast<UnresolvedMemberExpr>(Callee)) {
      for (const NamedDecl *D : U->decls())
        if (ours(D))
          return named(U->getMemberName().getAsString());
      return "";
    }
    return "";
  }

  void rewrite(CallExpr *Call, LambdaExpr *Lambda) {
    SourceLocation At = Lambda->getBeginLoc();
    // The call as its errors name it: offload::parallel_for or offload::parallel_reduce.
    const std::string Launch = "offload::" + lambdaLaunch(Call).str(), What = Launch + ": ";
    if (Call->getBeginLoc().isMacroID() || Lambda->getBeginLoc().isMacroID() ||
        Lambda->getIntroducerRange().getBegin().isMacroID() || Call->getArg(0)->getBeginLoc().isMacroID()) {
      error(Call->getBeginLoc(), Launch + " with a lambda written through a macro: "
                                 "offload-cxx rewrites the lambda's text, so write the call out");
      return;
    }
    if (!SM.isInMainFile(SM.getExpansionLoc(At))) {
      error(At, Launch + " with a lambda in a header: not supported yet; write the "
                "call in the source file, or the body as an OFFLOAD_KERNEL function");
      return;
    }
    const CXXRecordDecl *Closure = Lambda->getLambdaClass();
    // The captures: the user's explicit ones are checked as written; the list written back is
    // every variable the body uses from around it, in the order of first use.
    std::string List, Types;
    bool Ok = true;
    for (const LambdaCapture &C : Lambda->explicit_captures()) {
      SourceLocation CAt = C.getLocation().isValid() ? C.getLocation() : At;
      if (C.capturesThis() || C.capturesVLAType()) {
        error(CAt, What + "the lambda captures 'this'; a kernel cannot reach "
                   "the host object: copy the members it needs into locals and capture those");
        Ok = false;
      } else if (const auto *Var = dyn_cast<VarDecl>(C.getCapturedVar()); Var && Var->isInitCapture()) {
        error(CAt, What + "the init-capture '" + Var->getNameAsString() +
                       "' is not supported yet; initialise a local variable and capture it");
        Ok = false;
      } else if (C.getCaptureKind() == LCK_ByRef) {
        error(CAt, What + "the lambda captures '" +
                       C.getCapturedVar()->getNameAsString() +
                       "' by reference; capture by value ([=]): a std::span of the data for "
                       "an array or container, an offload::device_ptr for a buffer's data");
        Ok = false;
      }
    }
    if (!Ok)
      return;
    OuterUses Body(Closure);
    Body.TraverseStmt(Lambda->getBody());
    if (Body.This.isValid()) {
      error(Body.This, What + "the lambda uses 'this'; a kernel cannot reach "
                       "the host object: copy the members it needs into locals and capture those");
      return;
    }
    // A static local of the function around the lambda lives in the host's memory: the CPU
    // device read it there, a GPU a copy without its value (0: the H100 run of 2026-12-05).
    // A constant number is its value wherever it is read.
    for (const auto &[V, UseAt] : Body.StaticLocals)
      if (!(V->getType()->isScalarType() && V->isUsableInConstantExpressions(Ctx))) {
        error(UseAt, What + "the lambda uses '" + V->getNameAsString() +
                         "', a static variable of the function around it, which lives in the "
                         "host's memory (a GPU has no copy of its value): copy it into a local "
                         "variable and capture that");
        Ok = false;
      }
    if (!Ok)
      return;
    for (const auto &[V, UseAt] : Body.Uses) {
      const std::string Name = V->getNameAsString();
      if (Lambda->getCaptureDefault() == LCD_ByRef &&
          llvm::none_of(Lambda->explicit_captures(),
                        [&](const LambdaCapture &C) { return C.capturesVariable() && C.getCapturedVar() == V; })) {
        error(UseAt, What + "the lambda captures '" + Name +
                         "' by reference ([&]); capture by value ([=]): a std::span of the "
                         "data for an array or container, an offload::device_ptr for a buffer's data");
        Ok = false;
        continue;
      }
      QualType T = V->getType().getNonReferenceType();
      if (T->isArrayType()) {
        error(UseAt, What + "the lambda captures the array '" + Name +
                         "'; capture a std::span of it (std::span(" + Name + "))");
        Ok = false;
        continue;
      }
      if (T->isPointerType() || T->isMemberPointerType()) {
        error(UseAt, What + "the lambda captures the pointer '" + Name +
                         "', a host address the device cannot use: capture a std::span of the "
                         "data it points to (std::span(" + Name + ", n)), or an "
                         "offload::device_ptr for a buffer's data");
        Ok = false;
        continue;
      }
      if (!T->isDependentType()) {
        if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
            RD && (RD->isLambda() || RD->isLocalClass() || RD->isInAnonymousNamespace() ||
                   (!RD->getIdentifier() && !RD->getTypedefNameForAnonDecl()))) {
          error(UseAt, What + "the lambda captures '" + Name + "' of type '" +
                           T.getAsString(Ctx.getPrintingPolicy()) +
                           "', which the device's code cannot name (a local, unnamed or "
                           "anonymous-namespace type, or a lambda): declare the type at "
                           "namespace scope");
          Ok = false;
          continue;
        }
        if (!T.isTriviallyCopyableType(Ctx) && classifyParam(T, Ctx).Kind !=
                                                   offload::abi::param_kind::unmappable) {
          error(UseAt, What + "the lambda captures '" + Name + "' of type '" +
                           T.getAsString(Ctx.getPrintingPolicy()) +
                           "', which is not trivially copyable (a lambda's captures travel as "
                           "its bytes): capture its members as separate variables, or a "
                           "trivially copyable struct");
          Ok = false;
          continue;
        }
        ParamClass PC = classifyParam(T, Ctx);
        if (PC.Kind == offload::abi::param_kind::unmappable) {
          const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
          const bool Container = RD && !RD->isTriviallyCopyable();
          // A struct of spans: the span is what maps, captured as a variable of its own.
          const FieldDecl *Span = nullptr;
          if (RD && !Container)
            for (const FieldDecl *F : RD->fields())
              if (const CXXRecordDecl *FR = F->getType()->getAsCXXRecordDecl();
                  !Span && FR && FR->getQualifiedNameAsString() == "std::span")
                Span = F;
          if (Span) {
            error(UseAt, What + "the lambda captures '" + Name + "' of type '" +
                             T.getAsString(Ctx.getPrintingPolicy()) + "', which holds the std::span '" +
                             Span->getNameAsString() + "' (a span maps only as a capture of its own): "
                             "capture it as a variable (auto " + Span->getNameAsString() + " = " +
                             Name + "." + Span->getNameAsString() + ";) and the other members likewise");
            Ok = false;
            continue;
          }
          error(UseAt, What + "the lambda captures '" + Name + "' of type '" +
                           T.getAsString(Ctx.getPrintingPolicy()) +
                           "', which cannot be mapped to the device" +
                           (Container ? ": capture a std::span of its data (std::span(" + Name +
                                            ")) instead"
                                      : " (" + PC.Reason + ")"));
          Ok = false;
          continue;
        }
      }
      List += (List.empty() ? "" : ", ") + Name;
      Types += ", ::std::remove_reference_t<decltype(" + Name + ")>";
    }
    std::string Context;
    if (!contextArguments(Closure, At, Context))
      Ok = false;
    if (!Ok)
      return;

    const PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(At));
    const unsigned Line = PL.isValid() ? PL.getLine() : 0;
    unsigned &Nth = OnLine[Line];
    if (Nth > 255 || Line > 0xffffff) {
      error(At, "offload::parallel_for: too many lambdas on one line");
      return;
    }
    const unsigned long long Id =
        (uint64_t(fnv32((mainFileName() + "\n" + Salt).str())) << 32) | (uint64_t(Line) << 8) | Nth++;
    const std::string Tag = "::offload::detail::lambda_site<0x" + utohexstr(Id) +
                            "ull, ::offload::detail::captures<" +
                            StringRef(Types).drop_front(Types.empty() ? 0 : 2).str() + ">" +
                            Context + ">{}, ";
    // Each edit is followed by the rest of its line at its own column (backToOriginalColumn).
    const SourceLocation AfterIntroducer =
        Lambda->getIntroducerRange().getEnd().getLocWithOffset(1);
    R.ReplaceText(Lambda->getIntroducerRange(),
                  "[" + List + "]" + backToOriginalColumn(AfterIntroducer));
    R.InsertTextBefore(Call->getArg(0)->getBeginLoc(),
                       Tag + backToOriginalColumn(Call->getArg(0)->getBeginLoc()));
    ++Sites;
  }

  /// ", A, B..." for the template parameters around the lambda, outermost first (each
  /// instantiation is its own kernel): a type as itself, a pack as pack<T...>, a value as
  /// integral_constant<decltype(N), N>.
  bool contextArguments(const CXXRecordDecl *Closure, SourceLocation At, std::string &Out) {
    SmallVector<const TemplateParameterList *, 4> Lists;
    for (const DeclContext *DC = Closure->getDeclContext(); DC; DC = DC->getParent()) {
      if (const auto *F = dyn_cast<FunctionDecl>(DC)) {
        if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda() &&
                                                         M->getDescribedFunctionTemplate()) {
          error(At, "offload::parallel_for: a lambda kernel inside a generic lambda is not "
                    "supported yet");
          return false;
        }
        if (const FunctionTemplateDecl *FT = F->getDescribedFunctionTemplate())
          Lists.push_back(FT->getTemplateParameters());
        // A member defined outside its class template (`template <class U> void A<U>::f()`):
        // the lists written before it, with the names in scope at the lambda, and none of the
        // class's own (its parameters may be named otherwise there).
        if (unsigned Outer = F->getNumTemplateParameterLists()) {
          for (unsigned I = Outer; I > 0; --I)
            Lists.push_back(F->getTemplateParameterList(I - 1));
          break;
        }
      } else if (const auto *P = dyn_cast<ClassTemplatePartialSpecializationDecl>(DC)) {
        Lists.push_back(P->getTemplateParameters());
      } else if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) {
        if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
          Lists.push_back(CT->getTemplateParameters());
      }
    }
    for (auto It = Lists.rbegin(); It != Lists.rend(); ++It)
      for (const NamedDecl *P : **It) {
        const std::string Name = P->getNameAsString();
        if (Name.empty()) {
          error(At, "offload::parallel_for: the lambda is in a template with an unnamed "
                    "parameter; name the parameter");
          return false;
        }
        if (const auto *T = dyn_cast<TemplateTypeParmDecl>(P))
          Out += T->isParameterPack() ? ", ::offload::detail::pack<" + Name + "...>" : ", " + Name;
        else if (const auto *N = dyn_cast<NonTypeTemplateParmDecl>(P); N && !N->isParameterPack())
          Out += ", ::std::integral_constant<decltype(" + Name + "), " + Name + ">";
        else {
          error(At, "offload::parallel_for: the lambda is in a template whose parameter '" +
                        Name + "' is a template or a pack of values, which a lambda kernel "
                        "cannot name yet");
          return false;
        }
      }
    return true;
  }

  ASTContext &Ctx;
  SourceManager &SM;
  DiagnosticsEngine &Diags;
  Rewriter R;
  StringRef Salt;  ///< the compile's flags: one file built twice with other -D is two lambdas
  StringRef ShownName;  ///< the file as the command line spells it (empty: as clang opened it)
  unsigned Sites = 0;
  DenseMap<unsigned, unsigned> OnLine;  ///< lambdas seen on each line
};

} // namespace

bool offloadHeadersNamespace(const Decl *D, const SourceManager &SM) {
  const auto *NS = dyn_cast<NamespaceDecl>(D);
  return NS && NS->getName() == "offload" && !SM.isInMainFile(SM.getExpansionLoc(NS->getLocation()));
}

std::optional<std::string> rewriteLambdaSites(ASTContext &Ctx, StringRef Salt,
                                              StringRef ShownName) {
  SiteFinder Finder(Ctx, Salt, ShownName);
  const SourceManager &SM = Ctx.getSourceManager();
  for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls()) {
    if (D->isFromASTFile())
      continue;
    // offload's own headers forward lambdas they were given: parsed without the precompiled
    // header, they were reported as the user's lambdas passed through a variable (a file with a
    // #define before its offload include).
    if (offloadHeadersNamespace(D, SM))
      continue;
    Finder.TraverseDecl(D);
  }
  return Finder.result();
}

} // namespace offload::compiler
