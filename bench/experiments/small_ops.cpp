// bench/experiments/small_ops.cpp — the API rows still above CUDA (issue 30: queue_copy_d2h_4k,
// buffer_copy_to_4k, buffer_fill_4k, launch_mapped_span_4k), one at a time in a loop long enough
// for a profiler (`perf record`): `small_ops ROW [N]` prints the median us of N (default 200000).
// Twin: small_ops.cu (nvcc), the same rows through CUDA's runtime and driver APIs.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

OFFLOAD_KERNEL void add_one(std::span<float> v) {
  const std::size_t i = offload::global_id_x();
  if (i < v.size())
    v[i] += 1.0f;
}

template <class F> static double median_us(int n, F f) {
  std::vector<double> t(static_cast<std::size_t>(n));
  for (auto &x : t) {
    const auto a = std::chrono::steady_clock::now();
    f();
    x = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count();
  }
  std::nth_element(t.begin(), t.begin() + n / 2, t.end());
  return t[static_cast<std::size_t>(n / 2)];
}

int main(int argc, char **argv) {
  const char *row = argc > 1 ? argv[1] : "queue_copy_d2h_4k";
  const int n = argc > 2 ? std::atoi(argv[2]) : 200000;
  const std::size_t floats = 1024;
  std::vector<float> host(floats, 1.0f);
  offload::buffer<float> b(floats);
  b.copy_from(host);
  offload::queue q;
  double us = -1;
  if (!std::strcmp(row, "queue_copy_d2h_4k"))
    us = median_us(n, [&] { q.copy(std::span<float>(host), b); q.wait(); });
  else if (!std::strcmp(row, "buffer_copy_to_4k"))
    us = median_us(n, [&] { b.copy_to(host); });
  else if (!std::strcmp(row, "buffer_copy_from_4k"))
    us = median_us(n, [&] { b.copy_from(host); });
  else if (!std::strcmp(row, "buffer_fill_4k"))
    us = median_us(n, [&] { b.fill(0.0f); });
  else if (!std::strcmp(row, "launch_mapped_span_4k"))
    us = median_us(n, [&] {
      offload::launch(add_one, {.workgroups = {4}, .threads = {256}}, std::span<float>(host));
    });
  else {
    std::fprintf(stderr, "small_ops: no row '%s'\n", row);
    return 2;
  }
  offload::synchronize();
  std::printf("%s %.3f us (median of %d) on %s\n", row, us, n, offload::describe_device(offload::default_device).name.c_str());
}
