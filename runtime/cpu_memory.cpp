// runtime/cpu_memory.cpp — see cpu_memory.hpp.
#include "cpu_memory.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace offload::rt::cpu_memory {
namespace {

/// Says which block an address allocate() returned belongs to, without a lookup; `check` tells a
/// header from bytes a kernel wrote there.
struct header {
  struct block *owner;
  std::uintptr_t check;
};
constexpr std::uintptr_t header_key = 0x6f66666c6f616421;  // "offload!"

struct block {
  char *base;              ///< its range of the arena, or what mmap or aligned_alloc returned
  std::size_t base_bytes;  ///< the whole range (guard pages included), or allocation
  char *usable;            ///< the readable and writable part
  std::size_t usable_bytes;
  bool mapped;  ///< guard pages around `usable`; else heap memory
  bool in_arena = false;  ///< its range is the arena's
  // The object it holds now (written under the state's lock; read there by find, and without it
  // by the block's holder).
  char *memory = nullptr, *begin = nullptr, *end = nullptr;
  bool live = false, buffer = false;
  block *next_kept = nullptr;  ///< the next kept block of its size
};

std::uintptr_t address_of(const void *p) { return reinterpret_cast<std::uintptr_t>(p); }

/// The arena: one reservation of address space that nothing can access, out of which mapped
/// blocks are made readable and writable, each in a range with its guard pages. Host memory
/// mapped after the CPU device's first block lies below the arena, host memory mapped before it
/// above: blocks are made in [bottom margin, half), so that a kernel writing past a block, however
/// far up to the arena's top half (or down to its bottom margin), meets inaccessible pages or
/// other blocks of the CPU device, never the host's objects (without the arena the host's large
/// vectors, which glibc maps, lie right beside the copies).
constexpr std::size_t arena_bytes = std::size_t(64) << 30;
constexpr std::size_t arena_bottom_margin = std::size_t(4) << 30;
constexpr std::size_t arena_top_margin = arena_bytes / 2;

struct state {
  std::mutex lock;
  char *arena = nullptr;  ///< null until the first mapped block (or when it cannot be had)
  bool arena_tried = false;
  std::uintptr_t arena_next = 0;                 ///< where unused ranges begin
  std::map<std::uintptr_t, std::size_t> arena_free;  ///< given-back ranges below arena_next
  std::map<std::uintptr_t, block *> blocks;  ///< every block, live or kept, by base
  /// Released mapped blocks, by usable bytes: a list of each size (through next_kept; a size's
  /// entry stays when its list empties, so that keeping and taking allocate nothing).
  std::map<std::size_t, block *> kept;
  std::size_t kept_count = 0;
  std::uint64_t kept_bytes = 0;
  std::uint64_t made = 0, heap_made = 0;
  std::atomic<std::size_t> live_buffers{0};
  std::atomic<std::uint64_t> buffers_released{0};  ///< recent_buffers' generation
  /// Every address a buffer's object has held lies in [buffer_low, buffer_high]: other values a
  /// launch passes are told apart without the lock.
  std::atomic<std::uintptr_t> buffer_low{UINTPTR_MAX}, buffer_high{0};
  std::atomic<bool> heap_only{false};
};

/// Made when the library loads; never destroyed (blocks may be released at exit). Its lock is
/// held across fork(), so that a child never inherits it taken by a thread it does not have.
state *const the_state = [] {
  auto *s = new state;
  pthread_atfork([] { the_state->lock.lock(); }, [] { the_state->lock.unlock(); },
                 [] { the_state->lock.unlock(); });
  return s;
}();

namespace {
/// Read when the library loads: a function-local static's guard, held by a parent's thread at
/// fork(), would hold the child for ever.
const std::size_t page_size = [] {
  const long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? static_cast<std::size_t>(p) : std::size_t(4096);
}();
} // namespace

std::size_t page_bytes() { return page_size; }

std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

/// Whether the `bytes` at `p` all hold the guard pattern. Every launch checks each of its
/// objects: 32 bytes a step in four independent words, the last 8 bytes read once more where
/// the length is no multiple of 8.
bool intact(const char *p, std::size_t bytes) {
  constexpr std::uint64_t word = 0x0101010101010101u * guard_pattern;
  auto load = [](const char *at) {
    std::uint64_t w;
    std::memcpy(&w, at, 8);
    return w ^ word;
  };
  if (bytes < 8) {
    unsigned differ = 0;
    for (std::size_t k = 0; k < bytes; ++k)
      differ |= static_cast<unsigned char>(p[k]) ^ guard_pattern;
    return differ == 0;
  }
  std::uint64_t d0 = load(p + bytes - 8), d1 = 0, d2 = 0, d3 = 0;
  std::size_t k = 0;
  for (; k + 32 <= bytes; k += 32) {
    d0 |= load(p + k);
    d1 |= load(p + k + 8);
    d2 |= load(p + k + 16);
    d3 |= load(p + k + 24);
  }
  for (; k + 8 <= bytes; k += 8)
    d1 |= load(p + k);
  return (d0 | d1 | d2 | d3) == 0;
}

/// A range of `total` bytes of the arena (reserved at the first call), or null. Under the lock.
char *arena_take(state &s, std::size_t total) {
  if (!s.arena_tried) {
    s.arena_tried = true;
    void *a = mmap(nullptr, arena_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (a != MAP_FAILED) {
      s.arena = static_cast<char *>(a);
      s.arena_next = address_of(s.arena) + arena_bottom_margin;
    }
  }
  if (!s.arena)
    return nullptr;
  for (auto it = s.arena_free.begin(); it != s.arena_free.end(); ++it)  // the lowest that fits
    if (it->second >= total) {
      const std::uintptr_t start = it->first;
      if (it->second > total)
        s.arena_free.emplace(start + total, it->second - total);
      s.arena_free.erase(it);
      return reinterpret_cast<char *>(start);
    }
  const std::uintptr_t limit = address_of(s.arena) + arena_bytes - arena_top_margin;
  if (total > limit - s.arena_next)
    return nullptr;
  const std::uintptr_t start = s.arena_next;
  s.arena_next += total;
  return reinterpret_cast<char *>(start);
}

/// Gives a range back to the arena (made inaccessible again by the caller). Under the lock.
void arena_give(state &s, char *range, std::size_t total) {
  std::uintptr_t start = address_of(range), end = start + total;
  auto next = s.arena_free.lower_bound(start);
  if (next != s.arena_free.begin()) {
    auto before = std::prev(next);
    if (before->first + before->second == start) {
      start = before->first;
      s.arena_free.erase(before);
    }
  }
  if (next != s.arena_free.end() && next->first == end) {
    end += next->second;
    s.arena_free.erase(next);
  }
  if (end == s.arena_next)
    s.arena_next = start;
  else
    s.arena_free.emplace(start, end - start);
}

block *make_mapped(std::size_t usable_bytes) noexcept {
  if (usable_bytes > SIZE_MAX / 4)
    return nullptr;
  const std::size_t total = guard_pages_bytes + usable_bytes + guard_pages_bytes;
  state &s = *the_state;
  char *range = nullptr;
  {
    std::lock_guard guard(s.lock);
    range = arena_take(s, total);
  }
  if (range) {
    char *usable = range + guard_pages_bytes;
    block *b = nullptr;
    if (mprotect(usable, usable_bytes, PROT_READ | PROT_WRITE) == 0 &&
        (b = new (std::nothrow) block{range, total, usable, usable_bytes, true, true}))
      return b;
    if (b == nullptr)
      mmap(usable, usable_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
           -1, 0);
    std::lock_guard guard(s.lock);
    arena_give(s, range, total);
    return nullptr;  // out of mappings: a separate mapping would fail too
  }
  // No arena (the address space is limited), or the block does not fit in it: a mapping of its
  // own, with its guard pages.
  void *base = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    return nullptr;
  char *usable = static_cast<char *>(base) + guard_pages_bytes;
  if (mprotect(usable, usable_bytes, PROT_READ | PROT_WRITE) != 0) {
    munmap(base, total);
    return nullptr;
  }
  auto *b = new (std::nothrow) block{static_cast<char *>(base), total, usable, usable_bytes, true};
  if (!b)
    munmap(base, total);
  return b;
}

block *make_heap(std::size_t usable_bytes) noexcept {
  void *base = std::aligned_alloc(alignment, usable_bytes);
  if (!base)
    return nullptr;
  auto *b = new (std::nothrow)
      block{static_cast<char *>(base), usable_bytes, static_cast<char *>(base), usable_bytes, false};
  if (!b)
    std::free(base);
  return b;
}

void destroy(block *b) noexcept {
  if (b->in_arena) {
    // Its pages are dropped and made inaccessible again; the range goes back to the arena.
    mmap(b->usable, b->usable_bytes, PROT_NONE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    std::lock_guard guard(the_state->lock);
    arena_give(*the_state, b->base, b->base_bytes);
  } else if (b->mapped)
    munmap(b->base, b->base_bytes);
  else
    std::free(b->base);
  delete b;
}

/// Chooses where the object lies in `b` (as near its end as the alignment allows; heap blocks
/// keep heap_guard_bytes after it). Under the state's lock.
void place(block &b, std::uint64_t offset, std::uint64_t bytes, bool buffer) {
  const std::uintptr_t usable_end = address_of(b.usable) + b.usable_bytes;
  const std::uintptr_t memory =
      (usable_end - (b.mapped ? 0 : heap_guard_bytes) - offset - bytes) & ~std::uintptr_t(alignment - 1);
  b.memory = reinterpret_cast<char *>(memory);
  b.begin = b.memory + offset;
  b.end = b.begin + bytes;
  b.live = true;
  b.buffer = buffer;
}

/// Writes `b`'s header and guard bytes (by its holder, outside the lock).
void arm(block &b) noexcept {
  auto *h = reinterpret_cast<header *>(b.memory - header_offset);
  h->owner = &b;
  h->check = address_of(&b) ^ address_of(b.memory) ^ header_key;
  std::memset(b.begin - guard_bytes, guard_pattern, guard_bytes);
  std::memset(b.end, guard_pattern, static_cast<std::size_t>(b.usable + b.usable_bytes - b.end));
}

/// The live block at the address its allocate() returned: by its header, else (a kernel wrote
/// over the header) by looking it up. `header_damaged` says which.
block *owner_of(void *memory, bool *header_damaged = nullptr) noexcept {
  const auto *h = reinterpret_cast<const header *>(static_cast<char *>(memory) - header_offset);
  if (h->check == (address_of(h->owner) ^ address_of(memory) ^ header_key)) {
    if (header_damaged)
      *header_damaged = false;
    return h->owner;
  }
  if (header_damaged)
    *header_damaged = true;
  std::lock_guard guard(the_state->lock);
  auto it = the_state->blocks.upper_bound(address_of(memory));
  if (it == the_state->blocks.begin())
    return nullptr;
  block *b = std::prev(it)->second;
  return b->live && b->memory == memory ? b : nullptr;
}

/// The farthest byte of `bytes` guard bytes at `from` that is not the pattern, counted from the
/// object (`backwards`: from[-1] is 1, from[-2] is 2, ...; else from[0] is 1); 0 when none.
std::uint64_t farthest_written(const char *from, std::size_t bytes, bool backwards) {
  std::uint64_t farthest = 0;
  for (std::size_t k = 0; k < bytes; ++k) {
    const unsigned char c = static_cast<unsigned char>(backwards ? from[-1 - std::ptrdiff_t(k)] : from[k]);
    if (c != guard_pattern)
      farthest = k + 1;
  }
  return farthest;
}

/// The guard bytes of `b` (check()).
damage check_block(block &b, bool header_damaged) noexcept {
  damage d;
  if (header_damaged) {
    // Written over by the kernel (farther before the object than its guard bytes): that much
    // before it at least, and the header is made again.
    d.before = static_cast<std::uint64_t>(b.begin - (b.memory - header_offset));
    auto *h = reinterpret_cast<header *>(b.memory - header_offset);
    h->owner = &b;
    h->check = address_of(&b) ^ address_of(b.memory) ^ header_key;
  }
  if (!intact(b.begin - guard_bytes, guard_bytes)) {
    if (!header_damaged)
      d.before = farthest_written(b.begin, guard_bytes, /*backwards=*/true);
    std::memset(b.begin - guard_bytes, guard_pattern, guard_bytes);
  }
  const auto after = static_cast<std::size_t>(b.usable + b.usable_bytes - b.end);
  if (!intact(b.end, after)) {
    d.after = farthest_written(b.end, after, /*backwards=*/false);
    std::memset(b.end, guard_pattern, after);
  }
  return d;
}

} // namespace

void *allocate(std::uint64_t offset, std::uint64_t bytes, bool buffer) noexcept {
  if (offset >= alignment || bytes == 0 || bytes > (std::uint64_t(1) << 60))
    return nullptr;
  state &s = *the_state;
  const bool heap = s.heap_only.load(std::memory_order_relaxed);
  const std::uint64_t least = offset + bytes + header_offset + alignment - 1;
  block *b = nullptr;
  if (!heap) {
    const std::uint64_t usable = round_up(least, page_bytes());
    {
      std::lock_guard guard(s.lock);
      // A kept block of this size, or up to a quarter larger (the object goes at its end).
      for (auto it = s.kept.lower_bound(usable); it != s.kept.end() && it->first <= usable + usable / 4;
           ++it)
        if (it->second) {
          b = it->second;
          it->second = b->next_kept;
          --s.kept_count;
          s.kept_bytes -= b->usable_bytes;
          place(*b, offset, bytes, buffer);
          break;
        }
    }
    if (!b && (b = make_mapped(usable))) {
      std::lock_guard guard(s.lock);
      s.blocks.emplace(address_of(b->base), b);
      ++s.made;
      place(*b, offset, bytes, buffer);
    }
  }
  if (!b && (b = make_heap(round_up(least + heap_guard_bytes, alignment)))) {
    std::lock_guard guard(s.lock);
    s.blocks.emplace(address_of(b->base), b);
    ++s.made;
    ++s.heap_made;
    place(*b, offset, bytes, buffer);
  }
  if (!b)
    return nullptr;
  if (buffer) {
    s.live_buffers.fetch_add(1, std::memory_order_relaxed);
    std::uintptr_t low = s.buffer_low.load(std::memory_order_relaxed);
    while (address_of(b->begin) < low &&
           !s.buffer_low.compare_exchange_weak(low, address_of(b->begin), std::memory_order_relaxed)) {
    }
    std::uintptr_t high = s.buffer_high.load(std::memory_order_relaxed);
    while (address_of(b->end) > high &&
           !s.buffer_high.compare_exchange_weak(high, address_of(b->end), std::memory_order_relaxed)) {
    }
  }
  arm(*b);
  return b->memory;
}

damage release(void *memory, block_info *buffer) noexcept {
  if (!memory)
    return {};
  bool header_damaged = false;
  block *b = owner_of(memory, &header_damaged);
  if (!b)
    return {};
  damage d;
  if (b->buffer) {
    d = check_block(*b, header_damaged);
    if (buffer)
      *buffer = {b->memory, address_of(b->begin), address_of(b->end), true};
  }
  state &s = *the_state;
  block *drop = nullptr;
  {
    std::lock_guard guard(s.lock);
    if (b->buffer) {
      s.live_buffers.fetch_sub(1, std::memory_order_relaxed);
      s.buffers_released.fetch_add(1, std::memory_order_release);
    }
    b->live = b->buffer = false;
    if (b->mapped) {
      try {
        block *&head = s.kept[b->usable_bytes];
        b->next_kept = head;
        head = b;
        ++s.kept_count;
        s.kept_bytes += b->usable_bytes;
      } catch (...) {  // no memory for the size's entry: the block goes
        drop = b;
      }
      // Over a limit: the largest kept block goes (one suffices: the limits held before).
      if (!drop && (s.kept_count > kept_blocks_most || s.kept_bytes > kept_bytes_most))
        for (auto it = s.kept.rbegin(); it != s.kept.rend(); ++it)
          if (it->second) {
            drop = it->second;
            it->second = drop->next_kept;
            --s.kept_count;
            s.kept_bytes -= drop->usable_bytes;
            break;
          }
      // Sizes no longer kept are forgotten now and then (a program may map many sizes).
      if (s.kept.size() > 4 * kept_blocks_most)
        std::erase_if(s.kept, [](const auto &size) { return size.second == nullptr; });
    } else {
      drop = b;
    }
    if (drop)
      s.blocks.erase(address_of(drop->base));
  }
  if (drop)
    destroy(drop);
  return d;
}

damage check(void *memory, block_info *info) noexcept {
  bool header_damaged = false;
  block *b = owner_of(memory, &header_damaged);
  if (!b)
    return {};
  if (info)
    *info = {b->memory, address_of(b->begin), address_of(b->end), b->buffer};
  return check_block(*b, header_damaged);
}

bool describe(void *memory, block_info &info) noexcept {
  block *b = memory ? owner_of(memory) : nullptr;
  if (!b)
    return false;
  info = {b->memory, address_of(b->begin), address_of(b->end), b->buffer};
  return true;
}

bool find(const void *address, block_info &info) noexcept {
  const std::uintptr_t a = address_of(address);
  std::lock_guard guard(the_state->lock);
  auto it = the_state->blocks.upper_bound(a);
  if (it == the_state->blocks.begin())
    return false;
  --it;
  const block *b = it->second;
  if (a - it->first >= b->base_bytes || !b->live)
    return false;
  info = {b->memory, address_of(b->begin), address_of(b->end), b->buffer};
  return true;
}

namespace {
/// The buffers this thread found last, trusted while no buffer has been released since: a launch
/// that passes the same buffers again finds them without the lock.
struct recent_buffers {
  std::uint64_t released = ~std::uint64_t(0);
  std::uint32_t next = 0;
  block_info found[4];
};
constinit thread_local recent_buffers recent;
} // namespace

void *find_buffer(std::uintptr_t address) noexcept {
  state &s = *the_state;
  if (s.live_buffers.load(std::memory_order_relaxed) == 0 ||
      address < s.buffer_low.load(std::memory_order_relaxed) ||
      address > s.buffer_high.load(std::memory_order_relaxed))
    return nullptr;
  recent_buffers &r = recent;
  const std::uint64_t released = s.buffers_released.load(std::memory_order_acquire);
  if (r.released == released) {
    for (const block_info &f : r.found)
      if (f.memory && address >= f.begin && address <= f.end)
        return f.memory;
  } else {
    r = recent_buffers{};
    r.released = released;
  }
  block_info found;
  if (!find(reinterpret_cast<const void *>(address), found) || !found.buffer ||
      address < found.begin || address > found.end)
    return nullptr;
  r.found[r.next++ % std::size(r.found)] = found;
  return found.memory;
}

statistics stats() noexcept {
  std::lock_guard guard(the_state->lock);
  return {the_state->made,       the_state->heap_made,
          the_state->kept_count, the_state->kept_bytes,
          the_state->arena,      the_state->arena ? arena_bytes : 0};
}

void use_heap_for_testing(bool heap) noexcept {
  the_state->heap_only.store(heap, std::memory_order_relaxed);
}

} // namespace offload::rt::cpu_memory
