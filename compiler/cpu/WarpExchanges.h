// compiler/cpu/WarpExchanges.h — warp operations in work-item loops (compiler/cpu/WorkItemLoops.h).
//
// Every warp operation of the CPU device (shuffle, ballot, the warp reductions: offload/reduce.hpp)
// goes through one exchange: `cpu_warp_words cpu_warp_exchange(uint32_t word)` stores the
// lane's word, waits for the lanes of its warp, and returns the warp's words and which lanes
// took part. In work-item loops each exchange becomes a *virtual barrier* (as a grid-stride
// loop's back edge: the runtime runs the region after it for the work-items waiting there,
// before any real barrier is released, and it synchronises nothing else): before it, the
// work-item counts its exchanges and stores its word in one of two banks (by the count's
// parity, so a lane that goes on to its next exchange does not overwrite a word a slower lane of
// its warp has yet to read); after it, the warp's words are the bank at the warp's first lane,
// and a lane took part when its count is at least the caller's (a lane that returned, or waits
// elsewhere, has a smaller one) — the fibers' rule (runtime/cpu_fibers.cpp). In the version of
// the region that runs every work-item, every lane of the warp took part.
#pragma once

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"

#include <string>

namespace offload::compiler {

/// Names the lowering leaves for the loops to replace (cpu/WorkItemLoops.cpp buildLoops).
/// A call of WarpBanksName() is the workgroup's exchange memory: two banks of one word per
/// work-item, then one count per work-item (zero at the workgroup's start).
inline constexpr llvm::StringLiteral WarpBanksName = "__offload_cpu_loops_warp_banks";
/// A call of EveryLaneName() is true in a region's version for every work-item, false in its
/// version for some.
inline constexpr llvm::StringLiteral EveryLaneName = "__offload_cpu_loops_every_lane";
/// The runtime's: which lanes' counts (counts[0..lanes)) are at least `count` (an error where a
/// lane's is not and its state, states[lane], says it waits at a barrier).
inline constexpr llvm::StringLiteral WarpPresentName = "__offload_cpu_warp_present";
/// A call of WarpCacheName() is a slot of the loops' {i64 key, i32 lanes}: the last answer of
/// WarpPresentName in this pass of a region (key: the warp's first lane << 32 | the count), which
/// every lane of that warp would get again (the loops reset it before each pass).
inline constexpr llvm::StringLiteral WarpCacheName = "__offload_cpu_loops_warp_cache";
/// The key no warp has (a warp's first lane is a multiple of 32).
inline constexpr uint64_t NoWarpCached = ~uint64_t(0);
/// A call of StatesName() is the loops' per-work-item states (which region each waits for).
inline constexpr llvm::StringLiteral StatesName = "__offload_cpu_loops_states";

/// The place where the work-item's index and its workgroup's size are read.
struct WorkItemFields {
  llvm::GlobalVariable *Item;  ///< offload::detail::current_cpu_item
  unsigned ThreadOffset, BlockDimOffset;
};

/// Lowers every call of the exchange (a function named with Prefix) in F as above; returns the
/// virtual barrier blocks (each an empty block ending in a branch), or a reason it cannot.
std::string lowerWarpExchanges(llvm::Function &F, llvm::StringRef Prefix, const WorkItemFields &Fields,
                               llvm::SmallVectorImpl<llvm::BasicBlock *> &Virtual);

} // namespace offload::compiler
