// bench/launch_overhead.cpp — the cost of a launch as the caller sees it (issue 19: profiling
// off must cost nothing, and on its cost is written down). Empty kernels, one workgroup of one
// work-item: `empty` takes a scalar (nothing mapped), `touch` one mapped int (a map, a copy in
// and a copy back per launch). Prints the median over ROUNDS rounds of LAUNCHES launches each,
// in ns per launch. Usage: launch_overhead [LAUNCHES=20000] [ROUNDS=9]. Run on the CPU device
// (OFFLOAD_DEVICE=cpu) or a GPU; bench/NOTES.md has the figures.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

OFFLOAD_KERNEL void empty(int) {}

OFFLOAD_KERNEL void touch(int *v) {
  if (offload::global_id_x() == 0)
    *v += 1;
}

template <class F> double median_ns(int launches, int rounds, F launch) {
  std::vector<double> per_launch;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i)
      launch();
    offload::synchronize();
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - t0;
    per_launch.push_back(took.count() / launches);
  }
  std::sort(per_launch.begin(), per_launch.end());
  return per_launch[per_launch.size() / 2];
}

int main(int argc, char **argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 9;
  const offload::launch_config one{.workgroups = {1}, .threads = {1}};
  offload::launch(empty, one, 0);  // start the device
  const double e = median_ns(launches, rounds, [&] { offload::launch(empty, one, 1); });
  int value = 0;
  const double t = median_ns(launches, rounds, [&] { offload::launch(touch, one, &value); });
  std::printf("launch_overhead on %s: empty %.0f ns, one mapped int %.0f ns per launch\n",
              offload::last_launch_device().c_str(), e, t);
  return value == launches * rounds ? 0 : 1;
}
