// compiler/HostMetadataPass.cpp — see HostMetadataPass.h: the AST visitor that finds launches
// and checks their kernels (with clang's diagnostics), and the LibTooling run around it; what it
// reads off each kernel's declaration is KernelDecl.h's.
#include "HostMetadataPass.h"
#include "OffloadPch.h"

#include "ArgClassifier.h"
#include "KernelDecl.h"
#include "LambdaSites.h"
#include "PointerParams.h"
#include "Subprocess.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace clang;
using namespace llvm;

namespace offload::compiler {
namespace {

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
    if (Name == "offload::parallel_for" || Name == "offload::queue::parallel_for" ||
        Name == "offload::parallel_reduce" || Name == "offload::queue::parallel_reduce") {
      if (!lambdaSiteId(Callee)) {
        // Not rewritten into a kernel: it would run on the host, in order, silently.
        error(Call->getBeginLoc(),
              "offload::" + Callee->getName().str() +
                  " here is not made a kernel: offload-cxx makes one of a lambda written in the "
                  "call, in the source file given to it (not in a header, another file it "
                  "includes, or a call through a macro or parentheses), built in one command or "
                  "with -c (not --pass=)");
        return true;
      }
      if (std::optional<uint64_t> Id = lambdaSiteId(Callee)) {
        LambdaCalls.try_emplace(*Id, Call->getBeginLoc());
        // The kernel's parameters are the lambda's captures, named as the (rewritten, explicit)
        // capture list names them, then the range's.
        for (const Expr *Arg : Call->arguments())
          if (const auto *L = dyn_cast<LambdaExpr>(Arg->IgnoreImplicit()->IgnoreParens())) {
            std::vector<std::string> &Names = LambdaParams[*Id];
            if (Names.empty())
              for (const LambdaCapture &C : L->explicit_captures())
                Names.push_back(C.capturesVariable() ? C.getCapturedVar()->getNameAsString() : "this");
            break;
          }
      }
      return true;
    }
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

