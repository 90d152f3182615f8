// OpenMP version of scan/port.cpp (which followed the user guide's "Kernels and launches",
// "Data kept on the device" and "The device-side library" sections).
// Inclusive prefix sum of 32 Mi unsigned ints (mod 2^32): each thread scans its chunk, the
// chunk totals are scanned, then each thread adds its offset (two passes over the data).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr std::size_t N = std::size_t(1) << 25;

int main() {
  std::vector<unsigned> in(N), out(N);
  std::uint32_t s = 99;
  for (auto &v : in) {
    s = s * 1664525u + 1013904223u;
    v = s >> 16;
  }

  auto run = [&] {
    const unsigned *ip = in.data();
    unsigned *op = out.data();
    std::vector<unsigned> part(omp_get_max_threads() + 1, 0u);
#pragma omp parallel
    {
      const int T = omp_get_num_threads(), me = omp_get_thread_num();
      const std::size_t lo = N * me / T, hi = N * (me + 1) / T;
      unsigned acc = 0;
      for (std::size_t i = lo; i < hi; ++i) op[i] = (acc += ip[i]);
      part[me + 1] = acc;
#pragma omp barrier
#pragma omp single
      for (int k = 1; k <= T; ++k) part[k] += part[k - 1];
      const unsigned off = part[me];
      if (off != 0)
        for (std::size_t i = lo; i < hi; ++i) op[i] += off;
    }
  };

  run();  // warm-up
  std::vector<double> times;
  for (int r = 0; r < 7; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }

  bool ok = true;
  unsigned acc = 0;
  for (std::size_t i = 0; i < N; ++i) {
    acc += in[i];
    if (out[i] != acc) { ok = false; break; }
  }
  std::printf("CHECK %s\n", ok ? "ok" : "WRONG");
  std::sort(times.begin(), times.end());
  std::printf("scan %.3f ms\n", times[3]);
  return 0;
}
