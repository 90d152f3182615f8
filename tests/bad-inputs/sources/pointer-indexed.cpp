#include <offload/offload.hpp>
#include <vector>
// CUDA's way: a pointer parameter is one object here, so indexing it is a build error.
OFFLOAD_KERNEL void saxpy(float a, std::span<const float> x, float *y, unsigned n) {
  unsigned i = offload::global_id_x();
  if (i < n)
    y[i] += a * x[i]; // case:pointer-indexed
}
int main() {
  std::vector<float> x(8, 1), y(8, 2);
  offload::launch(saxpy, {.workgroups = 1, .threads = 8}, 2.f, std::span(x), y.data(), 8u);
}