  /// Records the kernel of every lambda the (rewritten) file passes to parallel_for: the
  /// instantiations of offload::detail::lambda_kernel (offload/parallel_for.hpp), each named
  /// "lambda at FILE:LINE" and checked at its parallel_for call.
  void recordLambdaKernels() {
    for (const char *Name : {"lambda_kernel", "lambda_kernel_nd", "reduce_kernel"})
      if (const FunctionTemplateDecl *Kernel = lambdaKernelTemplate(Name))
        recordLambdaKernels(Kernel);
  }
  void recordLambdaKernels(const FunctionTemplateDecl *Kernel) {
    const SourceManager &SM = Ctx.getSourceManager();
    // The file's own name: the rewritten file starts with a #line that gives it (LambdaSites.h).
    const PresumedLoc Main = SM.getPresumedLoc(SM.getLocForEndOfFile(SM.getMainFileID()));
    const std::string File =
        Main.isValid() ? sys::path::filename(Main.getFilename()).str() : std::string("?");
    for (const FunctionDecl *K : Kernel->specializations()) {
      if (K->getTemplateSpecializationKind() != TSK_ImplicitInstantiation)
        continue;
      const TemplateArgumentList *Args = K->getTemplateSpecializationArgs();
      const auto *Site = Args && Args->size() > 0 && Args->get(0).getKind() == TemplateArgument::Type
                             ? dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                                   Args->get(0).getAsType()->getAsCXXRecordDecl())
                             : nullptr;
      if (!Site || Site->getTemplateArgs().size() == 0 ||
          Site->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
        continue;
      const uint64_t Id = Site->getTemplateArgs()[0].getAsIntegral().getZExtValue();
      const std::string At = File + ":" + std::to_string(lambdaSiteLine(Id));
      // Told apart in the profile and messages: the second lambda of a line, and each
      // instantiation of a template's lambda (its enclosing templates' arguments).
      std::string Name = "lambda at " + At;
      if (const unsigned Nth = unsigned(Id & 0xff))
        Name += " (#" + std::to_string(Nth + 1) + " on the line)";
      std::string Context;
      for (unsigned I = 2; I < Site->getTemplateArgs().size(); ++I) {
        const TemplateArgument &A = Site->getTemplateArgs()[I];
        for (const TemplateArgument &E : A.getKind() == TemplateArgument::Pack ? A.pack_elements()
                                                                               : ArrayRef(A)) {
          std::string Text;
          raw_string_ostream OS(Text);
          const auto *Value = E.getKind() == TemplateArgument::Type
                                  ? dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                                        E.getAsType()->getAsCXXRecordDecl())
                                  : nullptr;
          if (Value && Value->getQualifiedNameAsString() == "std::integral_constant" &&
              Value->getTemplateArgs().size() == 2)  // a value parameter (LambdaSites.h)
            Value->getTemplateArgs()[1].print(Ctx.getPrintingPolicy(), OS, /*IncludeType=*/false);
          else
            E.print(Ctx.getPrintingPolicy(), OS, /*IncludeType=*/false);
          Context += (Context.empty() ? "" : ", ") + Text;
        }
      }
      if (!Context.empty())
        Name += " <" + Context + ">";
      auto Call = LambdaCalls.find(Id);
      auto Params = LambdaParams.find(Id);
      recordKernel(K, Call != LambdaCalls.end() ? Call->second : K->getLocation(), /*Report=*/true,
                   Name, At, Params != LambdaParams.end() ? &Params->second : nullptr);
    }
  }

private:
  /// The site ID of a parallel_for specialization whose first template argument is one.
  static std::optional<uint64_t> lambdaSiteId(const FunctionDecl *F) {
    const TemplateArgumentList *Args = F->getTemplateSpecializationArgs();
    if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Integral)
      return std::nullopt;
    return Args->get(0).getAsIntegral().getZExtValue();
  }

  /// offload::detail::NAME (lambda_kernel, reduce_kernel), if the file declares it.
  const FunctionTemplateDecl *lambdaKernelTemplate(StringRef Name) {
    auto find = [&](const DeclContext *In, StringRef Name) -> const NamedDecl * {
      DeclContextLookupResult R = In->lookup(&Ctx.Idents.get(Name));
      return R.empty() ? nullptr : R.front();
    };
    const auto *Offload = dyn_cast_or_null<NamespaceDecl>(find(Ctx.getTranslationUnitDecl(), "offload"));
    const auto *Detail = Offload ? dyn_cast_or_null<NamespaceDecl>(find(Offload, "detail")) : nullptr;
    return Detail ? dyn_cast_or_null<FunctionTemplateDecl>(find(Detail, Name)) : nullptr;
  }

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

  /// A function this file defines for others (not inline, not main; a member function too, as
  /// `int S::get() const { ... }` defined in s.cpp for a kernel of m.cpp): a kernel of another
  /// file may call it (Manifest.h, ManifestExport). Not constructors and destructors (no
  /// address to name) nor members of classes only this file sees.
  void recordExport(const FunctionDecl *F) {
    if (isa<CXXConstructorDecl, CXXDestructorDecl>(F) || F->isInlined() || F->isMain() ||
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
    E.UsesBarriers = mayCallBarrier(F);
    E.Weak = F->isWeak();
    Out.Exports.push_back(std::move(E));
  }

  /// Checks kernel K (diagnosing at At when Report) and adds it to the manifest.
  void recordKernel(const FunctionDecl *K, SourceLocation At, bool Report,
                    const std::string &Alias = "", const std::string &AliasAt = "",
                    const std::vector<std::string> *ParamNames = nullptr) {
    const std::string Name = Alias.empty() ? nameOf(K) : Alias;
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
      const size_t Index = MK.Params.size();
      MK.Params.push_back({ParamNames && Index < ParamNames->size() ? (*ParamNames)[Index]
                                                                     : P->getNameAsString(),
                           P->getType().getAsString(Ctx.getPrintingPolicy()), C.Kind,
                           isReadOnlyUnaliased(P->getType(), Ctx), C.Slots, C.Bytes});
    }
    if (!pointerParamsOk(K, Name))
      Ok = false;
    if (!Ok)
      return;

    if (Mangler->shouldMangleDeclName(K)) {
      raw_string_ostream OS(MK.HostSymbol);
      Mangler->mangleName(GlobalDecl(K), OS);
    } else {  // extern "C": the symbol is the name
      MK.HostSymbol = K->getName().str();
    }
    MK.Entry = deviceEntryName(MK.HostSymbol);
    MK.UsesBarriers = mayCallBarrier(K);
    MK.Defined = K->isDefined();
    MK.Callee = exactCallee(K, Ctx);
    PresumedLoc PL = Ctx.getSourceManager().getPresumedLoc(K->getLocation());
    if (!AliasAt.empty())
      MK.DeclaredAt = AliasAt;
    else if (PL.isValid())
      MK.DeclaredAt = (sys::path::filename(PL.getFilename()) + ":" + Twine(PL.getLine())).str();
    Out.addKernel(std::move(MK));
  }

  /// Whether kernel K's body (where this file has it) uses no pointer parameter as an array
  /// (PointerParams.h); reports each parameter that it does, at the first such use. Reported
  /// whether or not this file launches K: the file with the body is the only one that can.
  bool pointerParamsOk(const FunctionDecl *K, const std::string &Name) {
    const FunctionDecl *Def = nullptr;
    if (!K->hasBody(Def))
      return true;
    if (auto It = PointerChecks.find(Def); It != PointerChecks.end())
      return It->second;
    auto Watch = [&](const ParmVarDecl &P) {
      using offload::abi::param_kind;
      const param_kind Kind = classifyParam(P.getType(), Ctx).Kind;
      return P.getType()->isPointerType() &&
             (Kind == param_kind::map_to || Kind == param_kind::map_tofrom);
    };
    const std::vector<PointerUsedAsArray> Uses = findPointersUsedAsArrays(*Def, Watch, Ctx);
    const PrintingPolicy &Policy = Ctx.getPrintingPolicy();
    for (const PointerUsedAsArray &U : Uses) {
      const std::string Param = U.Param->getNameAsString();
      // An expression of a template is reported once, for the first instantiation found.
      SourceLocation At = U.Use->getBeginLoc();
      if (!PointerUsesReported
               .insert(std::to_string(At.getRawEncoding()) + ":" + Param)
               .second)
        continue;
      const QualType Pointee = U.Param->getType()->getPointeeType();
      const std::string Element = Pointee.getAsString(Policy);
      std::string Text = sourceText(U.Use->getSourceRange());
      std::string Message =
          "kernel '" + Name + "': parameter '" + Param + "' of type '" +
          U.Param->getType().getAsString(Policy) + "' maps one object, but the kernel " +
          (U.Indexed ? "indexes it" : "does pointer arithmetic on it") +
          (U.Through ? " through the local '" + U.Through->getNameAsString() + "'" : "") +
          (Text.empty() ? "" : " ('" + Text + "')") + ": take 'std::span<" + Element +
          ">' for a host array, or 'offload::device_ptr<" + Element +
          ">' for a device buffer's data";
      if (Pointee->isArrayType())
        Message += "; '(*" + Param + ")[i]' indexes the one array it points to";
      Diags.Report(At, Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
          << Message << U.Use->getSourceRange();
      note(U.Param->getLocation(), "parameter declared here");
    }
    PointerChecks[Def] = Uses.empty();
    return Uses.empty();
  }

  /// The source text of R, when it is short and on one line (else empty).
  std::string sourceText(SourceRange R) {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange Range = SM.getExpansionRange(R);
    StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts());
    if (Text.empty() || Text.size() > 60 || Text.contains('\n'))
      return "";
    return Text.str();
  }

  llvm::DenseMap<const FunctionDecl *, bool> PointerChecks;  ///< pointerParamsOk's answers
  llvm::StringSet<> PointerUsesReported;  ///< uses reported, by place and parameter name
  llvm::SmallPtrSet<const DeclRefExpr *, 16> LaunchArgs;  ///< kernels named by launches
  llvm::SmallPtrSet<const DeclRefExpr *, 16> AddressesTaken;  ///< recorded by VisitDeclRefExpr
  llvm::DenseMap<uint64_t, SourceLocation> LambdaCalls;  ///< parallel_for calls, by site ID
  std::map<uint64_t, std::vector<std::string>> LambdaParams;  ///< their captures' names
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
  std::string RewriteLambdasTo;  ///< HostMetadataOptions'
  std::string Salt;              ///< the compile's flags (rewriteLambdaSites)
  std::string ShownName;         ///< the source as the command line spells it (rewriteLambdaSites)
  std::string OffloadIncludeDir; ///< (its headers are not the project's)
  bool Rewritten = false;
};

