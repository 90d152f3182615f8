// A lambda kernel and the same body written as an OFFLOAD_KERNEL function with the parameters
// the lambda kernel has (its captures, then the first index and the count): codegen/
// lambda-vs-kernel.test compares their PTX.
#include <offload/offload.hpp>
#include <span>
#include <vector>
OFFLOAD_KERNEL void saxpy(std::span<float> y, float a, std::span<const float> x, std::size_t first, std::size_t count) {
  const std::size_t i = std::size_t(offload::block_id_x()) * offload::block_dim_x() + offload::thread_id_x();
  if (i < count) { const std::size_t k = first + i; y[k] += a * x[k]; }
}
int main() {
  std::vector<float> xv(100, 1.0f), yv(100, 2.0f);
  std::span<float> ys(yv); std::span<const float> xs(xv); float a = 3.0f;
  offload::launch(saxpy, offload::range{100}, ys, a, xs, std::size_t(0), std::size_t(100));
  offload::parallel_for(offload::range{100}, [=](std::size_t k) { ys[k] += a * xs[k]; });
}
