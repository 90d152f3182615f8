// compiler/cpu/WorkItemLoopsImpl.h — the work-item loops' transformation (WorkItemLoops.h),
// shared by the files that implement it: the names it looks for, the helpers, and the class
// WorkItemLoops whose steps are defined by concern —
//   WorkItemLoops.cpp        the steps in order (run), what is inlined, what keeps the fibers
//   PrepareWorkItems.cpp     index loads, shared-memory atomics, thread-local addresses
//   UniformValues.cpp        values the same for every work-item, grid-stride loops, virtual barriers
//   GridStrideSweeps.cpp     grid-stride loops reached together, as sweeps of the workgroup
//   Lockstep.cpp             kernels whose work-items meet every barrier together, uniform values
//   CarryAcrossBarriers.cpp  the split at barriers, values kept per work-item across them
//   BuildLoops.cpp           each region as a loop over the work-items
// Private to compiler/cpu/.
#pragma once

#include "RegionLoops.h"
#include "WarpExchanges.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <array>
#include <deque>
#include <map>
#include <optional>
#include <set>

namespace offload::compiler::workitems {

using namespace llvm;  // this folder's own namespace: the code reads as LLVM code

// Names from the headers (offload/workgroup.hpp, offload/reduce.hpp, offload/device.hpp,
// offload/detail/cpu_entry.hpp) and the runtime (runtime/cpu_device.cpp).
inline constexpr StringRef BarrierName = "_ZN7offload6detail11cpu_barrierEv";
inline constexpr StringRef WarpExchangePrefix = "_ZN7offload6detail17cpu_warp_exchange";
inline constexpr StringRef WorkItemsPrefix = "_ZN7offload6detail14cpu_work_itemsI";
inline constexpr StringRef CpuEntryPrefix = "__offload_cpu_entry";
inline constexpr StringRef CurrentItemName = "_ZN7offload6detail16current_cpu_itemE";
inline constexpr StringRef ScratchName = "__offload_cpu_workgroup_scratch";
// offload::shared<T>'s storage (a static thread_local of offload::shared<T, Tag>), and the
// host thread's dynamic shared memory (offload/workgroup.hpp).
inline constexpr StringRef SharedStoragePrefix = "_ZZN7offload6sharedI";
inline constexpr StringRef DynamicSharedName = "_ZN7offload6detail18cpu_dynamic_sharedEv";
inline constexpr StringRef NextRegionName = "__offload_cpu_next_region";
inline constexpr StringRef RunFibersName = "__offload_cpu_run_fibers";
/// A sweep's prefetch (UniformValues.cpp, prefetchSweepsAhead): (the work-item's next element,
/// the workgroup's first element some sweeps ahead, the workgroup's bytes there). Defined in the
/// module as the work-item's own prefetch; buildLoops makes it one prefetch per cache line of
/// the workgroup's elements, before the region's loops, where it can.
inline constexpr StringRef SweepPrefetchName = "__offload_cpu_sweep_prefetch";
/// The lines of (pointer, bytes) prefetched, one per 64 bytes (defined in the module).
inline constexpr StringRef PrefetchLinesName = "__offload_cpu_prefetch_lines";
/// Named metadata: functions whose CPU bitcode was reduced to a declaration because they reach
/// no barrier (CpuImage.cpp) — known at the link not to reach one.
inline constexpr StringRef NoBarriersName = "offload.no_barriers";
// offload::detail::cpu_item: dim3 thread, block, block_dim, grid_dim (static_asserts in
// offload/detail/cpu_entry.hpp hold the header to these offsets).
inline constexpr unsigned ThreadOffset = 0, BlockDimOffset = 24;
/// The most instructions a value live across a barrier is recomputed from at each use.
inline constexpr unsigned MaxRecomputed = 24;
/// The alignment of __offload_cpu_workgroup_scratch's buffer (runtime/cpu_device.cpp): the
/// most a local kept per work-item may ask (`alignas(4096)`; more keeps the fibers).
inline constexpr uint64_t ScratchAlign = 4096;
// The state a work-item that ended records (others record their next region's number).
inline constexpr uint32_t Ended = ~0u;
// More barriers than this (after inlining) keep the fibers: the loops' code and compile time
// grow with the regions.
inline constexpr unsigned MaxBarriers = 64;

std::string demangled(StringRef Mangled);
/// The readable name of the kernel whose CPU entry is `Entry` ("dot<double>").
std::string kernelName(StringRef Entry);
bool isBarrier(const Function &F);
bool isWarpOperation(const Function &F);
/// A declaration that cannot reach a barrier: LLVM's intrinsics, the C and C++ libraries, the
/// offload runtime's other entry points.
bool cannotMeet(const Function &F, const TargetLibraryInfo &TLI);
/// The function a call calls directly (through casts), or null.
const Function *calledFunction(const CallBase &CB);
/// Whether every use of P (through GEPs and casts) is a simple load from it: memory nothing in
/// the function writes.
bool onlyLoadedFrom(const Value *P, unsigned Depth = 0);

/// One barrier kernel's work-item function, turned into work-item loops.
class WorkItemLoops {
public:
  WorkItemLoops(Function &F, const DenseSet<const Function *> &Reach, const TargetLibraryInfo &TLI)
      : F(F), M(*F.getParent()), Ctx(F.getContext()), DL(M.getDataLayout()), Reach(Reach), TLI(TLI) {}

