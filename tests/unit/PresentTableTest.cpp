// Unit tests for the runtime's present table (runtime/present_table.hpp) over a device that
// counts what it is asked to do, the memory pool GPUs allocate through (runtime/device.hpp), and
// which images run on which devices (runtime/registry.hpp).
#include "counting_device.hpp"
#include "cpu_in_place.hpp"
#include "present_table.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>


using namespace offload::rt;
using offload::rt::testing::counting_device;
using offload::rt::testing::map_arg;
using offload::detail::arg_desc;
using offload::detail::transfer;

namespace {

map_site site() {
  static const char file[] = "dir/test.cpp";
  return {[] { return std::string("kernel 'k' launched at test.cpp:7"); },
          {file, "f", 7, 1}, nullptr};
}

void *at(offload::abi::slot_t slot) { return reinterpret_cast<void *>(static_cast<std::uintptr_t>(slot)); }

} // namespace

TEST(PresentTable, LaunchInsideARegionCopiesNothingUntilTheRegionEnds) {
  counting_device d;
  int x[4] = {1, 2, 3, 4};
  arg_desc region[] = {map_arg(x, sizeof x, transfer::tofrom)};
  d.present().map(region, 1, nullptr, site());
  EXPECT_EQ(d.copies_in, 1);
  offload::abi::slot_t slots[2] = {};
  arg_desc launch[] = {map_arg(x, sizeof x, transfer::tofrom), {transfer::literal, nullptr, 4, 42}};
  d.present().map(launch, 2, slots, site());
  EXPECT_EQ(d.copies_in, 1) << "a present object is not copied again";
  EXPECT_EQ(slots[1], 42u) << "literals pass as they are";
  static_cast<int *>(at(slots[0]))[0] = 10;  // the "kernel" writes the device copy
  d.present().unmap(launch, 2, true, site());
  EXPECT_EQ(d.copies_out, 0) << "the region still holds x";
  EXPECT_EQ(x[0], 1);
  d.present().unmap(region, 1, true, site());
  EXPECT_EQ(d.copies_out, 1);
  EXPECT_EQ(x[0], 10);
  EXPECT_EQ(d.allocations, d.releases);
}

TEST(PresentTable, OverlappingArgumentsShareOneCopyAndEachComesBack) {
  counting_device d;
  alignas(64) int v[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  arg_desc args[] = {map_arg(v + 4, 4 * sizeof(int), transfer::tofrom),
                     map_arg(v, sizeof v, transfer::to)};
  offload::abi::slot_t slots[3] = {};
  d.present().map(args, 2, slots, site());
  EXPECT_EQ(d.allocations, 1);
  EXPECT_EQ(static_cast<char *>(at(slots[0])) - static_cast<char *>(at(slots[1])), 16);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(at(slots[1])) % 64, 0u) << "alignment kept";
  static_cast<int *>(at(slots[0]))[0] = 40;  // v[4] through the first argument
  static_cast<int *>(at(slots[1]))[0] = 99;  // v[0]: mapped `to`, does not come back
  d.present().unmap(args, 2, true, site());
  EXPECT_EQ(v[4], 40);
  EXPECT_EQ(v[0], 0);
  EXPECT_EQ(d.releases, 1);
}

TEST(PresentTable, AnObjectOverlappingAnEntryIsRefused) {
  counting_device d;
  int v[8] = {};
  arg_desc region[] = {map_arg(v, 4 * sizeof(int), transfer::to)};
  d.present().map(region, 1, nullptr, site());
  arg_desc launch[] = {map_arg(v + 2, 4 * sizeof(int), transfer::tofrom)};
  offload::abi::slot_t slots[2] = {};
  try {
    d.present().map(launch, 1, slots, site());
    FAIL() << "an overlap was accepted";
  } catch (const offload::error &e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'k' launched at test.cpp:7: an argument's 16 "
                                         "bytes at"),
              std::string::npos)
        << e.what();
  }
  d.present().unmap(region, 1, true, site());
  EXPECT_EQ(d.allocations, d.releases);
}

