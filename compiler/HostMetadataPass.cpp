// compiler/HostMetadataPass.cpp — see HostMetadataPass.h.
#include "HostMetadataPass.h"

#include "ArgClassifier.h"
#include "Subprocess.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace offload::compiler {
namespace {

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

/// Whether F may call offload::barrier() or a warp operation (shuffle, ballot), directly or
/// through functions whose bodies this translation unit has. A call to a function defined
/// elsewhere is assumed not to.
class BarrierFinder : public RecursiveASTVisitor<BarrierFinder> {
public:
  bool mayCallBarrier(const FunctionDecl *F) {
    const FunctionDecl *Def = F->getDefinition();
    if (!Def || !Def->hasBody() || !Seen.insert(Def).second)
      return false;
    TraverseStmt(Def->getBody());
    return Found;
  }
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (Found)
      return false;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    // Work-items meet at barriers and at warp operations (the CPU device's are fiber switches).
    if (const std::string Name = Callee->getQualifiedNameAsString();
        Name == "offload::barrier" || Name == "offload::detail::cpu_warp_exchange") {
      Found = true;
      return false;
    }
    if (mayCallBarrier(Callee))
      return false;
    return true;
  }

private:
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
  OS << "<";
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  for (unsigned I = 0; I < Args.size(); ++I)
    OS << (I ? ", " : "") << exactArgument(Args[I], Ctx);
  OS << ">";
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

/// A C++ expression naming kernel instantiation K exactly, for the generated entries:
/// `static_cast<void (*)(params)>(&::ns::name<args>)`.
std::string exactCallee(const FunctionDecl *K, const ASTContext &Ctx) {
  const PrintingPolicy Policy = exactPolicy(Ctx);
  std::string PointerType = TypeName::getFullyQualifiedName(
      Ctx.getPointerType(K->getType()), Ctx, Policy, /*WithGlobalNsPrefix=*/true);
  std::string Name;
  raw_string_ostream OS(Name);
  K->printQualifiedName(OS, Policy);
  if (const TemplateArgumentList *Args = K->getTemplateSpecializationArgs()) {
    OS << "<";
    for (unsigned I = 0; I < Args->size(); ++I)
      OS << (I ? ", " : "") << exactArgument(Args->get(I), Ctx);
    OS << ">";
  }
  return "static_cast<" + PointerType + ">(&::" + Name + ")";
}

/// offload::readonly_ptr<T>, or a `const T* __restrict__` pointer (ManifestParam::Restrict).
static bool isReadOnlyUnaliased(QualType T, const ASTContext &Ctx) {
  if (const auto *Spec =
          dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
    return Spec->getQualifiedNameAsString() == "offload::readonly_ptr";
  if (!T.isRestrictQualified() || !T->isPointerType())
    return false;
  return Ctx.getBaseElementType(T->getPointeeType()).isConstQualified();  // also T (*)[N]
}

class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
public:
  LaunchFinder(ASTContext &Ctx, Manifest &Out, bool GccSymbols)
      : Ctx(Ctx), Diags(Ctx.getDiagnostics()), Out(Out) {
    // The parse is over; only names are made from here on (HostMetadataOptions::GccSymbols).
    if (GccSymbols)
      const_cast<LangOptions &>(Ctx.getLangOpts())
          .setClangABICompat(LangOptions::ClangABI::Ver11);
    Mangler.reset(ItaniumMangleContext::create(Ctx, Ctx.getDiagnostics()));
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->isInstantiationDependent() || Call->getNumArgs() < 2)
      return true;
    const std::string Name = Callee->getQualifiedNameAsString();
    if (Name != "offload::launch" && Name != "offload::queue::launch")
      return true;
    recordLaunch(Call);
    return true;
  }

