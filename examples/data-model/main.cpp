#include "kernels.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static bool close(double got, double want, double tol) {
  return std::fabs(got - want) <= tol * std::fmax(1.0, std::fabs(want));
}

int main(int argc, char **argv) {
  // Elements of the big field: 2^27 doubles = 1 GiB by default (argv[1] = log2 of the count).
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 27;
  const std::uint64_t n = std::uint64_t(1) << log2n;
  const unsigned groups = unsigned((n + 255) / 256);
  int failures = 0;

  // 1. A region around ten chained launches: the field is copied in once and out once.
  std::vector<double> field(n), next(n);
  {
    offload::data_region region({}, offload::alloc(std::span(field)), std::span(next));
    offload::launch(ramp, {.workgroups = {groups}, .threads = {256}}, std::span(field), 1.0, 0.0);
    const stencil s{0.25, 0.5, 0.25, n};
    for (int step = 0; step < 4; ++step) {  // 8 smoothing launches, ping-pong
      offload::launch(smooth, {.workgroups = {groups}, .threads = {256}}, s,
                      std::span<const double>(field), std::span(next));
      offload::launch(smooth, {.workgroups = {groups}, .threads = {256}}, s,
                      std::span<const double>(next), std::span(field));
    }
    offload::launch(scale<double>, {.workgroups = {groups}, .threads = {256}}, std::span(field),
                    2.0);
    region.update_from(std::span(field));  // the one copy back of `field`
  }
  // A constant field stays constant under a normalised stencil: every element is 2.
  for (std::uint64_t i = 0; i < n; i += n / 1024)
    if (!close(field[i], 2.0, 1e-12)) {
      std::printf("region: field[%llu] = %.17g, expected 2\n", (unsigned long long)i, field[i]);
      ++failures;
      break;
    }

  // 2. A device buffer (no host copy) and a sum over it.
  offload::buffer<double> device_field(n);
  device_field.copy_from(field);
  const double total = sum_on_device(device_field, n);
  if (!close(total, 2.0 * double(n), 1e-9)) {
    std::printf("buffer: sum %.17g, expected %.17g\n", total, 2.0 * double(n));
    ++failures;
  }

  // 3. An asynchronous queue: float launches return at once; the data comes back at wait().
  std::vector<float> small(1 << 20, 1.0f);
  offload::queue q;
  for (int k = 0; k < 5; ++k)
    q.launch(scale<float>, {.workgroups = {(1u << 20) / 256}, .threads = {256}}, std::span(small),
             2.0f);
  q.wait();
  for (float x : small)
    if (x != 32.0f) {
      std::printf("queue: %g, expected 32\n", double(x));
      ++failures;
      break;
    }

  if (failures) return 1;
  std::printf("data-model: all checks passed on %s (%.2f GiB field)\n",
              offload::last_launch_device().c_str(), double(n * sizeof(double)) / (1 << 30));
}
