// compiler/KernelDecl.cpp — see KernelDecl.h.
#include "KernelDecl.h"

#include "clang/AST/Attr.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace offload::compiler {
namespace {

/// Whether F may call offload::barrier() or a warp operation (shuffle, ballot), directly or
/// through functions whose bodies this translation unit has — also those called without a call
/// in the source: constructors (with their member initialisers), destructors (of locals,
/// temporaries, members and bases), default arguments and default member initialisers. A call
/// to a function of the user's own code defined in another file is assumed to (see below).
class BarrierFinder : public RecursiveASTVisitor<BarrierFinder> {
public:
  bool mayCallBarrier(const FunctionDecl *F) {
    const FunctionDecl *Def = F ? F->getDefinition() : nullptr;
    if (!Def || Found || !Seen.insert(Def).second)
      return Found;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (!Found && Init->getInit())
          TraverseStmt(Init->getInit());
    if (Def->hasBody() && !Found)
      TraverseStmt(Def->getBody());
    // A destructor (even an implicit one, which has no body) runs its members' and bases'.
    if (const auto *Dtor = dyn_cast<CXXDestructorDecl>(Def); Dtor && !Found) {
      const CXXRecordDecl *Class = Dtor->getParent();
      for (const FieldDecl *Field : Class->fields())
        destroys(Field->getType());
      for (const CXXBaseSpecifier &Base : Class->bases())
        destroys(Base.getType());
    }
    return Found;
  }
  bool shouldVisitLambdaBody() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    mayCallBarrier(E->getConstructor());
    destroys(E->getType());
    return !Found;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *E) {
    mayCallBarrier(E->getTemporary()->getDestructor());
    return !Found;
  }
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    if (E->getExpr())
      TraverseStmt(E->getExpr());
    return !Found;
  }
  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
    if (E->getExpr())
      TraverseStmt(E->getExpr());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (Found)
      return false;
    // A call in a template's pattern (a generic lambda's body, seen as the lambda is
    // traversed) has no callee yet; what runs is its instantiation, reached by its own call
    // (every lambda kernel's run_lambda met this: "uses barriers", workgroups of 256).
    if (Call->isInstantiationDependent())
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A call through a function pointer may reach one; the link, which sees every function
    // whose address is taken, decides (cpu/WorkItemLoops.cpp).
    if (!Callee) {
      Found = true;
      return false;
    }
    // Work-items meet at barriers and at warp operations (the CPU device's are fiber switches).
    if (const std::string Name = Callee->getQualifiedNameAsString();
        Name == "offload::barrier" || Name == "offload::detail::cpu_warp_exchange") {
      Found = true;
      return false;
    }
    // A function of the program's own code whose body is in another file may reach one: the
    // kernel is then built as work-item loops, and the link (which sees every file's CPU
    // bitcode) splits it at that barrier — or makes it one plain loop if it finds none.
    // Declarations of system headers and builtins cannot reach offload's barrier.
    if (!Callee->isDefined() && !Callee->getBuiltinID() &&
        !StringRef(Callee->getQualifiedNameAsString()).starts_with("offload::") &&
        !Callee->getASTContext().getSourceManager().isInSystemHeader(Callee->getLocation())) {
      Found = true;
      return false;
    }
    if (mayCallBarrier(Callee))
      return false;
    return true;
  }

private:
  /// An object of type T (or an array of them) is destroyed: its destructor runs.
  void destroys(QualType T) {
    const Type *Element = T->getBaseElementTypeUnsafe();
    if (const CXXRecordDecl *Class = Element ? Element->getAsCXXRecordDecl() : nullptr;
        Class && Class->hasDefinition())
      if (const CXXDestructorDecl *Dtor = Class->getDestructor())
        mayCallBarrier(Dtor);
  }

  llvm::SmallPtrSet<const FunctionDecl *, 32> Seen;
  bool Found = false;
};

/// How generated code spells types and template arguments: fully qualified, canonical, and with
/// each integral argument's type (`18446744073709551615UL`, not a literal too large for int).
PrintingPolicy exactPolicy(const ASTContext &Ctx) {
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.FullyQualifiedName = true;
  Policy.SuppressScope = false;
  Policy.PrintAsCanonical = true;
  Policy.AlwaysIncludeTypeForTemplateArgument = true;
  return Policy;
}

std::string exactArgument(const TemplateArgument &A, const ASTContext &Ctx);

/// "<A, B, ...>" for a template's arguments (an empty pack adds nothing, not an empty item).
std::string exactArguments(ArrayRef<TemplateArgument> Args, const ASTContext &Ctx) {
  std::string Text = "<";
  bool First = true;
  for (const TemplateArgument &A : Args) {
    if (A.getKind() == TemplateArgument::Pack && A.pack_size() == 0)
      continue;
    Text += (First ? "" : ", ") + exactArgument(A, Ctx);
    First = false;
  }
  return Text + ">";
}