  bool Split = false;  ///< after run(): F reached barriers (several regions)
  bool inLockstep() const { return Lockstep; }
  std::string run();

private:
  Function &F;
  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  const DenseSet<const Function *> &Reach;
  const TargetLibraryInfo &TLI;
  SmallVector<BasicBlock *, 8> BarrierBlocks;  ///< each holds one barrier call and a branch
  /// Virtual barriers (addVirtualBarriers): blocks on the back edges of grid-stride loops, which
  /// splitAtBarriers puts after the real ones in BarrierBlocks. Not synchronisation points.
  SmallVector<BasicBlock *, 4> VirtualBlocks;
  bool IdsEscape = false;  ///< a thread-local's address escapes: keep current_cpu_item current
  Value *WarpBanks = nullptr;  ///< buildLoops: the warp exchanges' memory (WarpExchanges.h)
  AllocaInst *WarpCache = nullptr;  ///< buildLoops: the kept answer of a pass (WarpCacheName)
  /// Lockstep.cpp: every work-item of a workgroup meets the same barriers together, so each
  /// region's work-items leave it by one exit, decided once; UniformPhis are the same for all.
  bool Lockstep = false;
  SmallPtrSet<PHINode *, 16> UniformPhis;
  /// Stack slots of uniform values live across barriers: one per workgroup, not per work-item.
  SmallPtrSet<AllocaInst *, 8> UniformSlots;
  /// buildLoops: stack slots every work-item writes and the loop's end reads (the last one's
  /// value): not the x loop's parallel accesses.
  SmallPtrSet<const Value *, 8> LastItemWins;

  // WorkItemLoops.cpp
  std::string inlineWhatMeets();
  bool callsAny(bool (*Is)(const Function &)) const;
  GlobalVariable *Item();
  static bool callsBarrier(const Function &G);
  std::string checkCalls(bool Barriers);
  // PrepareWorkItems.cpp
  std::string scalarizeIndexLoads();
  static bool isShared(const Value *Ptr);
  void lowerSharedAtomics();
  void tidy();
  void copyThreadLocalAddressesToUses();
  static bool isAddressOfThreadLocal(const Value *V);
  static Instruction *copyAddressBefore(Instruction *I, Instruction *At);
  // UniformValues.cpp
  std::optional<uint64_t> itemFieldOffset(const LoadInst &L) const;
  bool readsIndex(const Value *V, unsigned Dim, unsigned Depth = 0) const;
  bool uniform(const Value *V) const;
  bool gridStride(const Loop &L, PHINode *&Induction, Value *&Stride) const;
  void prefetchNextIteration(const Loop &L, PHINode *Induction, Value *Stride);
  Value *startOfItem(Value *Start, Instruction *At, bool LastItem);
  void prefetchSweepsAhead(ArrayRef<BasicBlock *> Clones, Value *Start, Value *Stride, Value *Sweep);
  void hoistSweepPrefetches(ArrayRef<BasicBlock *> Always, ArrayRef<BasicBlock *> Clones, BasicBlock *To,
                            ArrayRef<std::pair<AllocaInst *, AllocaInst *>> Copies);
  SmallVector<std::tuple<Loop *, PHINode *, Value *>, 8> gridStrideLoops(LoopInfo &LI) const;
  bool invariantLoad(const LoadInst &L) const;
  unsigned hoistUniformValues(ArrayRef<BasicBlock *> Always, ArrayRef<BasicBlock *> Others, BasicBlock *To);
  void addVirtualBarriers(unsigned Room);
  // GridStrideSweeps.cpp
  unsigned sweepGridStrideLoops(unsigned Room);
  bool workgroupSizeOnly(const Value *V, unsigned Depth = 0) const;
  bool growsWithX(const Value *V) const;
  bool guardTestsFirst(BranchInst *GBr, ICmpInst *GCmp, BasicBlock *Pre, Value *Start, Value *Bound,
                       CmpInst::Predicate Stay);
  void sweep(Loop *L, PHINode *Induction, Value *Stride, Value *Bound, CmpInst::Predicate Stay,
             bool TestsNext, BasicBlock *Guard, FunctionCallee Barrier);
  // Lockstep.cpp
  void analyseLockstep(bool GridStride);
  bool reachedTogether(function_ref<bool(const BasicBlock *)> Meets, SmallPtrSetImpl<PHINode *> &Phis) const;
  bool uniformUnderLockstep(const Instruction *I) const;
  bool workgroupField(const Value *V) const;
  // CarryAcrossBarriers.cpp
  void splitAtBarriers();
  bool isBarrierBlock(const BasicBlock *BB) const { return llvm::is_contained(BarrierBlocks, BB); }
  /// Whether region R (R > 0) starts at a virtual barrier.
  bool isVirtual(size_t R) const { return llvm::is_contained(VirtualBlocks, BarrierBlocks[R - 1]); }
  DenseSet<const BasicBlock *> reachedThroughBarrier(const BasicBlock *X) const;
  void demoteValuesLiveAcrossBarriers();
  void demotePhis(ArrayRef<PHINode *> Phis, BasicBlock::iterator AllocaPoint);
  bool recomputable(const Value *V, unsigned &Budget) const;
  void recomputeAtUses(Instruction *I);
  // BuildLoops.cpp
  SmallVector<BasicBlock *, 16> regionBlocks(BasicBlock *Head) const;
  bool callsThatMayReadIds(ArrayRef<BasicBlock *> Blocks) const;
  void useCounters(ArrayRef<BasicBlock *> Blocks, const GlobalVariable *Item, Value *X, Value *Y,
                   Value *Z) const;
  void markParallel(ArrayRef<BasicBlock *> Blocks, Instruction *Latch) const;
  void buildLoops(bool Barriers);
  static void replaceCalls(ArrayRef<BasicBlock *> Blocks, StringRef Name, Value *With);
};

} // namespace offload::compiler::workitems