  /// A marked kernel named anywhere but as a launch's kernel or a call's callee — its address
  /// taken (`auto k = &transpose<float>;`, a table of kernels) — is recorded as launched here,
  /// so that a launch through a function pointer finds it built for every device.
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
    if (!F || F->isTemplated() || Ref->isInstantiationDependent() || LaunchArgs.count(Ref) ||
        !isMarkedKernel(F) || isCallee(*Ref) || !AddressesTaken.insert(Ref).second)
      return true;
    recordKernel(F, Ref->getBeginLoc(), /*Report=*/true);
    return true;
  }

  /// A braced list's elements are traversed in their written (syntactic) form, where a template
  /// specialization's address (`{&k<2>}`) is still an unresolved name: the resolved references
  /// are in the semantic form, visited here.
  bool VisitInitListExpr(InitListExpr *List) {
    InitListExpr *Semantic = List->isSemanticForm() ? nullptr : List->getSemanticForm();
    if (!Semantic)
      return true;
    struct References : RecursiveASTVisitor<References> {
      LaunchFinder &Finder;
      explicit References(LaunchFinder &F) : Finder(F) {}
      bool VisitDeclRefExpr(DeclRefExpr *Ref) { return Finder.VisitDeclRefExpr(Ref); }
    };
    for (Expr *Init : Semantic->inits())  // (traversing the list itself: its syntactic form)
      References(*this).TraverseStmt(Init);
    return true;
  }

  /// A marked kernel defined here is recorded even when this file does not launch it, so that
  /// another translation unit can (its entry is built with this file's device code).
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody() || F->isTemplated())
      return true;
    // An explicit instantiation (`template int f<int>(int);`) is defined here for other files:
    // a plain function for their kernels to call, or a kernel for them to launch.
    if (F->getTemplateSpecializationKind() == TSK_ExplicitInstantiationDefinition) {
      if (isMarkedKernel(F))
        recordKernel(F, F->getPointOfInstantiation(), /*Report=*/false);
      else
        recordExport(F);
      return true;
    }
    if (F->getTemplateSpecializationKind() != TSK_Undeclared)
      return true;
    if (isMarkedKernel(F))
      recordKernel(F, F->getLocation(), /*Report=*/false);
    else
      recordExport(F);
    return true;
  }