/// Type T as C++; a class template specialization (`FS<1.5f>`) with its arguments spelled
/// exactly, as exactArgument does.
std::string exactType(QualType T, const ASTContext &Ctx) {
  const PrintingPolicy Policy = exactPolicy(Ctx);
  QualType C = T.getCanonicalType();
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(C->getAsCXXRecordDecl());
  if (!Spec || !isa<RecordType>(C.getTypePtr()))
    return TypeName::getFullyQualifiedName(T, Ctx, Policy, /*WithGlobalNsPrefix=*/true);
  std::string Text;
  raw_string_ostream OS(Text);
  if (C.isConstQualified())
    OS << "const ";
  if (C.isVolatileQualified())
    OS << "volatile ";
  OS << "::";
  Spec->printQualifiedName(OS, Policy);
  OS << exactArguments(Spec->getTemplateArgs().asArray(), Ctx);
  return Text;
}

/// Template argument A as C++ that names exactly the same argument. A floating-point value is
/// spelled by its bits (clang prints an approximation: 1.0/3.0 as 3.333333e-01).
std::string exactArgument(const TemplateArgument &A, const ASTContext &Ctx) {
  const PrintingPolicy Policy = exactPolicy(Ctx);
  std::string Text;
  raw_string_ostream OS(Text);
  switch (A.getKind()) {
  case TemplateArgument::Pack:
    for (const TemplateArgument &E : A.pack_elements())
      OS << (&E == A.pack_begin() ? "" : ", ") << exactArgument(E, Ctx);
    return Text;
  case TemplateArgument::Type:
    return exactType(A.getAsType(), Ctx);
  case TemplateArgument::StructuralValue:
    if (const APValue &V = A.getAsStructuralValue(); V.isFloat()) {
      const APInt Bits = V.getFloat().bitcastToAPInt();
      const char *Int = Bits.getBitWidth() == 16   ? "unsigned short"
                        : Bits.getBitWidth() == 32 ? "unsigned int"
                        : Bits.getBitWidth() == 64 ? "unsigned long long"
                                                   : nullptr;
      if (Int) {
        OS << "__builtin_bit_cast("
           << TypeName::getFullyQualifiedName(A.getStructuralValueType(), Ctx, Policy, true)
           << ", static_cast<" << Int << ">(" << Bits.getZExtValue() << "ULL))";
        return Text;
      }
    }
    [[fallthrough]];
  default:
    A.print(Policy, OS, /*IncludeType=*/true);
    return Text;
  }
}

} // namespace

bool isMarkedKernel(const FunctionDecl *F) {
  auto Marked = [](const Decl *D) {
    for (const auto *A : D->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == "offload.kernel")
        return true;
    return false;
  };
  for (const FunctionDecl *R : F->redecls())
    if (Marked(R))
      return true;
  if (const FunctionTemplateDecl *T = F->getPrimaryTemplate())
    for (const RedeclarableTemplateDecl *R : T->redecls())
      if (Marked(R) || Marked(R->getTemplatedDecl()))
        return true;
  return false;
}

bool mayCallBarrier(const FunctionDecl *Kernel) {
  return BarrierFinder().mayCallBarrier(Kernel);
}

std::string exactCallee(const FunctionDecl *K, const ASTContext &Ctx) {
  const PrintingPolicy Policy = exactPolicy(Ctx);
  // A member function's address is a pointer to member (`int (::S::*)() const`), a static
  // member's and a plain function's a function pointer.
  const auto *Method = dyn_cast<CXXMethodDecl>(K);
  const QualType Pointer =
      Method && Method->isInstance()
          ? Ctx.getMemberPointerType(K->getType(), std::nullopt, Method->getParent())
          : Ctx.getPointerType(K->getType());
  std::string PointerType =
      TypeName::getFullyQualifiedName(Pointer, Ctx, Policy, /*WithGlobalNsPrefix=*/true);
  std::string Name;
  raw_string_ostream OS(Name);
  K->printQualifiedName(OS, Policy);
  if (const TemplateArgumentList *Args = K->getTemplateSpecializationArgs())
    OS << exactArguments(Args->asArray(), Ctx);
  return "static_cast<" + PointerType + ">(&::" + Name + ")";
}

bool isReadOnlyUnaliased(QualType T, const ASTContext &Ctx) {
  if (const auto *Spec =
          dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
    return Spec->getQualifiedNameAsString() == "offload::readonly_ptr";
  if (!T.isRestrictQualified() || !T->isPointerType())
    return false;
  return Ctx.getBaseElementType(T->getPointeeType()).isConstQualified();  // also T (*)[N]
}

} // namespace offload::compiler