TEST(PresentTable, AFailedCopyLeavesNothingMapped) {
  counting_device d;
  int a[4] = {}, b[4] = {};
  d.fail_copies_in = 2;
  arg_desc args[] = {map_arg(a, sizeof a, transfer::to), map_arg(b, sizeof b, transfer::to)};
  offload::abi::slot_t slots[3] = {};
  EXPECT_THROW(d.present().map(args, 2, slots, site()), offload::error);
  EXPECT_EQ(d.allocations, d.releases);
  d.fail_copies_in = 0;
  d.present().map(args, 2, slots, site());  // the table is as it was: both map anew
  EXPECT_EQ(d.allocations, 4);
  d.present().unmap(args, 2, true, site());
}

TEST(PresentTable, AFailedLaunchCopiesNothingBack) {
  counting_device d;
  int x = 1;
  arg_desc args[] = {map_arg(&x, sizeof x, transfer::tofrom)};
  offload::abi::slot_t slots[2] = {};
  d.present().map(args, 1, slots, site());
  *static_cast<int *>(at(slots[0])) = 2;
  d.present().unmap(args, 1, /*copy_back=*/false, site());
  EXPECT_EQ(x, 1);
  EXPECT_EQ(d.copies_out, 0);
}

TEST(PresentTable, UpdatesCopyPresentObjectsOnly) {
  counting_device d;
  int x = 1, y = 5;
  arg_desc region[] = {map_arg(&x, sizeof x, transfer::alloc)};
  d.present().map(region, 1, nullptr, site());
  EXPECT_EQ(d.copies_in, 0) << "alloc copies nothing in";
  arg_desc both[] = {map_arg(&x, sizeof x, transfer::to), map_arg(&y, sizeof y, transfer::to)};
  d.present().update(both, 2, /*to_device=*/true, site());
  EXPECT_EQ(d.copies_in, 1) << "y is not present";
  d.present().unmap(region, 1, true, site());
}

TEST(PresentTable, AFailedLaunchInsideARegionKeepsTheRegionFromCopyingBack) {
  counting_device d;
  int x[4] = {1, 2, 3, 4};
  arg_desc region[] = {map_arg(x, sizeof x, transfer::tofrom)};
  d.present().map(region, 1, nullptr, site());
  offload::abi::slot_t slots[2] = {};
  arg_desc launch[] = {map_arg(x, sizeof x, transfer::tofrom)};
  d.present().map(launch, 1, slots, site());
  static_cast<int *>(at(slots[0]))[0] = -1;  // the failing "kernel" wrote part of the copy
  d.present().unmap(launch, 1, false, site(), /*launch_failed=*/true);
  d.present().unmap(region, 1, true, site());
  EXPECT_EQ(d.copies_out, 0) << "the region's end copies nothing back after a failed launch";
  EXPECT_EQ(x[0], 1) << "the host data is as it was";
  EXPECT_EQ(d.releases, 1);
  d.present().map(region, 1, nullptr, site());
  d.present().unmap(region, 1, true, site());
  EXPECT_EQ(d.copies_out, 1) << "a new entry is trusted again";
}

TEST(MemoryPool, ReleasedBlocksAreReusedAndDroppedWhenMemoryRunsOut) {
  struct heap {
    int allocations = 0, frees = 0;
    bool exhausted = false;
  } h;
  memory_pool pool(
      &h,
      [](void *raw, std::uint64_t bytes) -> void * {
        auto &h = *static_cast<heap *>(raw);
        if (h.exhausted && h.frees == 0)
          return nullptr;  // out of memory until the kept blocks are freed
        ++h.allocations;
        return std::malloc(bytes);
      },
      [](void *raw, void *memory) {
        ++static_cast<heap *>(raw)->frees;
        std::free(memory);
      });
  void *a = pool.take(1000);
  pool.give_back(a);
  EXPECT_EQ(pool.take(1024), a) << "1000 and 1024 bytes are one size class";
  pool.give_back(a);
  h.exhausted = true;
  void *b = pool.take(5u << 20);
  EXPECT_NE(b, nullptr);
  EXPECT_EQ(h.frees, 1) << "the kept block was freed to make room";
  pool.give_back(b);
}

