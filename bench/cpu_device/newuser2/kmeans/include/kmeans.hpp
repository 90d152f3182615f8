// The k-means assignment kernel and its host wrapper.
#pragma once
#include <offload/offload.hpp>
#include <span>
#include <vector>
#include "kmeans_params.hpp"

namespace km {
// For each point: nearest centroid (label), and its coordinates added to that cluster's sum.
OFFLOAD_KERNEL void assign_kernel(offload::readonly_ptr<float> pts, std::span<const float> cent,
                                  offload::device_ptr<int> labels, std::span<double> sums,
                                  std::span<int> counts, std::int64_t n);

// One assignment step on the default device: points and labels stay in device buffers,
// centroids go in, sums and counts come back.
void assign_step(offload::buffer<float> &pts, offload::buffer<int> &labels, const std::vector<float> &cent,
                 std::vector<double> &sums, std::vector<int> &counts);
}  // namespace km
