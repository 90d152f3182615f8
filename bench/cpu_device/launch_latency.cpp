// bench/cpu_device/launch_latency.cpp — what a launch costs on the CPU device (issue 31, item 1:
// the pool's dispatch): 20,000 launches of each shape after 100 to warm up, the mean per
// launch; launch_latency_omp.cpp is the same work as OpenMP parallel loops.
//   offload-cxx -O3 --offload-arch=host launch_latency.cpp -o ll && OFFLOAD_CPU_THREADS=2 ./ll
#include <offload/offload.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

OFFLOAD_KERNEL void one_item(offload::device_ptr<float> e) { *e = 0; }
OFFLOAD_KERNEL void set_items(offload::device_ptr<float> e) { e[offload::global_id_x()] = 1.0f; }

int main() {
  offload::buffer<float> b(1024);
  std::vector<float> h(1);
  auto d = b.data();
  auto time = [&](const char *what, auto f) {
    for (int i = 0; i < 100; ++i) f();
    const int n = 20000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) f();
    auto t1 = std::chrono::steady_clock::now();
    std::printf("%-34s %8.3f us\n", what, std::chrono::duration<double, std::micro>(t1 - t0).count() / n);
  };
  time("launch, 1 work-item", [&] { offload::launch(one_item, {}, d); });
  time("launch, 4 x 256 work-items", [&] { offload::launch(set_items, {.workgroups = {4}, .threads = {256}}, d); });
  time("launch 4 x 256 + synchronize", [&] {
    offload::launch(set_items, {.workgroups = {4}, .threads = {256}}, d);
    offload::synchronize();
  });
  time("launch 4 x 256 + copy of 4 bytes", [&] {
    offload::launch(set_items, {.workgroups = {4}, .threads = {256}}, d);
    b.copy_to(std::span<float>(h));
  });
}
