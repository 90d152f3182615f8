// Followed: user guide "Kernels and launches", "How arguments reach the device" (std::span,
// offload::to), "The device-side library" (offload::shared bins, barrier(), atomic_add).
// 256-bin histogram of 8-bit samples: workgroup-local bins in shared memory, grid-stride loop,
// then one atomic per bin per workgroup into the global histogram.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

constexpr std::size_t N = std::size_t(1) << 26;  // 64 Mi samples
constexpr unsigned BINS = 256;
constexpr unsigned THREADS = 256;  // one bin per work-item for zeroing and flushing
constexpr unsigned WORKGROUPS = 64;

OFFLOAD_KERNEL void histogram256(std::span<const std::uint8_t> data, std::span<unsigned> bins) {
  auto &local = offload::shared<unsigned[BINS]>([] {});
  const unsigned t = unsigned(offload::thread_id_x());
  local[t] = 0;
  offload::barrier();
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::size_t i = offload::global_id_x(); i < data.size(); i += stride)
    offload::atomic_add(&local[data[i]], 1u);
  offload::barrier();
  if (local[t] != 0) offload::atomic_add(&bins[t], local[t]);
}

int main() {
  std::vector<std::uint8_t> data(N);
  std::uint32_t s = 12345;
  for (auto &v : data) {  // skewed distribution, as image data is
    s = s * 1664525u + 1013904223u;
    unsigned a = s >> 24, b = (s >> 16) & 0xff;
    v = std::uint8_t((a + b) / 2);
  }
  std::vector<unsigned> hist(BINS);
  const offload::launch_config cfg{.workgroups = {WORKGROUPS}, .threads = {THREADS}};

  auto run = [&] {
    std::fill(hist.begin(), hist.end(), 0u);
    offload::launch(histogram256, cfg, offload::to(std::span<const std::uint8_t>(data)), std::span(hist));
  };

  run();  // warm-up
  std::vector<double> times;
  for (int r = 0; r < 7; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }

  std::vector<unsigned> ref(BINS, 0);
  for (auto v : data) ref[v]++;
  std::printf("CHECK %s\n", ref == hist ? "ok" : "WRONG");
  std::sort(times.begin(), times.end());
  std::printf("histogram %.3f ms\n", times[3]);
  return 0;
}
