// compiler/cpu/WorkItemLoops.cpp — the transformation's entry points (WorkItemLoops.h) and its
// steps in order.
#include "WorkItemLoopsImpl.h"
#include "WorkItemLoops.h"

namespace offload::compiler::workitems {

std::string demangled(StringRef Mangled) { return llvm::demangle(Mangled.str()); }

/// The readable name of the kernel whose CPU entry is `Entry` ("dot<double>").
std::string kernelName(StringRef Entry) {
  const std::string Mangled = Entry.drop_front(CpuEntryPrefix.size()).str();
  ItaniumPartialDemangler D;
  if (!D.partialDemangle(Mangled.c_str()))
    if (char *Name = D.getFunctionName(nullptr, nullptr)) {
      std::string S = Name;
      std::free(Name);
      return S;
    }
  return demangled(Mangled);
}

bool isBarrier(const Function &F) { return F.getName() == BarrierName; }
bool isWarpOperation(const Function &F) { return F.getName().starts_with(WarpExchangePrefix); }

/// A declaration that cannot reach a barrier: LLVM's intrinsics, the C and C++ libraries, the
/// offload runtime's other entry points.
bool cannotMeet(const Function &F, const TargetLibraryInfo &TLI) {
  if (isBarrier(F) || isWarpOperation(F))
    return false;
  if (const NamedMDNode *Known = F.getParent()->getNamedMetadata(NoBarriersName))
    for (const MDNode *N : Known->operands())
      if (N->getNumOperands() == 1)
        if (const auto *Name = dyn_cast<MDString>(N->getOperand(0)); Name && Name->getString() == F.getName())
          return true;
  LibFunc LF;
  if (F.isIntrinsic() || TLI.getLibFunc(F, LF))
    return true;
  StringRef N = F.getName();
  // C's rounding to integers, which LLVM's library table lacks (std::lround sent a barrier
  // kernel to fibers: 620 against 160-200 ms).
  for (StringRef Math : {"lround", "lroundf", "lroundl", "llround", "llroundf", "llroundl", "lrint",
                         "lrintf", "lrintl", "llrint", "llrintf", "llrintl"})
    if (N == Math)
      return true;
  for (StringRef Prefix : {"_ZN7offload", "__offload", "__cxa_", "__assert", "_ZSt", "_ZNSt",
                           "_ZNKSt", "_ZN9__gnu_cxx", "_Unwind", "__gxx_", "__cxx"})
    if (N.starts_with(Prefix))
      return true;
  return false;
}

const Function *calledFunction(const CallBase &CB) {
  return dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
}


/// Transforms F; on failure returns why (F is then broken: the caller drops it).
std::string WorkItemLoops::run() {
  if (std::string Why = inlineWhatMeets(); !Why.empty())
    return Why;
  // Warp operations split the loops as barriers do (WarpExchanges.h).
  const bool Warps = callsAny(isWarpOperation);
  bool Barriers = Split = callsAny(isBarrier) || Warps;
  if (std::string Why = checkCalls(Barriers); !Why.empty())
    return Why;
  if (std::string Why = scalarizeIndexLoads(); !Why.empty())
    return Why;
  lowerSharedAtomics();
  copyThreadLocalAddressesToUses();
  // Without barriers, a grid-stride loop every work-item reaches is swept all the same (a new
  // user's axpy over 32 workgroups: 302 ms as one loop per work-item, each striding over the
  // whole array, 38 ms swept); the kernel then has the sweeps' barriers. Its other grid-stride
  // loops stay as they are: interleaving them as virtual regions made the corpus's
  // atomic-reduction slower (33 -> 41 ms).
  unsigned Swept = 0;
  if (!Barriers && checkCalls(true).empty()) {
    tidy();
    Swept = sweepGridStrideLoops(MaxBarriers);
    Barriers = Split = Swept > 0;
  }
  if (Barriers) {
    unsigned Count = 0;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = calledFunction(*CB); Callee && (isBarrier(*Callee) || isWarpOperation(*Callee)))
          ++Count;
    if (Count > MaxBarriers)
      return "it has " + std::to_string(Count) + " barriers and warp operations after inlining "
             "(work-item loops split at most " + std::to_string(MaxBarriers) +
             ": each region is a copy of code)";
    if (!Swept) {
      tidy();
      Count += sweepGridStrideLoops(MaxBarriers - Count);
      addVirtualBarriers(MaxBarriers - Count);
    }
    const bool GridStride = !VirtualBlocks.empty();
    // After the grid-stride loops' virtual barriers: the runtime runs the lowest-numbered
    // virtual region first, so the lanes still in a loop (a row 784 long: lanes 0-15 go round
    // once more) reach the warp's exchange before it runs for those that left the loop.
    if (std::string Why = lowerWarpExchanges(F, WarpExchangePrefix, {Item(), ThreadOffset, BlockDimOffset},
                                             VirtualBlocks);
        !Why.empty())
      return Why;
    splitAtBarriers();
    analyseLockstep(GridStride);
    demoteValuesLiveAcrossBarriers();
  }
  buildLoops(Barriers);
  F.removeFnAttr(Attribute::NoInline);
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyFunction(F, &OS)) {
    if (getenv("OFFLOAD_CXX_DEBUG_LOOPS"))
      F.print(errs());
    return "internal error in the transformation: " + Problems;
  }
  return "";
}

