// Issue 13, item 5: errors and OFFLOAD_INFO name the line of the launch call, also when one
// named launch_config serves many launches.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: env OFFLOAD_INFO=-1 OFFLOAD_DEVICE=cpu %t 2>&1 | FileCheck %s
#include <offload/offload.hpp>

#include <cstdio>
#include <utility>

OFFLOAD_KERNEL void add_one(int (*x)[4]) { (*x)[offload::thread_id_x()] += 1; }

offload::launch_config four_threads() { return {.threads = {4}}; }

int main() {
  const offload::launch_config cfg{.threads = {4}};
  int x[4] = {};
  offload::launch(add_one, cfg, &x); // CHECK: launching kernel add_one at launch_site.cpp:[[@LINE]]
  offload::launch(add_one, cfg, &x); // CHECK: launching kernel add_one at launch_site.cpp:[[@LINE]]
  offload::launch(add_one, {.threads = {4}}, &x); // CHECK: launching kernel add_one at launch_site.cpp:[[@LINE]]
  {
    offload::queue q;
    q.launch(add_one, cfg, &x); // CHECK: launching kernel add_one at launch_site.cpp:[[@LINE]]
    q.wait();
  }
  offload::launch(add_one, four_threads(), &x); // CHECK: launching kernel add_one at launch_site.cpp:[[@LINE]]
  offload::launch_config moved{.threads = {4}};
  offload::launch(add_one, std::move(moved), &x); // CHECK: launching kernel add_one at launch_site.cpp:[[@LINE]]
  const offload::launch_config too_big{.threads = {2048}};
  try {
    offload::launch(add_one, too_big, &x); // CHECK: kernel 'add_one' launched at launch_site.cpp:[[@LINE]]
  } catch (const offload::error &e) {
    std::puts(e.what());
  }
  std::printf("launch_site: %s\n", x[3] == 6 ? "all checks passed" : "FAILED");
  // CHECK: launch_site: all checks passed
}
