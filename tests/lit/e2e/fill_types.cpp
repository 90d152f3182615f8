// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s --check-prefix=CPU
// RUN: env OFFLOAD_INFO=-1 OFFLOAD_DEVICE=cpu %t 2>&1 | FileCheck %s --check-prefix=INFO
// CHECK: fill_types: all checks passed on
// CPU: fill_types: all checks passed on CPU device
// INFO: offload-cxx info: launching kernel fill<double> at fill_types.cpp:32 on CPU device ({{[0-9]+}} threads) with 256x1x1 workgroups of 1x1x1 threads
// INFO: offload-cxx info: launching kernel fill<float> at fill_types.cpp:33 on CPU device ({{[0-9]+}} threads) with 2x1x1 workgroups of 128x1x1 threads
// One generic kernel used with two types: two instantiations, two device entries.
#include <offload/offload.hpp>

#include <cstdio>

template <class T>
OFFLOAD_KERNEL void fill(T (*x)[256], T value) {
  auto i = offload::thread_id_x() + offload::block_id_x() * offload::block_dim_x();
  if (i < 256) (*x)[i] = value;
}

template <class T> int check(const T (&x)[256], T expected, const char *what) {
  for (int i = 0; i < 256; ++i)
    if (x[i] != expected) {
      std::printf("FAIL %s: x[%d] = %g, expected %g\n", what, i, double(x[i]), double(expected));
      return 1;
    }
  return 0;
}

int main() {
  double d[256] = {};
  float f[256] = {};
  offload::launch(fill<double>, {.workgroups = {256, 1, 1}}, &d, 2.5);
  offload::launch(fill<float>, {.workgroups = {2, 1, 1}, .threads = {128, 1, 1}}, &f, -1.25f);
  int failures = check(d, 2.5, "fill<double>") + check(f, -1.25f, "fill<float>");
  if (failures) return 1;
  std::printf("fill_types: all checks passed on %s\n", offload::last_launch_device().c_str());
}
