// runtime/cpu_memory.hpp — the CPU device's memory (cpu_backend.cpp). Every block — the copy of a
// mapped object (present_table.hpp), a buffer — is fenced, so that a kernel writing past it is
// the launch's device-fault error, never a damaged heap or a signal that ends the program:
//
//   [ guard pages | header . . . | guard bytes | object | guard bytes | guard pages ]
//     1 MiB, no access             64             bytes    0 to 255      1 MiB, no access
//
// The object ends within 256 bytes of the guard pages after it (its start keeps the 256-byte
// alignment every device promises, plus the caller's offset). A write into guard pages faults at
// once, and cpu_fault.cpp makes the fault the launch's error; a write into guard bytes is found
// by check() once the kernel has run, before anything is copied back.
//
// Blocks are carved out of one arena: 64 GiB of address space reserved with no access at the
// first block, of which blocks use the lower half above a 4 GiB margin. So a write farther than
// the guard pages meets more inaccessible pages (a fault) or another block of the CPU device —
// never the host's objects, which lie outside the arena (without it, the host's large vectors,
// which glibc maps one beside the other, lie right beside the copies). A write inside the
// object's own pages but farther than 64 bytes before it is not seen (it harms nothing: the pages
// are the block's own), nor one that lands in another block.
//
// Released blocks are kept for reuse (at most `kept_blocks_most` of them and `kept_bytes_most`
// bytes (1 GiB), the largest given back first), so launches that map objects of sizes seen before make no
// system call. Where the arena cannot be had (a limit on the address space) or is full, a block
// is a mapping of its own with its guard pages; where no mapping can be had (the limit on a
// process's mappings), it is heap memory with guard bytes on both sides (256 and up to 255 more
// after the object) and no guard pages.
#pragma once

#include <cstddef>
#include <cstdint>

namespace offload::rt::cpu_memory {

/// Blocks start (before the caller's offset) at a multiple of this.
inline constexpr std::size_t alignment = 256;
/// Guard bytes checked before each object; after it, those up to the guard pages (0 to 255),
/// or `heap_guard_bytes` and up to 255 more in a heap block.
inline constexpr std::size_t guard_bytes = 64;
inline constexpr std::size_t heap_guard_bytes = 256;
/// A block's header (which block it is) lies this far before the address allocate() returns,
/// below the guard bytes before the object.
inline constexpr std::size_t header_offset = guard_bytes + 64;
/// The inaccessible pages on each side of a mapped block.
inline constexpr std::size_t guard_pages_bytes = std::size_t(1) << 20;
/// What check() and release() recognise in guard bytes that nothing wrote.
inline constexpr unsigned char guard_pattern = 0xa5;
/// The most released blocks kept for reuse, and their most bytes. A program that maps the same
/// large objects at every launch reuses their pages: with 32 MiB, the copy of a 64 MiB span was
/// new memory at each launch, every page faulted in again (a new user's axpy with four 64 MiB
/// spans: most of its time; OpenMP touches its arrays once). As CUDA's caching allocators keep
/// what was freed, up to 1 GiB is kept.
inline constexpr std::size_t kept_blocks_most = 256;
inline constexpr std::uint64_t kept_bytes_most = std::uint64_t(1) << 30;

/// Memory for an object of `bytes` (> 0) that begins `offset` (< alignment) bytes past the
/// returned address, which is a multiple of `alignment`; null when none can be had. `buffer`:
/// device memory the program holds (offload::buffer): find_buffer() finds it.
void *allocate(std::uint64_t offset, std::uint64_t bytes, bool buffer) noexcept;
/// Where an object's guard bytes were written: how far from the object the farthest written
/// byte lies (1: the byte just before its start, or just after its end).
struct damage {
  std::uint64_t before = 0, after = 0;
  explicit operator bool() const { return before || after; }
};

/// A live block: its object [begin, end), and whether it is a buffer.
struct block_info {
  void *memory = nullptr;
  std::uintptr_t begin = 0, end = 0;
  bool buffer = false;
};

/// Gives back what allocate() returned (kept for reuse, or unmapped). A buffer's guard bytes
/// are checked first: where they were written, and (in `buffer`) which buffer it was; copies are
/// not checked (their launches and regions did).
damage release(void *memory, block_info *buffer = nullptr) noexcept;

/// The guard bytes of allocate()'s block `memory`: where they were written (none: all as
/// allocate() wrote them). Written ones are written again, so a later check sees only new damage.
/// `info`, when given, receives the block's description.
damage check(void *memory, block_info *info = nullptr) noexcept;
/// The description of allocate()'s block `memory`; false when it is none of them.
bool describe(void *memory, block_info &info) noexcept;

/// The live block whose object, guard bytes or guard pages hold `address` (a fault's), if any.
bool find(const void *address, block_info &info) noexcept;
/// The live buffer whose object holds `address` (its end included: a pointer one past it): what
/// allocate() returned for it, or null. One atomic load when no buffer is live (a launch asks
/// this of its 8-byte values).
void *find_buffer(std::uintptr_t address) noexcept;

/// For tests: the blocks made so far (each one mapping, or one heap allocation), those kept for
/// reuse, and whether the next blocks are made on the heap (as when mappings are refused).
struct statistics {
  std::uint64_t blocks_made = 0, heap_blocks_made = 0;
  std::size_t kept = 0;
  std::uint64_t kept_bytes = 0;
  const void *arena = nullptr;  ///< where the arena begins (null: none yet, or none to have)
  std::size_t arena_bytes = 0;
};
statistics stats() noexcept;
void use_heap_for_testing(bool heap) noexcept;

} // namespace offload::rt::cpu_memory
