// Data generation and the serial reference of one k-means step (plain C++, no offload).
#pragma once
#include <vector>
#include "kmeans_params.hpp"
namespace km {
std::vector<float> make_points();                    // N x D, clustered
std::vector<float> make_centroids(const std::vector<float> &pts);  // K x D
// serial reference: labels, per-cluster coordinate sums and counts
void reference_step(const std::vector<float> &pts, const std::vector<float> &cent,
                    std::vector<int> &labels, std::vector<double> &sums, std::vector<int> &counts);
// compares a step's results with the reference; prints details, returns true when they agree
bool compare_step(const char *what, const std::vector<int> &labels, const std::vector<double> &sums,
                  const std::vector<int> &counts, const std::vector<int> &rlabels,
                  const std::vector<double> &rsums, const std::vector<int> &rcounts);
}  // namespace km
