// OpenMP version of histogram/port.cpp (which followed the user guide's "Kernels and launches",
// "How arguments reach the device" and "The device-side library" sections).
// 256-bin histogram of 8-bit samples: per-thread bins by an OpenMP array reduction.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr std::size_t N = std::size_t(1) << 26;
constexpr unsigned BINS = 256;

int main() {
  std::vector<std::uint8_t> data(N);
  std::uint32_t s = 12345;
  for (auto &v : data) {
    s = s * 1664525u + 1013904223u;
    unsigned a = s >> 24, b = (s >> 16) & 0xff;
    v = std::uint8_t((a + b) / 2);
  }
  std::vector<unsigned> hist(BINS);

  auto run = [&] {
    unsigned h[BINS] = {};
    const std::uint8_t *d = data.data();
#pragma omp parallel for reduction(+ : h[:BINS]) schedule(static)
    for (std::size_t i = 0; i < N; ++i) h[d[i]]++;
    std::copy(h, h + BINS, hist.begin());
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