std::string WorkItemLoops::inlineWhatMeets() {
  for (unsigned Inlined = 0;;) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = calledFunction(*CB))
          if (!Callee->isDeclaration() && Reach.contains(Callee))
            Calls.push_back(CB);
    if (Calls.empty())
      return "";
    for (CallBase *CB : Calls) {
      const std::string Callee = demangled(calledFunction(*CB)->getName());
      if (++Inlined > 2000)
        return "it reaches a barrier through recursion ('" + Callee + "')";
      InlineFunctionInfo IFI;
      InlineResult R = InlineFunction(*CB, IFI);
      if (!R.isSuccess())
        return "cannot inline '" + Callee + "', which reaches a barrier: " + R.getFailureReason();
    }
  }
}

/// Whether F calls a function that Is says is one (a barrier, a warp operation).
bool WorkItemLoops::callsAny(bool (*Is)(const Function &)) const {
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Callee = calledFunction(*CB); Callee && Is(*Callee))
        return true;
  return false;
}

/// offload::detail::current_cpu_item, declared if the module does not have it yet.
GlobalVariable *WorkItemLoops::Item() {
  if (GlobalVariable *G = M.getNamedGlobal(CurrentItemName))
    return G;
  return new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(Ctx), 48), false,
                            GlobalValue::ExternalLinkage, nullptr, CurrentItemName, nullptr,
                            GlobalValue::GeneralDynamicTLSModel);
}

/// Whether G reaches a barrier or a warp operation through direct calls of bodies the image
/// has — not merely may (Reach counts every indirect call and unseen declaration: with it,
/// any kernel that makes a virtual call, its own address taken, ran as fibers, 45x slower).
bool WorkItemLoops::callsBarrier(const Function &G) {
  SmallVector<const Function *, 8> Work = {&G};
  DenseSet<const Function *> Seen;
  while (!Work.empty()) {
    const Function *Fn = Work.pop_back_val();
    if (!Seen.insert(Fn).second)
      continue;
    if (isBarrier(*Fn) || isWarpOperation(*Fn))
      return true;
    for (const Instruction &I : instructions(*Fn))
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = calledFunction(*CB))
          Work.push_back(Callee);
  }
  return false;
}

/// Without barriers (nor warp operations), F is one loop over the work-items (a call that
/// reaches a barrier anyway is the runtime's error).
std::string WorkItemLoops::checkCalls(bool Barriers) {
  if (!Barriers) {
    // One loop over the work-items — unless an indirect call may reach a barrier: some
    // function that reaches one has its address taken somewhere in the program.
    for (Instruction &I : instructions(F))
      if (const auto *CB = dyn_cast<CallBase>(&I); CB && !CB->isInlineAsm() && !calledFunction(*CB))
        for (const Function &G : M)
          if ((isBarrier(G) || (Reach.contains(&G) && callsBarrier(G))) &&
              G.hasAddressTaken(nullptr, false, true, /*IgnoreLLVMUsed=*/true))
            return "it makes an indirect call, and '" + demangled(G.getName()) +
                   "', which reaches a barrier, has its address taken";
    return "";
  }
  for (Instruction &I : instructions(F)) {
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      if (!A->isStaticAlloca() || A->getParent() != &F.getEntryBlock())
        return "it has a variable-length array (or alloca())";
      if (A->getAlign().value() > ScratchAlign)
        return "a local is aligned to " + std::to_string(A->getAlign().value()) +
               " bytes (work-item loops keep locals aligned to at most " + std::to_string(ScratchAlign) + ")";
    }
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || CB->isInlineAsm())
      continue;
    const Function *Callee = calledFunction(*CB);
    if (!Callee)
      return "it makes an indirect call, which may reach a barrier";
    if (Callee->isDeclaration() && !isBarrier(*Callee) && !isWarpOperation(*Callee) &&
        !cannotMeet(*Callee, TLI))
      return "it calls '" + demangled(Callee->getName()) +
             "', whose body the CPU image does not have (it may reach a barrier)";
  }
  return "";
}

} // namespace offload::compiler::workitems

