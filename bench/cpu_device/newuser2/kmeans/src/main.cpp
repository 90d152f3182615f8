// k-means assignment step on the offload device, timed and checked against the serial reference
// and, when kmeans_omp.out exists, against the OpenMP twin's labels.
#include "data.hpp"
#include "kmeans.hpp"
#include "../../common/bench.hpp"

using namespace km;

int main() {
  const std::vector<float> pts = make_points();
  const std::vector<float> cent = make_centroids(pts);

  offload::buffer<float> d_pts(pts.size());
  offload::buffer<int> d_labels(N);
  d_pts.copy_from(pts);
  std::vector<double> sums;
  std::vector<int> counts;

  auto run = [&] { assign_step(d_pts, d_labels, cent, sums, counts); };  // brings sums back: waits
  run();
  const double ms = bench::median_ms(run);
  std::vector<int> labels(N);
  d_labels.copy_to(labels);

  std::vector<int> rlabels, rcounts, twin;
  std::vector<double> rsums;
  reference_step(pts, cent, rlabels, rsums, rcounts);
  bool ok = compare_step("vs serial", labels, sums, counts, rlabels, rsums, rcounts);
  if (bench::read_file("kmeans_omp.out", twin, std::size_t(N))) {
    std::int64_t diff = 0;
    for (std::int64_t i = 0; i < N; ++i) diff += twin[i] != labels[i];
    std::printf("vs OpenMP twin: %lld labels differ\n", (long long)diff);
    ok = ok && diff == 0;
  } else {
    std::printf("(no kmeans_omp.out: run kmeans_omp first to compare with the twin)\n");
  }
  std::printf("CHECK %s (version %d, on %s)\n", ok ? "ok" : "WRONG", KMEANS_VERSION,
              offload::last_launch_device().c_str());
  std::printf("kmeans %.2f ms\n", ms);
  return ok ? 0 : 1;
}
