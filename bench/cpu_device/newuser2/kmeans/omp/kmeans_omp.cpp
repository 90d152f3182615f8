// OpenMP twin of the k-means assignment step: g++ -O3 -fopenmp -Iinclude omp/kmeans_omp.cpp src/data.cpp
#include "data.hpp"
#include "../../common/bench.hpp"
#include <omp.h>
using namespace km;

int main() {
  const std::vector<float> pts = make_points();
  const std::vector<float> cent = make_centroids(pts);
  std::vector<int> labels(N), counts(K);
  std::vector<double> sums(K * D);
  const float *p = pts.data(), *c = cent.data();
  int *lab = labels.data();
  auto run = [&] {
    double s[K * D] = {};
    int cnt[K] = {};
#pragma omp parallel for schedule(static) reduction(+ : s[:K * D], cnt[:K])
    for (std::int64_t i = 0; i < N; ++i) {
      int best = 0;
      float bestd = 3.4e38f;
      for (int k = 0; k < K; ++k) {
        float dist = 0.f;
        for (int d = 0; d < D; ++d) {
          const float diff = p[i * D + d] - c[k * D + d];
          dist += diff * diff;
        }
        if (dist < bestd) { bestd = dist; best = k; }
      }
      lab[i] = best;
      for (int d = 0; d < D; ++d) s[best * D + d] += p[i * D + d];
      cnt[best] += 1;
    }
    sums.assign(s, s + K * D);
    counts.assign(cnt, cnt + K);
  };
  run();
  const double ms = bench::median_ms(run);
  std::vector<int> rlabels, rcounts;
  std::vector<double> rsums;
  reference_step(pts, cent, rlabels, rsums, rcounts);
  const bool ok = compare_step("vs serial", labels, sums, counts, rlabels, rsums, rcounts);
  bench::write_file("kmeans_omp.out", labels);
  std::printf("CHECK %s (%d threads)\n", ok ? "ok" : "WRONG", omp_get_max_threads());
  std::printf("kmeans_omp %.2f ms\n", ms);
  return ok ? 0 : 1;
}
