#include "kmeans.hpp"

namespace km {
OFFLOAD_KERNEL void assign_kernel(offload::readonly_ptr<float> pts, std::span<const float> cent,
                                  offload::device_ptr<int> labels, std::span<double> sums,
                                  std::span<int> counts, std::int64_t n) {
  auto &c = offload::shared<float[K][D]>([] {});
  auto &psum = offload::shared<float[K][D]>([] {});
  auto &pcnt = offload::shared<int[K]>([] {});
  const int t = int(offload::thread_id_x());
  for (int j = t; j < K * D; j += WG) {
    c[j / D][j % D] = cent[j];
    psum[j / D][j % D] = 0.f;
  }
  for (int j = t; j < K; j += WG) pcnt[j] = 0;
  offload::barrier();

  const std::int64_t i = std::int64_t(offload::global_id_x());
  if (i < n) {
    float p[D];
    for (int d = 0; d < D; ++d) p[d] = pts[i * D + d];
    int best = 0;
    float bestd = 3.4e38f;
    for (int k = 0; k < K; ++k) {
      float dist = 0.f;
      for (int d = 0; d < D; ++d) {
        const float diff = p[d] - c[k][d];
        dist += diff * diff;
      }
      if (dist < bestd) { bestd = dist; best = k; }
    }
    labels[i] = best;
    for (int d = 0; d < D; ++d) offload::atomic_add(&psum[best][d], p[d]);
    offload::atomic_add(&pcnt[best], 1);
  }
  offload::barrier();
  // one global atomic per cluster and coordinate per workgroup
  for (int j = t; j < K * D; j += WG) offload::atomic_add(&sums[j], double(psum[j / D][j % D]));
  for (int j = t; j < K; j += WG) offload::atomic_add(&counts[j], pcnt[j]);
}

void assign_step(offload::buffer<float> &pts, offload::buffer<int> &labels, const std::vector<float> &cent,
                 std::vector<double> &sums, std::vector<int> &counts) {
  sums.assign(K * D, 0.0);
  counts.assign(K, 0);
  const offload::launch_config cfg{.workgroups = {(N + WG - 1) / WG}, .threads = {WG}};
  offload::launch(assign_kernel, cfg, pts.data(), std::span<const float>(cent), labels.data(),
                  std::span(sums), std::span(counts), N);
}
}  // namespace km
