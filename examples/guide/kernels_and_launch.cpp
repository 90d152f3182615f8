// examples/guide/kernels_and_launch.cpp — kernels, launch configurations and argument mapping.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

// A kernel is a plain function (or function template) marked OFFLOAD_KERNEL, returning void.
template <class T>
OFFLOAD_KERNEL void axpy(T a, std::span<const T> x, std::span<T> y) {
  auto i = offload::global_id_x();  // block_id_x() * block_dim_x() + thread_id_x()
  if (i < y.size()) y[i] = a * x[i] + y[i];
}

struct bounds {  // trivially copyable structs travel by value, at any size
  double lo, hi;
};

OFFLOAD_KERNEL void clamp(double (*values)[8], bounds b) {
  auto i = offload::thread_id_x();
  if (i < 8) (*values)[i] = (*values)[i] < b.lo ? b.lo : (*values)[i] > b.hi ? b.hi : (*values)[i];
}

OFFLOAD_KERNEL void iota(std::span<int> out) {
  auto i = offload::global_id_x();
  if (i < out.size()) out[i] = int(i);
}

int main() {
  std::vector<float> x(1000, 1.0f), y(1000, 2.0f);
  // 4 workgroups of 256 threads; x is copied in only (const), y in and back.
  offload::launch(axpy<float>, {.workgroups = {4}, .threads = {256}}, 3.0f,
                  std::span<const float>(x), std::span(y));

  double v[8] = {-3, -1, 0, 1, 2, 3, 4, 5};
  offload::launch(clamp, {.threads = {8}}, &v, bounds{0.0, 3.0});  // &v: pointer to the array

  // Explicit directions: iota only writes `idx`, so offload::from skips the copy in.
  std::vector<int> idx(1000, -1);
  offload::launch(iota, {.workgroups = {4}, .threads = {256}}, offload::from(std::span(idx)));

  bool ok = y[999] == 5.0f && v[0] == 0.0 && v[7] == 3.0 && idx[999] == 999;
  std::printf("kernels_and_launch: %s on %s\n", ok ? "all checks passed" : "FAILED",
              offload::last_launch_device().c_str());
  return ok ? 0 : 1;
}
