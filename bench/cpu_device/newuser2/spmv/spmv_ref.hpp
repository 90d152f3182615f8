// CSR sparse matrix-vector product: problem setup (a banded random matrix, rows scaled to sum 1)
// and serial reference. The timed computation is ITERS products y = A x, x = A y, ...
#pragma once
#include "../common/bench.hpp"

namespace spmv {
constexpr std::int32_t N = 1 << 21;     // rows = columns
constexpr int NNZ_ROW = 16, BAND = 4096, ITERS = 4;

struct csr {
  std::vector<std::int32_t> rowptr, col;
  std::vector<double> val;
};

inline csr make_matrix() {
  csr a;
  a.rowptr.resize(N + 1);
  a.col.reserve(std::size_t(N) * NNZ_ROW);
  a.val.reserve(std::size_t(N) * NNZ_ROW);
  bench::rng r(7);
  a.rowptr[0] = 0;
  for (std::int32_t i = 0; i < N; ++i) {
    // 8..24 entries per row (average 16): rows of uneven length, as real matrices have
    int len = NNZ_ROW / 2 + int(r.next() % (NNZ_ROW + 1));
    double s = 0;
    std::size_t start = a.val.size();
    for (int k = 0; k < len; ++k) {
      std::int64_t c = std::int64_t(i) + std::int64_t(r.next() % (2 * BAND + 1)) - BAND;
      c = c < 0 ? -c : c >= N ? 2 * (N - 1) - c : c;
      double v = 0.1 + r.uniform();
      a.col.push_back(std::int32_t(c));
      a.val.push_back(v);
      s += v;
    }
    for (std::size_t k = start; k < a.val.size(); ++k) a.val[k] /= s;
    a.rowptr[i + 1] = std::int32_t(a.val.size());
  }
  return a;
}

inline std::vector<double> make_x() {
  std::vector<double> x(N);
  bench::rng r(99);
  for (auto &v : x) v = r.uniform();
  return x;
}

inline void multiply(const csr &a, const std::vector<double> &x, std::vector<double> &y) {
  for (std::int32_t i = 0; i < N; ++i) {
    double s = 0;
    for (std::int32_t k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) s += a.val[k] * x[a.col[k]];
    y[i] = s;
  }
}

inline std::vector<double> reference(const csr &a, std::vector<double> x) {
  std::vector<double> y(N);
  for (int it = 0; it < ITERS; ++it) {
    multiply(a, x, y);
    std::swap(x, y);
  }
  return x;
}
}  // namespace spmv
