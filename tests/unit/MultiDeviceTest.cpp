// Unit tests for offload/multi_device.hpp: balanced and weighted partitions (contiguous, in
// order, covering [0, n), balanced to a granule, boundaries on granules), device-list parsing,
// and a device_set's devices and queues (on the CPU device: this program holds no GPU code).
#include <offload/multi_device.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>
#include <vector>

namespace {

using offload::range;

// Chunks tile [0, n) in order, boundaries (but n) on multiples of granule.
void expect_tiles(const std::vector<range> &chunks, std::size_t n, std::size_t granule) {
  ASSERT_FALSE(chunks.empty());
  EXPECT_EQ(chunks.front().begin, 0u);
  EXPECT_EQ(chunks.back().end, n);
  for (std::size_t p = 0; p < chunks.size(); ++p) {
    EXPECT_LE(chunks[p].begin, chunks[p].end) << "chunk " << p;
    if (p + 1 < chunks.size()) {
      EXPECT_EQ(chunks[p].end, chunks[p + 1].begin) << "chunk " << p;
      if (chunks[p].end != n) {
        EXPECT_EQ(chunks[p].end % granule, 0u) << "chunk " << p << " ends off a granule";
      }
    }
  }
}

TEST(Partition, BalancedExamples) {
  EXPECT_EQ(offload::partition(10, 3), (std::vector<range>{{0, 4}, {4, 7}, {7, 10}}));
  EXPECT_EQ(offload::partition(9, 3), (std::vector<range>{{0, 3}, {3, 6}, {6, 9}}));
  EXPECT_EQ(offload::partition(2, 4), (std::vector<range>{{0, 1}, {1, 2}, {2, 2}, {2, 2}}));
  EXPECT_EQ(offload::partition(0, 2), (std::vector<range>{{0, 0}, {0, 0}}));
  EXPECT_EQ(offload::partition(7, 1), (std::vector<range>{{0, 7}}));
  // Granules of 256: 1000 elements are 4 granules (the last partial) over 3 parts.
  EXPECT_EQ(offload::partition(1000, 3, 256),
            (std::vector<range>{{0, 512}, {512, 768}, {768, 1000}}));
  EXPECT_EQ(offload::partition(100, 2, 256), (std::vector<range>{{0, 100}, {100, 100}}));
}

TEST(Partition, BalancedProperties) {
  for (std::size_t n : {0u, 1u, 2u, 5u, 63u, 64u, 65u, 1000u, 4097u, 100003u})
    for (std::size_t parts : {1u, 2u, 3u, 4u, 7u, 8u, 16u})
      for (std::size_t granule : {1u, 2u, 32u, 256u}) {
        SCOPED_TRACE(testing::Message() << "n " << n << " parts " << parts << " granule " << granule);
        const auto chunks = offload::partition(n, parts, granule);
        ASSERT_EQ(chunks.size(), parts);
        expect_tiles(chunks, n, granule);
        // Granule counts (the last granule may be partial) differ by at most one, larger first.
        std::size_t most = 0, least = std::numeric_limits<std::size_t>::max();
        for (std::size_t p = 0; p < parts; ++p) {
          const std::size_t units = (chunks[p].size() + granule - 1) / granule;
          most = std::max(most, units);
          least = std::min(least, units);
          if (p > 0) {
            const std::size_t before = (chunks[p - 1].size() + granule - 1) / granule;
            EXPECT_GE(before, units) << "chunk " << p << " larger than the one before";
          }
        }
        EXPECT_LE(most - least, 1u);
      }
}

TEST(Partition, HugeRangeDoesNotOverflow) {
  const std::size_t n = std::numeric_limits<std::size_t>::max() - 5;
  const auto chunks = offload::partition(n, 3, 1024);
  expect_tiles(chunks, n, 1024);
  const auto weighted = offload::partition(n, std::vector<double>{1, 1, 2}, 1024);
  expect_tiles(weighted, n, 1024);
  EXPECT_GT(weighted[2].size(), weighted[0].size());
}

TEST(Partition, WeightedExamples) {
  const std::vector<double> w{1, 3};
  EXPECT_EQ(offload::partition(100, w), (std::vector<range>{{0, 25}, {25, 100}}));
  const std::vector<double> equal{2.5, 2.5, 2.5};
  EXPECT_EQ(offload::partition(10, equal), (std::vector<range>{{0, 3}, {3, 7}, {7, 10}}));
  const std::vector<double> zero_middle{1, 0, 1};
  EXPECT_EQ(offload::partition(10, zero_middle), (std::vector<range>{{0, 5}, {5, 5}, {5, 10}}));
  const std::vector<double> only_last{0, 0, 4};
  EXPECT_EQ(offload::partition(9, only_last), (std::vector<range>{{0, 0}, {0, 0}, {0, 9}}));
  // 1000 elements in granules of 100 (10 granules), weights 1:2:2 → 2, 4, 4 granules.
  const std::vector<double> w3{1, 2, 2};
  EXPECT_EQ(offload::partition(1000, w3, 100),
            (std::vector<range>{{0, 200}, {200, 600}, {600, 1000}}));
}

TEST(Partition, WeightedProperties) {
  const std::vector<std::vector<double>> weight_sets{
      {1}, {1, 1}, {1, 2, 3}, {0.1, 10, 0.1, 5}, {3, 0, 0, 1}, {1e-9, 1}, {7, 7, 7, 7, 7, 7, 7}};
  for (const auto &w : weight_sets)
    for (std::size_t n : {0u, 1u, 17u, 1000u, 123457u})
      for (std::size_t granule : {1u, 64u}) {
        SCOPED_TRACE(testing::Message() << "n " << n << " parts " << w.size() << " granule " << granule);
        const auto chunks = offload::partition(n, w, granule);
        ASSERT_EQ(chunks.size(), w.size());
        expect_tiles(chunks, n, granule);
        // Each boundary is within half a granule of its exact share.
        const double total = std::accumulate(w.begin(), w.end(), 0.0);
        double cumulative = 0;
        for (std::size_t p = 0; p + 1 < w.size(); ++p) {
          cumulative += w[p];
          const double exact = double(n) * cumulative / total;
          EXPECT_LE(std::abs(double(chunks[p].end) - exact), 0.5 * double(granule) + 1e-6) << "chunk " << p;
          if (w[p] == 0) {
            EXPECT_TRUE(chunks[p].empty());
          }
        }
      }
}

TEST(Partition, RejectsBadArguments) {
  EXPECT_THROW(offload::partition(10, 0), offload::error);
  EXPECT_THROW(offload::partition(10, 2, 0), offload::error);
  EXPECT_THROW(offload::partition(10, std::span<const double>{}), offload::error);
  EXPECT_THROW(offload::partition(10, std::vector<double>{1, -1}), offload::error);
  EXPECT_THROW(offload::partition(10, std::vector<double>{0, 0}), offload::error);
  EXPECT_THROW(offload::partition(10, std::vector<double>{1, std::numeric_limits<double>::quiet_NaN()}),
               offload::error);
  EXPECT_THROW(offload::partition(10, std::vector<double>{1, std::numeric_limits<double>::infinity()}),
               offload::error);
  EXPECT_THROW(offload::partition(10, std::vector<double>{1}, 0), offload::error);
}

TEST(DeviceList, Parses) {
  EXPECT_EQ(offload::parse_device_list("0"), (std::vector<int>{0}));
  EXPECT_EQ(offload::parse_device_list("0,1,3"), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(offload::parse_device_list("cpu"), (std::vector<int>{offload::cpu_device}));
  EXPECT_EQ(offload::parse_device_list("cpu,cpu,2"),
            (std::vector<int>{offload::cpu_device, offload::cpu_device, 2}));
  for (const char *bad : {"", ",", "0,", ",1", "-1", "gpu", "1,,2", "1 ", "cpu0", "99999999"})
    EXPECT_THROW(offload::parse_device_list(bad), offload::error) << "'" << bad << "'";
}

TEST(DeviceSet, DefaultIsEveryGpuOrTheCpuDevice) {
  offload::device_set set;
  const int gpus = offload::gpu_count();
  if (gpus == 0) {
    EXPECT_EQ(set.devices(), (std::vector<int>{offload::cpu_device}));
  } else {
    ASSERT_EQ(set.size(), std::size_t(gpus));
    for (int g = 0; g < gpus; ++g)
      EXPECT_EQ(set.device(std::size_t(g)), g);
  }
  for (std::size_t i = 0; i < set.size(); ++i)
    EXPECT_EQ(set.queue(i).device(), set.device(i));
  EXPECT_NE(set.describe().find(gpus == 0 ? "CPU device" : "GPU 0"), std::string::npos)
      << set.describe();
}

TEST(DeviceSet, ExplicitListAndPartition) {
  offload::device_set set({offload::cpu_device, offload::cpu_device});
  ASSERT_EQ(set.size(), 2u);
  EXPECT_EQ(set.device(1), offload::cpu_device);
  EXPECT_NE(&set.queue(0), &set.queue(1));
  EXPECT_EQ(set.partition(5), (std::vector<range>{{0, 3}, {3, 5}}));
  const std::vector<double> w{3, 1};
  EXPECT_EQ(set.partition(8, w), (std::vector<range>{{0, 6}, {6, 8}}));
  EXPECT_THROW(set.partition(8, std::vector<double>{1, 1, 1}), offload::error);
  EXPECT_EQ(set.describe().find("CPU device"), 0u) << set.describe();
  EXPECT_THROW(set.device(2), std::out_of_range);
  offload::device_set moved = std::move(set);
  EXPECT_EQ(moved.size(), 2u);
}

TEST(DeviceSet, RejectsBadDevices) {
  EXPECT_THROW(offload::device_set(std::vector<int>{}), offload::error);
  EXPECT_THROW(offload::device_set({offload::cpu_device, offload::gpu_count() + 3}), offload::error);
  EXPECT_THROW(offload::device_set({-7}), offload::error);
}

// Each device's chunk goes to its own buffer and back through its queue; wait_all waits for all.
TEST(DeviceSet, QueuesCopyEachChunk) {
  offload::device_set set({offload::cpu_device, offload::cpu_device, offload::cpu_device});
  const std::size_t n = 1001;
  std::vector<double> in(n), out(n, -1.0);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = double(i) * 0.5;
  const auto chunks = set.partition(n);
  std::vector<offload::buffer<double>> buffers;
  for (std::size_t d = 0; d < set.size(); ++d) {
    buffers.emplace_back(chunks[d].size(), set.device(d));
    set.queue(d).copy(buffers[d], std::span<const double>(in).subspan(chunks[d].begin, chunks[d].size()));
    set.queue(d).copy(std::span<double>(out).subspan(chunks[d].begin, chunks[d].size()), buffers[d]);
  }
  set.wait_all();
  EXPECT_EQ(in, out);
}

} // namespace
