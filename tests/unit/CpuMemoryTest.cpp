// Unit tests for the CPU device's fenced memory (runtime/cpu_memory.hpp): guard bytes found
// written on either side and made whole again, guard pages that fault, blocks kept for reuse,
// heap blocks where no mapping can be had, buffers found by an address inside them; and, through
// the CPU device itself, a launch's check and a data region's end (present_table.hpp).
#include "cpu_backend.hpp"
#include "cpu_fault.hpp"
#include "cpu_memory.hpp"
#include "present_table.hpp"

#include <offload/launch.hpp>

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <string>
#include <vector>

using namespace offload::rt;
using offload::detail::arg_desc;
using offload::detail::transfer;

namespace {

std::uintptr_t address(const void *p) { return reinterpret_cast<std::uintptr_t>(p); }

/// Whether a test may fault on purpose: under ThreadSanitizer a fault does not reach the
/// runtime's handler (kernel faults are not caught there: e2e cpu_faults is not in its list of
/// scripts/sanitizers.sh either).
#if defined(__SANITIZE_THREAD__)
constexpr bool faults_caught = false;
#else
constexpr bool faults_caught = true;
#endif

/// Writes one byte at `at`; false (and `fault` filled) when that faulted.
bool poke(void *at, cpu_fault &fault) {
  return run_catching_faults([](void *p) { *static_cast<volatile char *>(p) = 1; }, at, fault);
}

/// Heap blocks for one test (as where mappings are refused).
struct heap_blocks {
  heap_blocks() { cpu_memory::use_heap_for_testing(true); }
  ~heap_blocks() { cpu_memory::use_heap_for_testing(false); }
};

} // namespace

TEST(CpuMemory, AnObjectKeepsItsOffsetAndEndsBesideTheGuardPages) {
  for (std::uint64_t offset : {0u, 16u, 255u})
    for (std::uint64_t bytes : {1u, 4u, 100u, 4096u, 5000u, 70000u}) {
      void *memory = cpu_memory::allocate(offset, bytes, false);
      ASSERT_NE(memory, nullptr);
      EXPECT_EQ(address(memory) % cpu_memory::alignment, 0u);
      char *object = static_cast<char *>(memory) + offset;
      std::memset(object, 7, bytes);  // all of it is writable
      cpu_memory::block_info b;
      EXPECT_FALSE(cpu_memory::check(memory, &b)) << offset << " " << bytes;
      EXPECT_EQ(b.begin, address(object));
      EXPECT_EQ(b.end, address(object + bytes));
      cpu_fault fault;
      char *page = reinterpret_cast<char *>((b.end + 4095) / 4096 * 4096);
      EXPECT_LT(page - (object + bytes), 256) << "the guard pages begin within 256 bytes";
      cpu_memory::block_info found;
      ASSERT_TRUE(cpu_memory::find(page + 100, found)) << "a fault's address names the block";
      EXPECT_EQ(found.begin, b.begin);
      if (!faults_caught) {
        cpu_memory::release(memory);
        continue;
      }
      EXPECT_FALSE(poke(page, fault)) << "the first guard page faults";
      EXPECT_EQ(fault.signal, SIGSEGV);
      EXPECT_EQ(fault.address, page);
      EXPECT_FALSE(poke(page + cpu_memory::guard_pages_bytes - 1, fault)) << "and the last";
      const std::uintptr_t usable = (address(memory) - cpu_memory::header_offset) / 4096 * 4096;
      EXPECT_FALSE(poke(reinterpret_cast<char *>(usable - 1), fault))
          << "guard pages before the block too";
      EXPECT_FALSE(poke(reinterpret_cast<char *>(usable - cpu_memory::guard_pages_bytes), fault));
      cpu_memory::release(memory);
    }
}

