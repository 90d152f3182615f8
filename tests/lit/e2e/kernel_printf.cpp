// printf / std::printf in kernels (issue 15, item 1): NVIDIA through the driver's vprintf (as
// CUDA's printf), the CPU device prints directly. (AMD: a build error, errors/printf_amd.test.)
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK-DAG: kernel_printf: work-item 0 of 4 says 42 and 1.50
// CHECK-DAG: kernel_printf: work-item 3 of 4 says 42 and 1.50
// CHECK-DAG: kernel_printf: plain printf 7
// CHECK: kernel_printf: done
#include <offload/offload.hpp>

#include <cstdio>
#include <stdio.h>

OFFLOAD_KERNEL void hello(int v, double d) {
  std::printf("kernel_printf: work-item %u of %u says %d and %.2f\n",
              unsigned(offload::global_id_x()), unsigned(offload::block_dim_x()), v, d);
}

OFFLOAD_KERNEL void plain(int v) { printf("kernel_printf: plain printf %d\n", v); }

int main() {
  offload::launch(hello, {.threads = {4}}, 42, 1.5);
  offload::launch(plain, {}, 7);
  std::fflush(stdout);
  std::printf("kernel_printf: done\n");
}