private:
  void error(SourceLocation Loc, StringRef Message) {
    Diags.Report(Loc, Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Message;
  }
  void note(SourceLocation Loc, StringRef Message) {
    Diags.Report(Loc, Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0")) << Message;
  }

  std::string nameOf(const FunctionDecl *K) {
    std::string Name;
    raw_string_ostream OS(Name);
    K->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
    return Name;
  }

  void recordLaunch(const CallExpr *Call) {
    const Expr *Arg = Call->getArg(0)->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Arg); U && U->getOpcode() == UO_AddrOf)
      Arg = U->getSubExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
    const auto *K = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
    SourceLocation At = Call->getArg(0)->getBeginLoc();
    if (!K)
      return;  // through a function pointer: the kernels whose addresses were taken are recorded
    LaunchArgs.insert(Ref);
    if (!isMarkedKernel(K)) {
      error(At, "'" + nameOf(K) + "' is launched as a kernel but not marked: declare it with "
                "OFFLOAD_KERNEL");
      note(K->getLocation(), "'" + nameOf(K) + "' declared here");
      return;
    }
    if (const FunctionDecl *Outer = enclosingFunction(*Call); Outer && isMarkedKernel(Outer)) {
      error(At, "kernel '" + nameOf(Outer) + "' launches kernel '" + nameOf(K) +
                    "': a kernel cannot launch kernels, on any device; launch both from the "
                    "host, one after the other");
      return;
    }
    recordKernel(K, At, /*Report=*/true);
  }

  /// Whether Ref names the function a call calls (`k(...)`), not a value.
  bool isCallee(const DeclRefExpr &Ref) {
    DynTypedNodeList Parents = Ctx.getParents(Ref);
    if (Parents.empty())
      return false;
    const Expr *Child = &Ref;
    if (const auto *Cast = Parents[0].get<ImplicitCastExpr>()) {
      Child = Cast;
      Parents = Ctx.getParents(*Cast);
      if (Parents.empty())
        return false;
    }
    const auto *Call = Parents[0].get<CallExpr>();
    return Call && Call->getCallee() == Child;
  }

  /// The function whose body holds S (through lambdas: the function that writes the lambda).
  const FunctionDecl *enclosingFunction(const Stmt &S) {
    DynTypedNodeList Parents = Ctx.getParents(S);
    while (!Parents.empty()) {
      const DynTypedNode &P = Parents[0];
      if (const auto *F = P.get<FunctionDecl>()) {
        if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda()) {
          Parents = Ctx.getParents(*M->getParent());
          continue;
        }
        return F;
      }
      Parents = Ctx.getParents(P);
    }
    return nullptr;
  }

  /// A plain function this file defines for others (not inline, not a member, not main): a
  /// kernel of another file may call it (Manifest.h, ManifestExport).
  void recordExport(const FunctionDecl *F) {
    if (isa<CXXMethodDecl>(F) || F->isInlined() || F->isMain() ||
        F->getFormalLinkage() != Linkage::External || F->isVariadic() ||
        !Ctx.getSourceManager().isInMainFile(F->getLocation()))
      return;
    ManifestExport E;
    if (Mangler->shouldMangleDeclName(F)) {
      raw_string_ostream OS(E.Symbol);
      Mangler->mangleName(GlobalDecl(F), OS);
    } else {
      E.Symbol = F->getName().str();
    }
    E.Callee = exactCallee(F, Ctx);
    Out.Exports.push_back(std::move(E));
  }

  /// Checks kernel K (diagnosing at At when Report) and adds it to the manifest.
  void recordKernel(const FunctionDecl *K, SourceLocation At, bool Report) {
    const std::string Name = nameOf(K);
    auto error = [&](SourceLocation Loc, StringRef Message) {
      if (Report)
        this->error(Loc, Message);
    };
    auto note = [&](SourceLocation Loc, StringRef Message) {
      if (Report)
        this->note(Loc, Message);
    };
    if (isa<CXXMethodDecl>(K)) {
      error(At, "kernel '" + Name + "' is a member function; kernels are free functions or "
                "function templates");
      return;
    }
    if (K->getFormalLinkage() != Linkage::External) {
      error(At, "kernel '" + Name + "' has internal linkage (static, or in an anonymous "
                "namespace, or instantiated with a local type); a kernel needs external "
                "linkage so the device image can name it");
      note(K->getLocation(), "'" + Name + "' declared here");
      return;
    }
    if (const TemplateArgumentList *TArgs = K->getTemplateSpecializationArgs())
      for (const TemplateArgument &A : TArgs->asArray())
        if (A.getKind() == TemplateArgument::Type)
          if (const CXXRecordDecl *RD = A.getAsType()->getAsCXXRecordDecl();
              RD && (RD->isLambda() || RD->isLocalClass())) {
            error(At, "kernel '" + Name + "' is instantiated with " +
                          (RD->isLambda() ? "a lambda" : "the local type '" +
                                                             RD->getNameAsString() + "'") +
                          ", which the device image cannot name; move the type to namespace "
                          "scope");
            return;
          }
    if (!K->getReturnType()->isVoidType()) {
      error(At, "kernel '" + Name + "' returns a value; kernels return void");
      return;
    }
    if (K->isVariadic()) {
      error(At, "kernel '" + Name + "' is variadic; kernels take a fixed parameter list");
      return;
    }

    ManifestKernel MK;
    MK.Name = Name;
    bool Ok = true;
    for (const ParmVarDecl *P : K->parameters()) {
      ParamClass C = classifyParam(P->getType(), Ctx);
      if (C.Kind == offload::abi::param_kind::unmappable) {
        error(At, "kernel '" + Name + "': parameter '" + P->getNameAsString() + "' of type '" +
                      P->getType().getAsString(Ctx.getPrintingPolicy()) +
                      "' cannot be mapped to the device: " + C.Reason);
        note(P->getLocation(), "parameter declared here");
        Ok = false;
        continue;
      }
      MK.Params.push_back({P->getNameAsString(),
                           P->getType().getAsString(Ctx.getPrintingPolicy()), C.Kind,
                           isReadOnlyUnaliased(P->getType(), Ctx)});
    }
    if (!Ok)
      return;

    if (Mangler->shouldMangleDeclName(K)) {
      raw_string_ostream OS(MK.HostSymbol);
      Mangler->mangleName(GlobalDecl(K), OS);
    } else {  // extern "C": the symbol is the name
      MK.HostSymbol = K->getName().str();
    }
    MK.Entry = deviceEntryName(MK.HostSymbol);
    MK.UsesBarriers = BarrierFinder().mayCallBarrier(K);
    MK.Defined = K->isDefined();
    MK.Callee = exactCallee(K, Ctx);
    PresumedLoc PL = Ctx.getSourceManager().getPresumedLoc(K->getLocation());
    if (PL.isValid())
      MK.DeclaredAt = (sys::path::filename(PL.getFilename()) + ":" + Twine(PL.getLine())).str();
    Out.addKernel(std::move(MK));
  }

  llvm::SmallPtrSet<const DeclRefExpr *, 16> LaunchArgs;  ///< kernels named by launches
  llvm::SmallPtrSet<const DeclRefExpr *, 16> AddressesTaken;  ///< recorded by VisitDeclRefExpr
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  Manifest &Out;
  std::unique_ptr<MangleContext> Mangler;
};