TEST(CpuMemory, WrittenGuardBytesAreFoundAndMadeWhole) {
  void *memory = cpu_memory::allocate(16, 8, false);
  char *object = static_cast<char *>(memory) + 16;
  cpu_memory::block_info b;
  const std::uintptr_t page = (address(object + 8) + 4095) / 4096 * 4096;
  const std::size_t after = page - address(object + 8);
  ASSERT_GE(after, 4u) << "an 8-byte object at offset 16 leaves guard bytes before the page";
  object[8] = 0;  // one past the end
  object[9] = 0;
  cpu_memory::damage d = cpu_memory::check(memory, &b);
  EXPECT_EQ(d.after, 2u);
  EXPECT_EQ(d.before, 0u);
  EXPECT_FALSE(cpu_memory::check(memory)) << "made whole: a second check sees nothing new";
  object[-1] = 0;
  object[-cpu_memory::guard_bytes] = 0;
  d = cpu_memory::check(memory);
  EXPECT_EQ(d.before, cpu_memory::guard_bytes);
  EXPECT_EQ(d.after, 0u);
  object[8] = static_cast<char>(cpu_memory::guard_pattern);  // the pattern itself is not seen
  EXPECT_FALSE(cpu_memory::check(memory));
  // Farther before the object: its header. Found, and the block is still released.
  std::memset(static_cast<char *>(memory) - cpu_memory::header_offset, 0, 16);
  d = cpu_memory::check(memory);
  EXPECT_GT(d.before, cpu_memory::guard_bytes);
  EXPECT_FALSE(cpu_memory::check(memory)) << "the header is made again";
  std::memset(static_cast<char *>(memory) - cpu_memory::header_offset, 0, 16);
  cpu_memory::release(memory);
  EXPECT_FALSE(cpu_memory::find(object, b)) << "released, though its header was written over";
}

TEST(CpuMemory, ReleasedBlocksAreReusedWithinLimits) {
  void *first = cpu_memory::allocate(0, 64, false);
  cpu_memory::release(first);
  const cpu_memory::statistics before = cpu_memory::stats();
  for (int i = 0; i < 100; ++i) {
    void *again = cpu_memory::allocate(8, 100, false);
    EXPECT_FALSE(cpu_memory::check(again));
    cpu_memory::release(again);
  }
  EXPECT_EQ(cpu_memory::stats().blocks_made, before.blocks_made) << "no new mapping";
  std::vector<void *> many;
  for (std::size_t i = 0; i < cpu_memory::kept_blocks_most + 40; ++i)
    many.push_back(cpu_memory::allocate(0, 4, false));
  for (void *m : many)
    cpu_memory::release(m);
  EXPECT_LE(cpu_memory::stats().kept, cpu_memory::kept_blocks_most);
  void *big = cpu_memory::allocate(0, cpu_memory::kept_bytes_most + 1, false);
  ASSERT_NE(big, nullptr);
  cpu_memory::release(big);
  EXPECT_LE(cpu_memory::stats().kept_bytes, cpu_memory::kept_bytes_most) << "too big to keep";
}

TEST(CpuMemory, FarWritesMeetTheArenaNotTheHost) {
  void *memory = cpu_memory::allocate(0, 4, false);
  const cpu_memory::statistics s = cpu_memory::stats();
  if (!s.arena)
    GTEST_SKIP() << "no arena here (limited address space)";
  if (!faults_caught)
    GTEST_SKIP() << "faults are not caught under ThreadSanitizer";
  cpu_memory::block_info b;
  cpu_memory::check(memory, &b);
  const auto arena = address(s.arena);
  ASSERT_GE(b.begin, arena);
  ASSERT_LT(b.end, arena + s.arena_bytes / 2) << "blocks lie in the arena's lower half";
  cpu_fault fault;
  // Gigabytes on, below the arena's top: nothing is accessible there.
  EXPECT_FALSE(poke(reinterpret_cast<char *>(arena + s.arena_bytes - 4096), fault));
  EXPECT_FALSE(poke(reinterpret_cast<char *>(arena + s.arena_bytes / 2 + (1u << 30)), fault));
  cpu_memory::release(memory);
}

TEST(CpuMemory, HeapBlocksHaveGuardBytesOnBothSides) {
  heap_blocks heap;
  const cpu_memory::statistics before = cpu_memory::stats();
  void *memory = cpu_memory::allocate(32, 40, true);
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(cpu_memory::stats().heap_blocks_made, before.heap_blocks_made + 1);
  char *object = static_cast<char *>(memory) + 32;
  object[40 + cpu_memory::heap_guard_bytes - 1] = 0;
  object[-static_cast<std::ptrdiff_t>(cpu_memory::guard_bytes)] = 0;
  const cpu_memory::damage d = cpu_memory::check(memory);
  EXPECT_EQ(d.after, cpu_memory::heap_guard_bytes);
  EXPECT_EQ(d.before, cpu_memory::guard_bytes);
  object[40] = 0;
  cpu_memory::block_info b;
  EXPECT_EQ(cpu_memory::release(memory, &b).after, 1u) << "a buffer is checked as it goes";
  EXPECT_EQ(b.end - b.begin, 40u);
}

