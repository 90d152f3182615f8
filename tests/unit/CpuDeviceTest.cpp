// Unit tests for the CPU device's grid loop: every work-item of a 3-D grid runs exactly once with
// the right indices, workgroups in parallel, and an exception from a work-item reaches the caller.
#include "cpu_device.hpp"

#include <offload/device.hpp>
#include <offload/workgroup.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <sys/mman.h>

namespace {

struct grid_record {
  offload::dim3 groups, threads;
  std::vector<std::atomic<int>> hits;
  std::atomic<int> wrong{0};
};

offload::detail::launch_request request_for(grid_record &r, offload::detail::cpu_body_fn body) {
  offload::detail::launch_request q{};
  q.workgroups = r.groups;
  q.threads = r.threads;
  q.cpu_body = body;
  q.cpu_context = &r;
  return q;
}

TEST(CpuDevice, RunsEveryWorkItemOnceWithItsIndices) {
  grid_record r;
  r.groups = {3, 4, 2};
  r.threads = {5, 2, 3};
  const std::size_t n = 3 * 4 * 2 * 5 * 2 * 3;
  r.hits = std::vector<std::atomic<int>>(n);
  offload::rt::cpu_device_run(request_for(r, [](void *raw, const offload::abi::slot_t *) {
    auto &r = *static_cast<grid_record *>(raw);
    using namespace offload;
    if (grid_dim_x() != 3 || grid_dim_y() != 4 || grid_dim_z() != 2 || block_dim_x() != 5 ||
        block_dim_y() != 2 || block_dim_z() != 3)
      ++r.wrong;
    std::size_t x = global_id_x(), y = global_id_y(), z = global_id_z();
    r.hits[(z * 8 + y) * 15 + x]++;
  }), nullptr);
  EXPECT_EQ(r.wrong.load(), 0);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(r.hits[i].load(), 1) << "work-item " << i;
}

// Large copies run in parts on the pool's threads (cpu_device_copy): every byte arrives, a
// length that is no multiple of a part included, and a source that cannot be read in one part is
// reported (the CPU device's copy in of a bad host pointer is the launch's error).
TEST(CpuDevice, LargeCopiesArriveWholeAndReportAnUnreadablePart) {
  const std::size_t bytes = (9u << 20) + 12345;
  std::vector<unsigned char> from(bytes), to(bytes);
  for (std::size_t i = 0; i < bytes; ++i)
    from[i] = static_cast<unsigned char>(i * 131 + (i >> 20));
  ASSERT_TRUE(offload::rt::cpu_device_copy(to.data(), from.data(), bytes, true));
  EXPECT_EQ(std::memcmp(to.data(), from.data(), bytes), 0);

  const std::size_t mapped = 8u << 20;
  void *region = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(region, MAP_FAILED);
  ASSERT_EQ(mprotect(static_cast<unsigned char *>(region) + (6u << 20), 4096, PROT_NONE), 0);
  EXPECT_FALSE(offload::rt::cpu_device_copy(to.data(), region, mapped, true));
  munmap(region, mapped);
}

TEST(CpuDevice, RethrowsAWorkItemsException) {
  grid_record r;
  r.groups = {64, 1, 1};
  r.threads = {1, 1, 1};
  EXPECT_THROW(offload::rt::cpu_device_run(request_for(r, [](void *, const offload::abi::slot_t *) {
                 if (offload::block_id_x() == 17)
                   throw std::runtime_error("work-item 17");
               }), nullptr),
               std::runtime_error);
}

} // namespace

namespace {
// Barriers on the CPU device: every work-item writes its slot, waits, then reads its
// neighbour's; without a real barrier the neighbour's slot would still hold the old value.
struct barrier_record {
  std::atomic<int> wrong{0};
};

TEST(CpuDevice, BarriersSynchroniseTheWorkgroup) {
  barrier_record r;
  offload::detail::launch_request q{};
  q.workgroups = {8, 1, 1};
  q.threads = {64, 1, 1};
  q.cpu_context = &r;
  q.cpu_body = [](void *raw, const offload::abi::slot_t *) {
    auto &r = *static_cast<barrier_record *>(raw);
    auto &slots = offload::shared<int[64]>([] {});
    const unsigned me = offload::thread_id_x();
    for (int round = 0; round < 3; ++round) {
      slots[me] = int(offload::block_id_x() * 1000 + round * 100 + me);
      offload::barrier();
      const unsigned other = (me + 1) % 64;
      if (slots[other] != int(offload::block_id_x() * 1000 + round * 100 + other))
        ++r.wrong;
      offload::barrier();
    }
  };
  offload::rt::cpu_device_run(q, nullptr, /*uses_barriers=*/true);
  EXPECT_EQ(r.wrong.load(), 0);
}

TEST(CpuDevice, DynamicSharedMemoryHasTheLaunchSize) {
  barrier_record r;
  offload::detail::launch_request q{};
  q.workgroups = {4, 1, 1};
  q.threads = {16, 1, 1};
  q.dynamic_shared_bytes = 16 * sizeof(double);
  q.cpu_context = &r;
  q.cpu_body = [](void *raw, const offload::abi::slot_t *) {
    auto &r = *static_cast<barrier_record *>(raw);
    double *d = offload::dynamic_shared<double>();
    d[offload::thread_id_x()] = offload::thread_id_x();
    offload::barrier();
    if (d[15 - offload::thread_id_x()] != 15 - offload::thread_id_x())
      ++r.wrong;
  };
  offload::rt::cpu_device_run(q, nullptr, true);
  EXPECT_EQ(r.wrong.load(), 0);
}
} // namespace

