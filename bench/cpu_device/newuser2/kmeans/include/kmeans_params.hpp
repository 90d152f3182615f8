// Problem sizes shared by every file (no offload use).
#pragma once
#include <cstdint>
namespace km {
constexpr int D = 4;                      // dimensions
constexpr int K = 64;                     // clusters
constexpr std::int64_t N = 1 << 20;       // points
constexpr int WG = 256;                   // work-items per workgroup
constexpr int KMEANS_VERSION = 1;         // bump to check rebuilds after a header edit
}  // namespace km
