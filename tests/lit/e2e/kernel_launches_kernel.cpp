// A kernel that launches a kernel through a function offload-cxx cannot see into at build time
// (a direct launch is refused at build time: bad-inputs nested-launch) is refused at run time on
// the CPU device, naming both launches; it used to deadlock. (Host only: a GPU build refuses it.)
// RUN: %offload-cxx --offload-arch=host -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK: offload-cxx: error: kernel 'inner' launched at kernel_launches_kernel.cpp:10: launched from inside kernel 'outer' launched at kernel_launches_kernel.cpp:15: a kernel cannot launch kernels
#include <offload/offload.hpp>

OFFLOAD_KERNEL void inner(int *x) { *x = 1; }
void helper(int *x) { offload::launch(inner, {}, x); }
OFFLOAD_KERNEL void outer(int *x) { helper(x); }

int main() {
  int x = 0;
  offload::launch(outer, {.workgroups = {8}}, &x);
  return 0;
}
