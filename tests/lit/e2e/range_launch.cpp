// offload::launch(k, offload::range{n}, ...) (issue 15): a 1-D launch whose workgroup size the
// device chooses (occupancy on GPUs); the grid covers n, the kernel guards global_id_x() < n.
// Also on a queue, for sizes that are not a multiple of anything, and the refusals.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: env OFFLOAD_INFO=1 OFFLOAD_DEVICE=cpu %t 2>&1 | FileCheck %s --check-prefix=INFO
// CHECK: range_launch: all checks passed
// INFO: launching kernel scale at range_launch.cpp:[[#]] on CPU device ({{[0-9]+}} threads) with 98x1x1 workgroups of 1024x1x1 threads
#include <offload/offload.hpp>

#include <cstdio>
#include <string>
#include <vector>

OFFLOAD_KERNEL void scale(std::span<double> v, double by) {
  const std::size_t i = offload::global_id_x();
  if (i < v.size())
    v[i] *= by;
}

// Meets at barriers: the CPU device runs smaller workgroups of fibers.
OFFLOAD_KERNEL void count_items(unsigned n, unsigned *items, unsigned *width) {
  auto &here = offload::shared<unsigned>([] {});
  if (offload::thread_id_x() == 0)
    here = 0;
  offload::barrier();
  if (offload::global_id_x() < n)
    offload::atomic_add(&here, 1u);
  offload::barrier();
  if (offload::thread_id_x() == 0)
    offload::atomic_add(items, here);
  if (offload::global_id_x() == 0)
    *width = offload::block_dim_x();
}

int main() {
  int failures = 0;
  for (std::size_t n : {std::size_t(1), std::size_t(31), std::size_t(1000), std::size_t(100003)}) {
    std::vector<double> v(n, 1.5);
    offload::launch(scale, offload::range{n}, std::span(v), 2.0);
    for (std::size_t i = 0; i < n; ++i)
      if (v[i] != 3.0) {
        std::printf("n %zu: v[%zu] = %g\n", n, i, v[i]);
        ++failures;
        break;
      }
  }
  int signed_n = 777;
  unsigned items = 0, width = 0;
  offload::launch(count_items, offload::range{signed_n}, unsigned(signed_n), &items, &width);
  if (items != 777 || width == 0 || width > 1024) {
    std::printf("count_items: %u items in workgroups of %u\n", items, width);
    ++failures;
  }
  {
    offload::queue q;
    std::vector<double> w(5000, 1.0);
    q.launch(scale, offload::range{w.size()}, std::span(w), 4.0);
    q.launch(scale, offload::range{w.size()}, std::span(w), 0.5);
    q.wait();
    if (w[0] != 2.0 || w[4999] != 2.0) {
      std::printf("queued: %g %g\n", w[0], w[4999]);
      ++failures;
    }
  }
  // Refused: empty, negative, not starting at 0.
  std::vector<double> v(8, 1.0);
  const offload::range bad[] = {offload::range{0}, offload::range{-3}, offload::range{2, 8}};
  const char *want[] = {"empty offload::range", "negative or out-of-range number", "must begin at 0"};
  for (int k = 0; k < 3; ++k)
    try {
      offload::launch(scale, bad[k], std::span(v), 2.0);
      std::printf("range %d was not refused\n", k);
      ++failures;
    } catch (const offload::error &e) {
      if (std::string(e.what()).find(want[k]) == std::string::npos ||
          std::string(e.what()).find("kernel 'scale' launched at range_launch.cpp:") == std::string::npos) {
        std::printf("range %d: %s\n", k, e.what());
        ++failures;
      }
    }
  if (v[0] != 1.0)
    ++failures;
  std::printf("range_launch: %s on %s\n", failures ? "FAILED" : "all checks passed",
              offload::last_launch_device().c_str());
  return failures != 0;
}