namespace offload::compiler {

using namespace workitems;

DenseSet<const Function *> functionsReachingBarriers(const Module &M) {
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  TargetLibraryInfo TLI(TLII);
  DenseSet<const Function *> Reach;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : M) {
      if (F.isDeclaration() || Reach.contains(&F))
        continue;
      for (const Instruction &I : instructions(F)) {
        const auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || CB->isInlineAsm())
          continue;
        const Function *Callee = calledFunction(*CB);
        if (!Callee || (Callee->isDeclaration() ? !cannotMeet(*Callee, TLI) : Reach.contains(Callee))) {
          Reach.insert(&F);
          Changed = true;
          break;
        }
      }
    }
  }
  return Reach;
}

void recordNoBarriers(Module &M, ArrayRef<std::string> Names) {
  NamedMDNode *Known = M.getOrInsertNamedMetadata(NoBarriersName);
  for (const std::string &Name : Names)
    Known->addOperand(MDNode::get(M.getContext(), MDString::get(M.getContext(), Name)));
}

/// A variable of the user's file with internal linkage that F (or what it calls) reads or
/// writes, and which is not a constant: `static int g;`, an anonymous namespace's, a const
/// global initialised at run time (`const double s = std::atof(...)`). The CPU image is its own
/// translation unit with its own copy of each, which the program never writes (nor, for a
/// dynamic initialiser, initialises): the host code's is the one to use. Empty if none.
std::string hostOnlyVariable(Function &Items) {
  SmallVector<Function *, 8> Work = {&Items};
  DenseSet<const Function *> Seen;
  SmallVector<const Value *, 16> Operands;
  DenseSet<const Value *> Visited;
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second || F->isDeclaration())
      continue;
    for (Instruction &I : instructions(*F)) {
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto *Callee = const_cast<Function *>(calledFunction(*CB)))
          Work.push_back(Callee);
      Operands.assign(I.op_begin(), I.op_end());
      while (!Operands.empty()) {
        const Value *V = Operands.pop_back_val();
        if (!Visited.insert(V).second)
          continue;
        if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
          if (GV->hasLocalLinkage() && !GV->isConstant() && !GV->isThreadLocal() &&
              !GV->getName().starts_with("__offload") && !GV->getName().starts_with("llvm."))
            return demangled(GV->getName().str());
        } else if (const auto *CE = dyn_cast<ConstantExpr>(V)) {
          Operands.append(CE->op_begin(), CE->op_end());
        }
      }
    }
  }
  return "";
}

void recordHostOnlyVariables(Module &M) {
  NamedMDNode *Record = M.getOrInsertNamedMetadata(HostOnlyVariablesName);
  for (Function &F : M)
    if (F.getName().starts_with(CpuEntryPrefix) && !F.isDeclaration())
      if (const std::string Variable = hostOnlyVariable(F); !Variable.empty())
        Record->addOperand(MDNode::get(M.getContext(), {MDString::get(M.getContext(), F.getName()),
                                                        MDString::get(M.getContext(), Variable)}));
}

/// The variable recordHostOnlyVariables found for Entry, if any.
static std::string recordedHostOnlyVariable(const Function &Entry) {
  if (const NamedMDNode *Record = Entry.getParent()->getNamedMetadata(HostOnlyVariablesName))
    for (const MDNode *N : Record->operands())
      if (N->getNumOperands() == 2)
        if (const auto *Name = dyn_cast<MDString>(N->getOperand(0)); Name && Name->getString() == Entry.getName())
          if (const auto *Variable = dyn_cast<MDString>(N->getOperand(1)))
            return Variable->getString().str();
  return "";
}

