// bench/cpu_device/sizes.hpp — the inputs and the checks shared by kernels.cpp (the CPU device)
// and openmp.cpp (the OpenMP reference): same sizes, same data, same tolerances.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace bench_sizes {

constexpr unsigned bins = 64;

inline bool close(double got, double expect) {
  return std::fabs(got - expect) <= 1e-9 * std::fabs(expect) + 1e-12;
}

struct data {
  std::vector<double> a, b, r, ma, mb, mc, t_in, t_out, s_in, s_out;
  std::vector<std::uint32_t> values;
  double dot_expect = 0, reduce_expect = 0;
  std::uint32_t mm_n, t_n, s_nx, s_ny;

  explicit data(bool small)
      : mm_n(small ? 40 : 512), t_n(small ? 70 : 4096), s_nx(small ? 50 : 4000),
        s_ny(small ? 30 : 4000) {
    const std::size_t n = small ? 5000 : std::size_t(1) << 24, rn = small ? 3000 : std::size_t(1) << 20;
    a.resize(n);
    b.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = double(i % 17) * 0.25;
      b[i] = double(i % 5) - 1.5;
      dot_expect += a[i] * b[i];
    }
    r.resize(rn);
    for (std::size_t i = 0; i < rn; ++i) reduce_expect += r[i] = double(i % 9) * 0.5;
    ma.resize(std::size_t(mm_n) * mm_n);
    mb.resize(ma.size());
    mc.resize(ma.size());
    for (std::size_t i = 0; i < ma.size(); ++i) {
      ma[i] = double(i % 7) - 3.0;
      mb[i] = double(i % 5) * 0.5;
    }
    t_in.resize(std::size_t(t_n) * t_n);
    t_out.resize(t_in.size());
    for (std::size_t i = 0; i < t_in.size(); ++i) t_in[i] = double(i);
    values.resize(n);
    std::uint32_t state = 12345;
    for (auto &v : values) v = state = state * 1664525u + 1013904223u;
    s_in.resize(std::size_t(s_nx) * s_ny);
    s_out.resize(s_in.size());
    for (std::size_t i = 0; i < s_in.size(); ++i) s_in[i] = double((i * 37) % 101) / 101.0;
  }

  bool check_matmul() const {  // a few entries (a full check costs as much as the product)
    for (std::uint32_t i = 0; i < mm_n; i += 37)
      for (std::uint32_t j = 0; j < mm_n; j += 41) {
        double e = 0;
        for (std::uint32_t k = 0; k < mm_n; ++k) e += ma[std::size_t(i) * mm_n + k] * mb[std::size_t(k) * mm_n + j];
        if (!close(mc[std::size_t(i) * mm_n + j], e)) return false;
      }
    return true;
  }
  bool check_transpose() const {
    for (std::size_t y = 0; y < t_n; ++y)
      for (std::size_t x = 0; x < t_n; ++x)
        if (t_out[x * t_n + y] != t_in[y * t_n + x]) return false;
    return true;
  }
  bool check_histogram(const std::uint64_t *counts) const {
    std::uint64_t expect[bins] = {};
    for (auto v : values) ++expect[v % bins];
    for (unsigned k = 0; k < bins; ++k)
      if (counts[k] != expect[k]) return false;
    return true;
  }
  bool check_stencil() const {
    auto at = [&](long i, long j) {
      i = i < 0 ? 0 : i >= long(s_nx) ? long(s_nx) - 1 : i;
      j = j < 0 ? 0 : j >= long(s_ny) ? long(s_ny) - 1 : j;
      return s_in[std::size_t(j) * s_nx + std::size_t(i)];
    };
    for (long j = 0; j < long(s_ny); j += 7)
      for (long i = 0; i < long(s_nx); i += 3) {
        const double mean = 0.25 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
        if (!close(s_out[std::size_t(j) * s_nx + std::size_t(i)], std::sqrt(mean * mean + 1e-3 * at(i, j) * at(i, j))))
          return false;
      }
    return true;
  }
};

} // namespace bench_sizes