// The work-item loops' dispatch (compiler/CpuWorkItemLoops.cpp): after a region, which barrier's
// region runs next, in rounds as NVIDIA's bar.sync 0 counts any barrier.
extern "C" std::uint32_t __offload_cpu_next_region(const std::uint32_t *states, std::uint32_t *pending,
                                                    std::uint32_t count, std::uint64_t virtual_regions);

namespace {
constexpr std::uint32_t ended = ~0u;

struct dispatch {
  std::vector<std::uint32_t> states, pending;
  std::uint64_t virtual_regions = 0;  // bit R - 1: region R follows a virtual barrier
  explicit dispatch(std::vector<std::uint32_t> s) : states(std::move(s)), pending(states.size() + 2, 0) {}
  std::uint32_t next() {
    return __offload_cpu_next_region(states.data(), pending.data(), std::uint32_t(states.size()),
                                     virtual_regions);
  }
};
} // namespace

TEST(CpuWorkItemLoops, EveryWorkItemAtOneBarrierRunsThatRegionForAll) {
  for (std::uint32_t count : {1u, 7u, 8u, 9u, 256u, 1000u}) {
    dispatch d(std::vector<std::uint32_t>(count, 3));
    EXPECT_EQ(d.next(), 2u * 3) << count;
    d.states.assign(count, ended);
    EXPECT_EQ(d.next(), ended) << count;
  }
}

TEST(CpuWorkItemLoops, OneWorkItemElsewhereIsSeenAtAnyPosition) {
  for (std::uint32_t at : {0u, 1u, 7u, 8u, 254u, 255u}) {
    dispatch d(std::vector<std::uint32_t>(256, 2));
    d.states[at] = ended;  // it returned: the others still wait at barrier 2
    EXPECT_EQ(d.next(), 2u * 2 + 1) << at;
    for (std::uint32_t i = 0; i < 256; ++i)
      EXPECT_EQ(d.pending[i] == 2, i != at) << i;
  }
}

TEST(CpuWorkItemLoops, DifferentBarriersAreReleasedInTurnOncePerRound) {
  dispatch d({1, 2, 1, ended});
  EXPECT_EQ(d.next(), 2u * 1 + 1);  // barrier 1 first: work-items 0 and 2
  d.states = {2, 2, 2, ended};      // they ran on to barrier 2
  EXPECT_EQ(d.next(), 2u * 2 + 1);  // this round: only work-item 1, which was waiting there
  EXPECT_EQ(d.pending[1], 2u);
  EXPECT_NE(d.pending[0], 2u);
  d.states = {2, ended, 2, ended};
  EXPECT_EQ(d.next(), 2u * 2 + 1);  // next round: 0 and 2 (1 ended)
  d.states = {ended, ended, ended, ended};
  EXPECT_EQ(d.next(), ended);
}

// A grid-stride loop's virtual barrier (its back edge) does not synchronise: work-items there
// run on while others wait at a real barrier, which releases only once none is left there.
TEST(CpuWorkItemLoops, VirtualBarriersRunOnBeforeRealOnesRelease) {
  dispatch d({2, 3, 2, 3});
  d.virtual_regions = 1u << (2 - 1);
  EXPECT_EQ(d.next(), 2u * 2 + 1);  // those in the loop, by their states
  d.states = {2, 3, 3, 3};
  EXPECT_EQ(d.next(), 2u * 2 + 1);
  d.states = {3, 3, 3, 3};
  EXPECT_EQ(d.next(), 2u * 3);      // all at the real barrier: released together
  d.states = {2, 2, 2, 2};
  EXPECT_EQ(d.next(), 2u * 2);      // all in the loop: its version for all
  d.states = {ended, 2, ended, 3};
  EXPECT_EQ(d.next(), 2u * 2 + 1);
  d.states = {ended, ended, ended, 3};
  EXPECT_EQ(d.next(), 2u * 3 + 1);  // one left at the real barrier, the rest ended
  EXPECT_EQ(d.pending[3], 3u);
}