TEST(CpuMemory, BuffersAreFoundByAnAddressInside) {
  void *buffer = cpu_memory::allocate(0, 400, true);
  void *copy = cpu_memory::allocate(0, 400, false);
  for (std::uintptr_t at : {address(buffer), address(buffer) + 200, address(buffer) + 400})
    EXPECT_EQ(cpu_memory::find_buffer(at), buffer);
  EXPECT_EQ(cpu_memory::find_buffer(address(buffer) + 100), buffer) << "again (remembered)";
  EXPECT_EQ(cpu_memory::find_buffer(address(buffer) + 401), nullptr);
  EXPECT_EQ(cpu_memory::find_buffer(address(copy)), nullptr) << "a copy is not a buffer";
  EXPECT_EQ(cpu_memory::find_buffer(42), nullptr);
  cpu_memory::block_info b;
  ASSERT_TRUE(cpu_memory::describe(buffer, b));
  EXPECT_TRUE(b.buffer);
  EXPECT_EQ(b.end - b.begin, 400u);
  cpu_memory::release(buffer);
  EXPECT_EQ(cpu_memory::find_buffer(address(buffer) + 100), nullptr) << "released";
  cpu_memory::release(copy);
}

namespace {
/// The CPU device's present table, with a launch site whose parameters are named.
const std::vector<std::string> names = {"x", "s", "s.size()"};
map_site launch_site() {
  static const char file[] = "dir/test.cpp";
  return {[] { return std::string("kernel 'k' launched at test.cpp:7"); }, {file, "f", 7, 1},
          &names};
}
} // namespace

TEST(CpuMemory, ALaunchsCheckNamesTheParameterAndNothingComesBack) {
  device &cpu = the_cpu_device();
  ASSERT_TRUE(cpu.fenced());
  // At a 256-byte boundary: the copies then end 252 and 216 bytes before their guard pages.
  alignas(256) int x = 5;
  alignas(256) float s[10] = {};
  arg_desc args[] = {{transfer::tofrom, &x, sizeof x, 0},
                     {transfer::tofrom, s, sizeof s, 0},
                     {transfer::literal, nullptr, 8, 10}};
  offload::abi::slot_t slots[4] = {};
  void *allocations[3] = {};
  cpu.present().map(args, 3, slots, launch_site(), allocations);
  ASSERT_NE(allocations[0], nullptr);
  EXPECT_EQ(allocations[2], nullptr);
  reinterpret_cast<int *>(slots[0])[0] = 6;
  reinterpret_cast<int *>(slots[0])[1] = 6;  // one past x's copy
  offload::detail::launch_request request{};
  request.args = args;
  request.num_args = 3;
  static const char file[] = "test.cpp";
  request.where = {file, "f", 7, 1};
  try {
    cpu.check_after_launch(nullptr, request, slots, allocations);
    ADD_FAILURE() << "no error";
  } catch (const offload::error &e) {
    EXPECT_NE(std::string(e.what()).find("failed on CPU device"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("it wrote past the end of the CPU device's copy of "
                                         "argument 1 (4 bytes), up to 4 bytes beyond it"),
              std::string::npos)
        << e.what();
  }
  cpu.check_after_launch(nullptr, request, slots, allocations);  // made whole: no error
  cpu.present().unmap(args, 3, /*copy_back=*/false, launch_site(), /*launch_failed=*/true);
  EXPECT_EQ(x, 5);
}

TEST(CpuMemory, ARegionsEndChecksItsCopiesBeforeCopyingBack) {
  device &cpu = the_cpu_device();
  alignas(256) int a[4] = {1, 2, 3, 4};
  alignas(256) int b[2] = {7, 8};  // its copy ends 248 bytes before its guard pages
  arg_desc region[] = {{transfer::tofrom, a, sizeof a, 0}, {transfer::tofrom, b, sizeof b, 0}};
  const map_site site{[] { return std::string("data region at test.cpp:9"); },
                      {"test.cpp", "f", 9, 1}, nullptr};
  offload::abi::slot_t slots[3] = {};
  cpu.present().map(region, 2, slots, site);
  reinterpret_cast<int *>(slots[0])[0] = 10;  // a kernel's writes
  reinterpret_cast<int *>(slots[1])[0] = 70;
  reinterpret_cast<int *>(slots[1])[2] = 0;  // past b's copy
  try {
    cpu.present().unmap(region, 2, /*copy_back=*/true, site, /*launch_failed=*/false,
                        /*check_fences=*/true);
    ADD_FAILURE() << "no error";
  } catch (const offload::error &e) {
    EXPECT_NE(std::string(e.what()).find("data region at test.cpp:9: a kernel on CPU device"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("wrote past the end of its copy of the region's object "
                                         "2 (8 bytes), up to 4 bytes beyond it"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(a[0], 1) << "nothing of the region comes back";
  EXPECT_EQ(b[0], 7);
}