std::vector<WorkItemLoopsOutcome> formWorkItemLoops(Module &M) {
  std::vector<WorkItemLoopsOutcome> Outcomes;
  const DenseSet<const Function *> Reach = functionsReachingBarriers(M);
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  TargetLibraryInfo TLI(TLII);
  // work-item function → its loops (nullptr: fibers), and whether they are split at barriers
  struct Formed {
    Function *Loops = nullptr;
    bool Split = false, Lockstep = false;
  };
  DenseMap<Function *, Formed> Done;
  SmallVector<Function *, 8> Entries;
  for (Function &F : M)
    if (F.getName().starts_with(CpuEntryPrefix) && !F.isDeclaration())
      Entries.push_back(&F);
  for (Function *Entry : Entries) {
    // The work-item function: called by the entry, or by what the entry calls.
    Function *Items = nullptr;
    SmallVector<Function *, 4> Work = {Entry};
    DenseSet<Function *> Seen;
    while (!Work.empty() && !Items) {
      Function *Caller = Work.pop_back_val();
      if (!Seen.insert(Caller).second || Caller->isDeclaration())
        continue;
      for (Instruction &I : instructions(*Caller))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (auto *Callee = const_cast<Function *>(calledFunction(*CB))) {
            if (Callee->getName().starts_with(WorkItemsPrefix)) {
              Items = Callee;
              break;
            }
            Work.push_back(Callee);
          }
    }
    if (!Items)
      continue;
    WorkItemLoopsOutcome Outcome;
    Outcome.Kernel = kernelName(Entry->getName());
    Outcome.Entry = Entry->getName().str();
    auto [It, New] = Done.try_emplace(Items);
    const std::string Variable = New ? recordedHostOnlyVariable(*Entry) : std::string();
    if (!Variable.empty()) {
      // The host's code, run by the fiber path, reads the program's own copy (issue 29: the
      // CPU image read 1 where the program had stored 21, silently).
      Outcome.Reason = "it uses '" + Variable +
                       "', a variable of the file's own (internal linkage) that only the host's "
                       "code shares with the program";
    } else if (New) {
      ValueToValueMapTy VMap;
      Function *Loops = CloneFunction(Items, VMap);
      WorkItemLoops Transform(*Loops, Reach, TLI);
      Outcome.Reason = Transform.run();
      It->second.Split = Transform.Split;
      It->second.Lockstep = Transform.inLockstep();
      if (Outcome.Reason.empty()) {
        Items->replaceAllUsesWith(Loops);
        Loops->takeName(Items);
        Items->eraseFromParent();
        It->second.Loops = Loops;
        // The scratch buffer's allocation may throw: nothing from the loops up to the entry
        // may still claim not to unwind (clang inferred it for the work-item function).
        SmallVector<Function *, 4> Up = {Loops};
        DenseSet<Function *> Cleared;
        while (!Up.empty()) {
          Function *Fn = Up.pop_back_val();
          if (!Cleared.insert(Fn).second)
            continue;
          Fn->removeFnAttr(Attribute::NoUnwind);
          for (User *U : Fn->users())
            if (auto *CB = dyn_cast<CallBase>(U)) {
              CB->removeFnAttr(Attribute::NoUnwind);
              Up.push_back(CB->getFunction());
            }
        }
      } else {
        Loops->eraseFromParent();
      }
    }
    Outcome.Loops = It->second.Loops != nullptr;
    Outcome.Split = It->second.Split;
    Outcome.Lockstep = It->second.Lockstep;
    if (!Outcome.Loops) {
      if (Outcome.Reason.empty())
        Outcome.Reason = "(as another entry of the same kernel)";
      // The fiber path: the entry hands its workgroup to the runtime.
      Entry->deleteBody();
      Entry->setLinkage(GlobalValue::WeakODRLinkage);
      BasicBlock *BB = BasicBlock::Create(M.getContext(), "fibers", Entry);
      IRBuilder<> B(BB);
      FunctionCallee RunFibers = M.getOrInsertFunction(
          RunFibersName, Type::getVoidTy(M.getContext()), PointerType::getUnqual(M.getContext()));
      B.CreateCall(RunFibers, {Entry->getArg(0)});
      B.CreateRetVoid();
    }
    Outcomes.push_back(std::move(Outcome));
  }
  return Outcomes;
}

} // namespace offload::compiler


namespace offload::compiler {

std::string describeOutcome(const WorkItemLoopsOutcome &Outcome) {
  return "offload-cxx: kernel '" + Outcome.Kernel + "' on the CPU device: " +
         (!Outcome.Loops ? "fibers, because " + Outcome.Reason
          : Outcome.Split ? std::string("work-item loops split at its barriers") +
                                (Outcome.Lockstep ? ", in lockstep" : "")
                          : std::string("one loop over its work-items (no barriers)"));
}

PreservedAnalyses WorkItemLoopsPass::run(Module &M, ModuleAnalysisManager &) {
  const std::vector<WorkItemLoopsOutcome> Outcomes = formWorkItemLoops(M);
  if (Verbose)
    for (const WorkItemLoopsOutcome &Outcome : Outcomes)
      errs() << describeOutcome(Outcome) << "\n";
  return Outcomes.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace offload::compiler
