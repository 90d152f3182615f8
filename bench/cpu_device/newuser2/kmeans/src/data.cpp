// Plain C++: no offload header, no kernel (compiled by g++ as written).
#include "data.hpp"
#include "../../common/bench.hpp"
#include <cstdio>

namespace km {
std::vector<float> make_points() {
  bench::rng r(2024);
  std::vector<float> centers(K * D);
  for (auto &v : centers) v = float(10.0 * r.uniform());
  std::vector<float> pts(std::size_t(N) * D);
  for (std::int64_t i = 0; i < N; ++i) {
    const int k = int(r.next() % K);
    for (int d = 0; d < D; ++d) pts[i * D + d] = centers[k * D + d] + float(1.5 * (r.uniform() - 0.5));
  }
  return pts;
}

std::vector<float> make_centroids(const std::vector<float> &pts) {
  std::vector<float> c(K * D);
  for (int k = 0; k < K; ++k)
    for (int d = 0; d < D; ++d) c[k * D + d] = pts[std::size_t(k) * 997 * D + d];  // spread-out points
  return c;
}

void reference_step(const std::vector<float> &pts, const std::vector<float> &cent, std::vector<int> &labels,
                    std::vector<double> &sums, std::vector<int> &counts) {
  labels.assign(N, -1);
  sums.assign(K * D, 0.0);
  counts.assign(K, 0);
  for (std::int64_t i = 0; i < N; ++i) {
    int best = 0;
    float bestd = 3.4e38f;
    for (int k = 0; k < K; ++k) {
      float dist = 0.f;
      for (int d = 0; d < D; ++d) {
        const float diff = pts[i * D + d] - cent[k * D + d];
        dist += diff * diff;
      }
      if (dist < bestd) { bestd = dist; best = k; }
    }
    labels[i] = best;
    for (int d = 0; d < D; ++d) sums[best * D + d] += pts[i * D + d];
    counts[best] += 1;
  }
}

bool compare_step(const char *what, const std::vector<int> &labels, const std::vector<double> &sums,
                  const std::vector<int> &counts, const std::vector<int> &rlabels,
                  const std::vector<double> &rsums, const std::vector<int> &rcounts) {
  std::int64_t bad_labels = 0;
  for (std::int64_t i = 0; i < N; ++i) bad_labels += labels[i] != rlabels[i];
  int bad_counts = 0;
  for (int k = 0; k < K; ++k) bad_counts += counts[k] != rcounts[k];
  double d = bench::max_rel_diff(sums, rsums, 1.0);  // float partial sums: order-dependent
  std::printf("%s: %lld labels differ, %d counts differ, sums max rel diff %.2e\n", what,
              (long long)bad_labels, bad_counts, d);
  return bad_labels == 0 && bad_counts == 0 && d < 1e-4;
}
}  // namespace km