/// Whether the file parsed and offload-cxx's own checks ran (their errors are offload-cxx's to
/// report; a parse error is also the host compiler's).
struct PassState {
  bool GccSymbols = true;
  bool ChecksRan = false;
};

class LaunchFinderConsumer : public ASTConsumer {
public:
  LaunchFinderConsumer(Manifest &Out, PassState &State) : Out(Out), State(State) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    State.ChecksRan = true;
    LaunchFinder(Ctx, Out, State.GccSymbols).TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  Manifest &Out;
  PassState &State;
};

class LaunchFinderAction : public ASTFrontendAction {
public:
  LaunchFinderAction(Manifest &Out, PassState &State) : Out(Out), State(State) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<LaunchFinderConsumer>(Out, State);
  }

private:
  Manifest &Out;
  PassState &State;
};

} // namespace

Expected<Manifest> runHostMetadataPass(const HostMetadataOptions &Options) {
  Manifest M;
  SmallString<256> Source(Options.Source);
  sys::fs::make_absolute(Source);
  M.Source = std::string(Source);
  M.CompileArgs = Options.CompileArgs;
  if (Expected<std::string> Hash = sourceHash(M.Source))
    M.SourceHash = *Hash;
  else
    consumeError(Hash.takeError());  // the parse below says why the file cannot be read

  std::vector<std::string> Args = {"clang++", "-fsyntax-only",
                                   "-resource-dir=" + Options.ClangResourceDir,
                                   "-I" + Options.OffloadIncludeDir,
                                   "-DOFFLOAD_IMPL_HOST_METADATA_PASS=1"};
  appendUserFlagsForClang(Args, Options.CompileArgs);
  if (Options.Diagnostics)  // kept for the caller, who decides; no "N errors generated." line
    Args.push_back("-fno-caret-diagnostics");
  Args.push_back(M.Source);

  PassState State;
  State.GccSymbols = Options.GccSymbols;
  struct Factory : tooling::FrontendActionFactory {
    Manifest &Out;
    PassState &State;
    Factory(Manifest &Out, PassState &State) : Out(Out), State(State) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<LaunchFinderAction>(Out, State);
    }
  } F(M, State);
  tooling::ToolInvocation Invocation(Args, F.create(), new FileManager(FileSystemOptions()));
  DiagnosticOptions DiagOpts;
  DiagOpts.ShowColors = sys::Process::StandardErrHasColors();
  std::optional<raw_string_ostream> Kept;
  std::optional<TextDiagnosticPrinter> Printer;
  if (Options.Diagnostics) {
    Kept.emplace(*Options.Diagnostics);
    Printer.emplace(*Kept, DiagOpts);
    Invocation.setDiagnosticConsumer(&*Printer);
  }
  const bool Ok = Invocation.run();
  if (Options.Diagnostics && State.ChecksRan) {  // offload-cxx's own errors: always shown
    Kept->flush();
    errs() << *Options.Diagnostics;
    Options.Diagnostics->clear();
  }
  if (!Ok)
    return createStringError(inconvertibleErrorCode(),
                             "host-metadata pass failed for '%s'", Options.Source.c_str());
  return M;
}

} // namespace offload::compiler
