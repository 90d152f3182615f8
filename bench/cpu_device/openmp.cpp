// bench/cpu_device/openmp.cpp — the OpenMP reference of kernels.cpp: each algorithm as a host
// programmer writes it with OpenMP (g++ -O3 -fopenmp), same data and checks (sizes.hpp).
#include "sizes.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace bench_sizes;

int main(int argc, char **argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
  data d(argc > 2);
  int failures = 0;
  auto time = [&](const char *name, const std::function<void()> &run, const std::function<bool()> &check) {
    std::vector<double> ms;
    for (int r = 0; r <= reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      run();
      const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (r > 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const bool ok = check();
    failures += !ok;
    std::printf("%s %.3f ms%s\n", name, ms[ms.size() / 2], ok ? "" : " WRONG");
  };
  double result = 0;
  const std::size_t n = d.a.size();
  const double *a = d.a.data(), *b = d.b.data();
  auto dot = [&] {
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
    result = s;
  };
  time("dot", dot, [&] { return close(result, d.dot_expect); });
  time("dot_one_each", dot, [&] { return close(result, d.dot_expect); });
  time("grid_reduce_add", [&] {
    double s = 0;
    const double *r = d.r.data();
#pragma omp parallel for reduction(+ : s)
    for (std::size_t i = 0; i < d.r.size(); ++i) s += r[i];
    result = s;
  }, [&] { return close(result, d.reduce_expect); });
  const std::size_t mn = d.mm_n;
  time("matmul", [&] {
    const double *ma = d.ma.data(), *mb = d.mb.data();
    double *mc = d.mc.data();
#pragma omp parallel for
    for (std::size_t i = 0; i < mn; ++i) {
      double *row = mc + i * mn;
      for (std::size_t j = 0; j < mn; ++j) row[j] = 0;
      for (std::size_t k = 0; k < mn; ++k) {
        const double aik = ma[i * mn + k];
        for (std::size_t j = 0; j < mn; ++j) row[j] += aik * mb[k * mn + j];
      }
    }
  }, [&] { return d.check_matmul(); });
  const std::size_t tn = d.t_n;
  time("transpose", [&] {
    const double *in = d.t_in.data();
    double *out = d.t_out.data();
#pragma omp parallel for collapse(2)
    for (std::size_t yb = 0; yb < tn; yb += 32)
      for (std::size_t xb = 0; xb < tn; xb += 32)
        for (std::size_t y = yb; y < std::min(yb + 32, tn); ++y)
          for (std::size_t x = xb; x < std::min(xb + 32, tn); ++x) out[x * tn + y] = in[y * tn + x];
  }, [&] { return d.check_transpose(); });
  std::uint64_t counts[bins];
  time("histogram", [&] {
    std::fill(counts, counts + bins, 0);
    const std::uint32_t *v = d.values.data();
    const std::size_t vn = d.values.size();
#pragma omp parallel
    {
      std::uint64_t local[bins] = {};
#pragma omp for nowait
      for (std::size_t i = 0; i < vn; ++i) ++local[v[i] % bins];
      for (unsigned k = 0; k < bins; ++k)
        if (local[k]) {
#pragma omp atomic
          counts[k] += local[k];
        }
    }
  }, [&] { return d.check_histogram(counts); });
  const long nx = d.s_nx, ny = d.s_ny;
  time("stencil", [&] {
    const double *in = d.s_in.data();
    double *out = d.s_out.data();
    auto at = [&](long i, long j) {
      i = i < 0 ? 0 : i >= nx ? nx - 1 : i;
      j = j < 0 ? 0 : j >= ny ? ny - 1 : j;
      return in[std::size_t(j) * nx + std::size_t(i)];
    };
#pragma omp parallel for
    for (long j = 0; j < ny; ++j)
      for (long i = 0; i < nx; ++i) {
        const double mean = 0.25 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
        out[std::size_t(j) * nx + std::size_t(i)] = std::sqrt(mean * mean + 1e-3 * at(i, j) * at(i, j));
      }
  }, [&] { return d.check_stencil(); });
  return failures != 0;
}