TEST(ImageRunsOn, NvidiaMinorVersionsAndAmdFeatures) {
  EXPECT_TRUE(image_runs_on("sm_90", "sm_90"));
  EXPECT_TRUE(image_runs_on("sm_80", "sm_86"));
  EXPECT_FALSE(image_runs_on("sm_86", "sm_80"));
  EXPECT_FALSE(image_runs_on("sm_80", "sm_90"));
  EXPECT_FALSE(image_runs_on("sm_90a", "sm_91"));
  EXPECT_TRUE(image_runs_on("sm_90a", "sm_90"));
  EXPECT_TRUE(image_runs_on("sm_100", "sm_103"));
  EXPECT_FALSE(image_runs_on("sm_90", "gfx90a"));
  EXPECT_TRUE(image_runs_on("gfx90a:xnack-", "gfx90a"));
  EXPECT_FALSE(image_runs_on("gfx90a", "gfx942"));
  EXPECT_FALSE(image_runs_on("host", "sm_90"));
}

// A waited launch whose first copy back waits for its kernel (a GPU's launch on the legacy
// stream): the copy stands for the stream's wait (present_table::unmap_after_launch).
TEST(PresentTable, TheFirstCopyBackOfAWaitedLaunchIsItsWait) {
  counting_device d;
  auto s = d.open_stream();
  auto &stream = static_cast<offload::rt::testing::counting_stream &>(*s);
  int x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8};
  arg_desc launch[] = {map_arg(x, sizeof x, transfer::tofrom), map_arg(y, sizeof y, transfer::tofrom)};
  offload::abi::slot_t slots[3] = {};
  d.present().map(launch, 2, slots, site());
  static_cast<int *>(at(slots[0]))[0] = 10;
  static_cast<int *>(at(slots[1]))[0] = 50;
  EXPECT_TRUE(d.present().release_copies_back(launch, 2));
  std::string failure;
  EXPECT_TRUE(d.present().unmap_after_launch(launch, 2, site(), stream, failure));
  EXPECT_EQ(failure, "");
  EXPECT_EQ(stream.syncs, 0) << "the copy back waited";
  EXPECT_EQ(stream.ended_by_copies, 1) << "once, at the first copy";
  EXPECT_EQ(d.copies_out, 2);
  EXPECT_EQ(x[0], 10);
  EXPECT_EQ(y[0], 50);
  EXPECT_EQ(d.allocations, d.releases);
}

TEST(PresentTable, AWaitedLaunchThatCopiesNothingBackIsWaitedBeforeItsMemoryIsFreed) {
  counting_device d;
  auto s = d.open_stream();
  auto &stream = static_cast<offload::rt::testing::counting_stream &>(*s);
  const int x[4] = {1, 2, 3, 4};
  arg_desc launch[] = {map_arg(x, sizeof x, transfer::to)};
  offload::abi::slot_t slots[2] = {};
  d.present().map(launch, 1, slots, site());
  EXPECT_FALSE(d.present().release_copies_back(launch, 1)) << "a `to` object does not come back";
  std::string failure;
  EXPECT_TRUE(d.present().unmap_after_launch(launch, 1, site(), stream, failure));
  EXPECT_EQ(stream.syncs, 1);
  EXPECT_EQ(d.releases, 1);
}

TEST(PresentTable, AnObjectHeldByARegionIsNotCopiedBackByAWaitedLaunch) {
  counting_device d;
  int x[4] = {1, 2, 3, 4};
  arg_desc region[] = {map_arg(x, sizeof x, transfer::tofrom)};
  d.present().map(region, 1, nullptr, site());
  arg_desc launch[] = {map_arg(x, sizeof x, transfer::tofrom), map_arg(x, sizeof x, transfer::tofrom)};
  offload::abi::slot_t slots[3] = {};
  d.present().map(launch, 2, slots, site());
  EXPECT_FALSE(d.present().release_copies_back(launch, 2)) << "the region still holds x";
  d.present().unmap(launch, 2, true, site());
  d.present().unmap(region, 1, true, site());
  arg_desc twice[] = {map_arg(x, sizeof x, transfer::tofrom), map_arg(x, sizeof x, transfer::to)};
  d.present().map(twice, 2, slots, site());
  EXPECT_TRUE(d.present().release_copies_back(twice, 2)) << "both mentions are this launch's";
  d.present().unmap(twice, 2, true, site());
  EXPECT_EQ(d.allocations, d.releases);
}

