#include <dropin/ops.hpp>
#include <dropin_sys.h>

#include <cstdio>
#include <thread>
#include <vector>

OFFLOAD_KERNEL void add(std::span<int> v, int k) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] += k;
}

int main() {
  // Threads launch kernels at once, each on its own data.
  std::vector<double> sums(DROPIN_THREADS);
  std::vector<std::thread> threads;
  for (int t = 0; t < DROPIN_THREADS; ++t)
    threads.emplace_back([t, &sums] {
      std::vector<double> v(1000, 1.0);
      sums[t] = dropin::scaled_sum(v, t + 1);
    });
  for (std::thread &t : threads) t.join();
  std::vector<int> w(100, 1);
  offload::launch(add, {.workgroups = {2}, .threads = {64}}, std::span(w), 2);
  bool ok = w[99] == 3 && w[0] == 3;
  for (int t = 0; t < DROPIN_THREADS; ++t) ok &= sums[t] == 1000.0 * (t + 1);
  std::printf("drop-in v%d: %s on %s\n", dropin::version, ok ? "all checks passed" : "FAILED",
              offload::last_launch_device().c_str());
  return ok ? 0 : 1;
}
