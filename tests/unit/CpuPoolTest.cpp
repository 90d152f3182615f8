// The CPU device's thread pool (runtime/cpu_pool.hpp): every index once, exceptions, workgroups
// that wait for one another, launches from several threads, with and without polling.
#include "cpu_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using offload::rt::worker_pool;

class CpuPool : public ::testing::TestWithParam<std::uint64_t> {};  // the polling time, ns

TEST_P(CpuPool, EveryIndexOnceInManyLaunches) {
  worker_pool pool(4, GetParam());
  for (std::uint64_t count : {1u, 2u, 3u, 7u, 64u, 1000u}) {
    for (int launch = 0; launch < 200; ++launch) {
      std::vector<std::atomic<int>> hits(count);
      pool.parallel_for(count, [&](std::uint64_t i) { hits[i].fetch_add(1, std::memory_order_relaxed); });
      for (std::uint64_t i = 0; i < count; ++i)
        ASSERT_EQ(hits[i].load(), 1) << "index " << i << " of " << count;
    }
  }
}

TEST_P(CpuPool, LowestFailingIndexIsRethrownAndTheNextLaunchRuns) {
  worker_pool pool(3, GetParam());
  for (int round = 0; round < 50; ++round) {
    try {
      pool.parallel_for(100, [](std::uint64_t i) {
        if (i == 40 || i == 90)
          throw std::runtime_error(std::to_string(i));
      });
      FAIL() << "no exception";
    } catch (const std::runtime_error &e) {
      EXPECT_STREQ(e.what(), "40");
    }
    std::atomic<int> ran{0};
    pool.parallel_for(10, [&](std::uint64_t) { ++ran; });
    EXPECT_EQ(ran.load(), 10);
  }
}

// Two workgroups that wait for each other need both threads: the first launch right after the
// pool is made (a worker starting late must still take part), then after the workers slept.
TEST_P(CpuPool, WorkgroupsThatWaitForEachOther) {
  for (int pools = 0; pools < 20; ++pools) {
    worker_pool pool(2, GetParam());
    for (int launch = 0; launch < 3; ++launch) {
      std::atomic<int> arrived{0};
      pool.parallel_for(2, [&](std::uint64_t) {
        arrived.fetch_add(1);
        while (arrived.load() < 2) {
        }
      });
      EXPECT_EQ(arrived.load(), 2);
      if (launch == 1)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // past the polling time
    }
  }
}

TEST_P(CpuPool, LaunchesFromSeveralThreads) {
  worker_pool pool(3, GetParam());
  std::atomic<std::uint64_t> total{0};
  std::vector<std::thread> hosts;
  for (int h = 0; h < 4; ++h)
    hosts.emplace_back([&] {
      for (int launch = 0; launch < 300; ++launch)
        pool.parallel_for(16, [&](std::uint64_t i) { total.fetch_add(i, std::memory_order_relaxed); });
    });
  for (auto &h : hosts)
    h.join();
  EXPECT_EQ(total.load(), 4u * 300u * (15u * 16u / 2u));
}

INSTANTIATE_TEST_SUITE_P(Polling, CpuPool, ::testing::Values(0u, 200000u),
                         [](const auto &info) { return info.param ? std::string("spin") : std::string("sleep"); });

} // namespace
