// Launch errors are offload::error exceptions whose message is one line naming the kernel and the
// launch's file:line; the host data is untouched.
// RUN: %offload-cxx -O1 %s -o %t
// RUN: env OFFLOAD_DEVICE=cpu %t 2>&1 | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu not %t uncaught 2>&1 | FileCheck %s --check-prefix=UNCAUGHT
// RUN: env OMP_TARGET_OFFLOAD=mandatory OFFLOAD_DEVICE= %t mandatory 2>&1 | FileCheck %s --check-prefix=MANDATORY
#include <offload/offload.hpp>

#include <cstdio>
#include <cstring>

OFFLOAD_KERNEL void set(int (*x)[4], int v) {
  if (offload::thread_id_x() < 4) (*x)[offload::thread_id_x()] = v;
}

template <class F> void expect_error(const char *what, F &&f) {
  try {
    f();
    std::printf("%s: no error\n", what);
  } catch (const offload::error &e) {
    std::printf("%s: %s\n", what, e.what());
  }
}

int main(int argc, char **argv) {
  int x[4] = {1, 2, 3, 4};
  if (argc > 1 && std::strcmp(argv[1], "uncaught") == 0)
    offload::launch(set, {.threads = {0, 1, 1}}, &x, 9);
  if (argc > 1 && std::strcmp(argv[1], "mandatory") == 0) {
    // Where a GPU holds the image this launch runs there; else mandatory offload refuses.
    try {
      offload::launch(set, {.threads = {4}}, &x, 9);
      std::printf("mandatory: ran on %s\n", offload::last_launch_device().c_str());
    } catch (const offload::error &e) {
      std::printf("mandatory: %s\n", e.what());
    }
    return 0;
  }
  expect_error("empty grid", [&] { offload::launch(set, {.workgroups = {0, 1, 1}}, &x, 9); });
  expect_error("bad device", [&] { offload::launch(set, {.device = 7}, &x, 9); });
  expect_error("negative device", [&] { offload::launch(set, {.device = -9}, &x, 9); });
  std::printf("untouched: %d %d %d %d\n", x[0], x[1], x[2], x[3]);
  offload::launch(set, {.threads = {4}, .device = offload::cpu_device}, &x, 5);
  std::printf("cpu: %d %d %d %d on %s\n", x[0], x[1], x[2], x[3],
              offload::last_launch_device().c_str());
}
// CHECK: empty grid: offload-cxx: error: kernel 'set' launched at runtime_errors.cpp:39: empty grid: workgroups 0x1x1, threads 1x1x1 (every extent must be at least 1)
// CHECK: bad device: offload-cxx: error: kernel 'set' launched at runtime_errors.cpp:40: device 7 does not exist
// CHECK: negative device: offload-cxx: error: kernel 'set' launched at runtime_errors.cpp:41: invalid device number -9
// CHECK: untouched: 1 2 3 4
// CHECK: cpu: 5 5 5 5 on CPU device
// UNCAUGHT: offload-cxx: error: kernel 'set' launched at runtime_errors.cpp:28: empty grid
// MANDATORY: mandatory: {{(ran on CUDA|offload-cxx: error: kernel 'set' launched at runtime_errors.cpp:32: OMP_TARGET_OFFLOAD=mandatory but no GPU holds this program's image)}}
// UNCAUGHT-NOT: terminate