class LaunchFinderConsumer : public ASTConsumer {
public:
  LaunchFinderConsumer(Manifest &Out, PassState &State) : Out(Out), State(State) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    State.ChecksRan = true;
    if (!State.RewriteLambdasTo.empty()) {
      std::optional<std::string> Text = rewriteLambdaSites(Ctx, State.Salt, State.ShownName);
      if (Ctx.getDiagnostics().hasErrorOccurred())
        return;
      if (Text) {
        std::error_code EC;
        raw_fd_ostream OS(State.RewriteLambdasTo, EC);
        if (EC) {
          Ctx.getDiagnostics().Report(Ctx.getDiagnostics().getCustomDiagID(
              DiagnosticsEngine::Error, "cannot write '%0': %1"))
              << State.RewriteLambdasTo << EC.message();
          return;
        }
        OS << *Text;
        OS.close();
        if (std::error_code Failed = OS.error()) {  // a disk full: named, not the stream's abort
          OS.clear_error();
          Ctx.getDiagnostics().Report(Ctx.getDiagnostics().getCustomDiagID(
              DiagnosticsEngine::Error, "cannot write '%0': %1"))
              << State.RewriteLambdasTo << Failed.message();
          return;
        }
        State.Rewritten = true;
        return;
      }
    }
    // The declarations this parse read from source, not those of the precompiled offload.hpp
    // (OffloadPch.h): traversing the whole translation unit would deserialise all of it
    // (libstdc++ included: ~0.3 s of a file's parse), and offload's headers launch no kernel.
    // The project's headers this parse read (Manifest::Headers): a link that compiles this
    // file's functions for a GPU refuses headers changed or shadowed since.
    const SourceManager &SM = Ctx.getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      recordProjectHeader(Out, It->first.getName(), State.OffloadIncludeDir);
    // The parent map (isCallee, enclosingFunction) is built over the same declarations: over
    // the whole translation unit it deserialised the precompiled header whole (~0.4 s of a
    // small file's 1 s parse: CI's time, docs/design.md).
    std::vector<Decl *> Scope;
    for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
      if (!D->isFromASTFile())
        Scope.push_back(D);
    Ctx.setTraversalScope(Scope);
    LaunchFinder Finder(Ctx, Out, State.GccSymbols);
    for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
      if (!D->isFromASTFile() && !offloadHeadersNamespace(D, SM))
        Finder.TraverseDecl(D);
    Finder.recordLambdaKernels();
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

/// Whether Source #includes one of offload's headers itself.
static bool namesOffloadHeaders(StringRef Source) {
  auto Text = MemoryBuffer::getFile(Source, /*IsText=*/true);
  if (!Text)
    return false;
  SmallVector<StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  return llvm::any_of(Lines, [](StringRef L) {
    L = L.ltrim();
    return L.consume_front("#") && L.ltrim().starts_with("include") && L.contains("offload/");
  });
}

/// Text (clang's diagnostics) with the source's folder named as Spelled names it: `k.cpp:7:5`
/// and `inc/k.h:3` where clang said `/abs/dir/k.cpp:7:5`, as g++ says (headers too).
static std::string asSpelled(std::string Text, StringRef Spelled) {
  SmallString<256> Absolute(Spelled);
  sys::fs::make_absolute(Absolute);
  if (Absolute == Spelled || Spelled == "-")
    return Text;
  const std::string From = (sys::path::parent_path(Absolute) + "/").str();
  const StringRef Dir = sys::path::parent_path(Spelled);
  const std::string To = Dir.empty() ? "" : (Dir + "/").str();
  for (size_t At = 0; (At = Text.find(From, At)) != std::string::npos; At += To.size())
    Text.replace(At, From.size(), To);
  return Text;
}

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

