// OpenMP twin of spmv.cpp: g++ -O3 -fopenmp spmv_omp.cpp -o spmv_omp
#include "spmv_ref.hpp"
#include <omp.h>
using namespace spmv;

int main() {
  const csr a = make_matrix();
  const std::vector<double> x0 = make_x();
  std::vector<double> x(N), y(N);
  const std::int32_t *rp = a.rowptr.data(), *col = a.col.data();
  const double *val = a.val.data();
  auto run = [&] {
    x = x0;
    for (int it = 0; it < ITERS; ++it) {
      const double *xp = x.data();
      double *yp = y.data();
#pragma omp parallel for schedule(static)
      for (std::int32_t i = 0; i < N; ++i) {
        double s = 0;
        for (std::int32_t k = rp[i]; k < rp[i + 1]; ++k) s += val[k] * xp[col[k]];
        yp[i] = s;
      }
      std::swap(x, y);
    }
  };
  run();
  double ms = bench::median_ms(run);
  std::vector<double> ref = reference(a, x0);
  double d = bench::max_rel_diff(x, ref, 1e-12);
  bench::write_file("spmv_omp.out", x);
  std::printf("CHECK %s (max rel diff vs serial %.2e, %d threads)\n", d < 1e-12 ? "ok" : "WRONG", d, omp_get_max_threads());
  std::printf("spmv_omp %.2f ms\n", ms);
  return d < 1e-12 ? 0 : 1;
}
