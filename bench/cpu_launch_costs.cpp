// bench/cpu_launch_costs.cpp — what a launch costs on the CPU device with the arguments most
// programs pass: nothing mapped, one mapped int, three small spans, two buffers, and one span of
// 64 KiB, 1 MiB and 16 MiB (its copy in and back). One workgroup of one work-item; the minimum
// over ROUNDS rounds, in ns per launch. Written for the fences around the CPU device's copies
// (docs/design.md, "Fences around every copy and buffer"): compare two runtimes by running the
// same program alternately with LD_LIBRARY_PATH pointing at each, several times, and taking
// each line's minimum. Usage: cpu_launch_costs [ROUNDS=7] [ONLY: empty|int|three-spans|
// two-buffers|spans].
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

OFFLOAD_KERNEL void empty(int) {}
OFFLOAD_KERNEL void touch(int *v) {
  if (offload::global_id_x() == 0)
    *v += 1;
}
OFFLOAD_KERNEL void three(std::span<float> a, std::span<float> b, std::span<const float> c) {
  if (offload::global_id_x() == 0)
    a[0] += b[0] + c[0];
}
OFFLOAD_KERNEL void buffers(offload::device_ptr<float> a, offload::device_ptr<float> b, unsigned n) {
  if (offload::global_id_x() == 0)
    a[0] += b[n - 1];
}
OFFLOAD_KERNEL void first(std::span<float> a) {
  if (offload::global_id_x() == 0)
    a[0] += 1;
}

template <class F> double min_ns(int launches, int rounds, F launch) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i)
      launch();
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - t0;
    best = std::min(best, took.count() / launches);
  }
  return best;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
  const std::string only = argc > 2 ? argv[2] : "";
  auto want = [&](const char *what) { return only.empty() || only == what; };
  const offload::launch_config one{.workgroups = {1}, .threads = {1}};
  offload::launch(empty, one, 0);  // start the device
  int value = 0;
  std::vector<float> a(16, 1), b(16, 1), c(16, 1);
  if (want("empty"))
    std::printf("empty %.0f\n", min_ns(20000, rounds, [&] { offload::launch(empty, one, 1); }));
  if (want("int"))
    std::printf("int %.0f\n", min_ns(20000, rounds, [&] { offload::launch(touch, one, &value); }));
  if (want("three-spans"))
    std::printf("three-spans %.0f\n", min_ns(20000, rounds, [&] {
                  offload::launch(three, one, std::span(a), std::span(b), std::span<const float>(c));
                }));
  if (want("two-buffers")) {
    offload::buffer<float> x(1024), y(1024);
    std::printf("two-buffers %.0f\n", min_ns(20000, rounds, [&] {
                  offload::launch(buffers, one, x.data(), y.data(), 1024u);
                }));
  }
  if (want("spans"))
    for (std::size_t kib : {64, 1024, 16384}) {
      std::vector<float> big(kib * 256, 1);
      const int launches = kib >= 16384 ? 20 : kib >= 1024 ? 200 : 2000;
      std::printf("span-%zuKiB %.0f\n", kib,
                  min_ns(launches, rounds, [&] { offload::launch(first, one, std::span(big)); }));
    }
}