TEST(PresentTable, AWaitedLaunchThatFailedBringsNothingBackAndItsRegionsObjectsAreUntrusted) {
  counting_device d;
  auto s = d.open_stream();
  auto &stream = static_cast<offload::rt::testing::counting_stream &>(*s);
  int x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4] = {9, 9, 9, 9};
  arg_desc region[] = {map_arg(z, sizeof z, transfer::tofrom)};
  d.present().map(region, 1, nullptr, site());
  arg_desc launch[] = {map_arg(x, sizeof x, transfer::tofrom), map_arg(y, sizeof y, transfer::tofrom),
                       map_arg(z, sizeof z, transfer::tofrom)};
  offload::abi::slot_t slots[4] = {};
  d.present().map(launch, 3, slots, site());
  for (int k = 0; k < 3; ++k)
    static_cast<int *>(at(slots[k]))[0] = -1;  // the "kernel" wrote, then faulted
  d.fail_copies_out = 1;  // the first copy back reports the kernel's failure, writing nothing
  std::string failure;
  EXPECT_FALSE(d.present().unmap_after_launch(launch, 3, site(), stream, failure));
  EXPECT_NE(failure.find("illegal memory access"), std::string::npos) << failure;
  EXPECT_EQ(x[0], 1);
  EXPECT_EQ(y[0], 5);
  EXPECT_EQ(d.copies_out, 0);
  EXPECT_EQ(stream.syncs, 0);
  EXPECT_EQ(stream.ended_by_copies, 0);
  d.fail_copies_out = 0;
  d.present().unmap(region, 1, true, site());
  EXPECT_EQ(z[0], 9) << "the region's object is not trusted after the failed launch";
  EXPECT_EQ(d.allocations, d.releases);
}

// The CPU device's reads in place (cpu_in_place.hpp): which arguments are read where they lie.
TEST(InPlaceReads, OnlyObjectsNothingWritesAndNoEntryHolds) {
  counting_device d;
  double x[4] = {}, y[8] = {}, held[2] = {};
  auto read_only = [](const void *p, std::uint64_t bytes) {
    arg_desc a = map_arg(p, bytes, transfer::to);
    a.read_only = true;
    return a;
  };
  arg_desc region[] = {map_arg(held, sizeof held, transfer::tofrom)};
  d.present().map(region, 1, nullptr, site());
  arg_desc args[] = {read_only(x, sizeof x),               // read in place
                     map_arg(y, sizeof y, transfer::tofrom),
                     read_only(y + 2, 2 * sizeof(double)),  // y is written: copied, one copy
                     map_arg(x, sizeof x, transfer::to),    // `to` through a non-const parameter
                     read_only(held, sizeof held),          // the region's copy is newer
                     {transfer::literal, nullptr, 8, 42}};
  offload::rt::in_place_reads reads;
  // x is also mapped `to` through a non-const parameter, which the kernel may write: copied.
  EXPECT_FALSE(reads.take(d, {nullptr, {}, {}, 0, -1, {}, args, 6, nullptr, nullptr}, site()));
  args[3] = read_only(x + 1, sizeof(double));  // now every argument naming x only reads it
  ASSERT_TRUE(reads.take(d, {nullptr, {}, {}, 0, -1, {}, args, 6, nullptr, nullptr}, site()));
  const arg_desc *taken = reads.request().args;
  EXPECT_EQ(taken[0].how, transfer::literal);
  EXPECT_EQ(at(taken[0].literal), static_cast<void *>(x));
  EXPECT_EQ(taken[3].how, transfer::literal);
  EXPECT_EQ(taken[1].how, transfer::tofrom);
  EXPECT_EQ(taken[2].how, transfer::to) << "an object another argument writes is copied";
  EXPECT_EQ(taken[4].how, transfer::to) << "an object a region holds is copied";
  EXPECT_EQ(taken[5].literal, 42u);
  EXPECT_EQ(args[0].how, transfer::to) << "the launch's own descriptions are left as they were";
  EXPECT_NO_THROW(reads.explain_failure("kernel 'k'")) << "x can be read";
  d.present().unmap(region, 1, false, site());
}
