#include <offload/offload.hpp>
#include <chrono>
#include <cstdio>
#include <span>
#include <vector>
#include <algorithm>
OFFLOAD_KERNEL void dot(std::span<const float> a, std::span<const float> b, float *result) {
  auto &part = offload::shared<float[256]>([] {});
  float acc = 0;
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::size_t i = offload::global_id_x(); i < a.size(); i += stride) acc += a[i] * b[i];
  unsigned t = offload::thread_id_x();
  part[t] = acc;
  offload::barrier();
  for (unsigned s = offload::block_dim_x() / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    offload::barrier();
  }
  if (t == 0) offload::atomic_add(result, part[0]);
}
int main() {
  std::size_t n = std::size_t(1) << 24;
  std::vector<float> a(n, 1.0f), b(n, 2.0f);
  float r = 0;
  std::vector<double> ts;
  for (int k = 0; k < 9; ++k) {
    r = 0;
    auto t0 = std::chrono::steady_clock::now();
    offload::launch(dot, {.workgroups = {64}, .threads = {256}}, a, b, &r);
    ts.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ts.begin(), ts.end());
  std::printf("r=%g dot %.2f ms\n", r, ts[4]);
}