  // offload.hpp precompiled for this parse's flags (OffloadPch.h): for a file that names
  // offload's headers, and for any file whose diagnostics are kept (the build's own parse),
  // which is parsed again without it if it fails with it — a file that does not include
  // offload.hpp is never refused for what the forced header brought.
  const Manifest Start = M;
  const bool TryPch = !Options.PchClang.empty() &&
                      (Options.Diagnostics || namesOffloadHeaders(M.Source)) &&
                      pchKeepsMeaning(M.Source, Options.CompileArgs);
  bool UsedPch = false, ChecksRan = false;
  auto parse = [&](bool WithPch) {
    M = Start;
    UsedPch = false;
    std::vector<std::string> Args = {Options.ClangDriver.empty() ? "clang++" : Options.ClangDriver,
                                     "-fsyntax-only",
                                     "-resource-dir=" + Options.ClangResourceDir,
                                     "-I" + Options.OffloadIncludeDir,
                                     "-DOFFLOAD_IMPL_HOST_METADATA_PASS=1"};
    appendUserFlagsForClang(Args, Options.CompileArgs);
    if (WithPch)
      if (std::optional<std::string> Pch =
              offloadPch(Options.PchClang, Options.OffloadIncludeDir,
                         ArrayRef(Args).drop_front(2), Options.Commands)) {
        Args.insert(Args.end(), {"-include-pch", *Pch});
        UsedPch = true;
      }
    if (Options.Diagnostics)  // kept for the caller, who decides; no "N errors generated." line
      Args.push_back("-fno-caret-diagnostics");
    Args.insert(Args.end(), Options.DepArgs.begin(), Options.DepArgs.end());
    Args.push_back(M.Source);

    PassState State;
    State.GccSymbols = Options.GccSymbols;
    State.OffloadIncludeDir = Options.OffloadIncludeDir;
    State.RewriteLambdasTo = Options.RewriteLambdasTo;
    State.ShownName = Options.Source;
    for (const std::string &A : Options.CompileArgs)
      State.Salt += A + "\n";
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
    // Lines as #line gives them, as clang and g++ print them (kernels from standard input are
    // <stdin>:N, not the temporary file's N + 1).
    DiagOpts.ShowPresumedLoc = true;
    // Kept, then shown with the file named as the command names it (clang opens it by its
    // absolute path; g++'s messages beside ours said `k.cpp:7`: adversarial pass).
    std::string Own;
    std::string &Text = Options.Diagnostics ? *Options.Diagnostics : Own;
    Text.clear();
    raw_string_ostream Kept(Text);
    TextDiagnosticPrinter Printer(Kept, DiagOpts);
    Invocation.setDiagnosticConsumer(&Printer);
    const bool Ok = Invocation.run();
    ChecksRan = State.ChecksRan;
    if (Options.Rewritten)
      *Options.Rewritten = State.Rewritten;
    Kept.flush();
    Text = asSpelled(Text, Options.Source);
    if (!Options.Diagnostics || State.ChecksRan) {  // offload-cxx's own errors: always shown
      errs() << Text;
      Text.clear();
    }
    return Ok;
  };
  bool Ok = parse(TryPch);
  if (!Ok && UsedPch && Options.Diagnostics && !ChecksRan)
    Ok = parse(false);
  if (!Ok)
    return createStringError(inconvertibleErrorCode(),
                             "host-metadata pass failed for '%s'", Options.Source.c_str());
  return M;
}

} // namespace offload::compiler
