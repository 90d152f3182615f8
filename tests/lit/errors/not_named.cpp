// The kernel must be named at the launch, so that the tool knows which instantiation to build.
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
#include <offload/offload.hpp>

OFFLOAD_KERNEL void k(int *x) { *x = 1; }

int main() {
  void (*f)(int *) = k;
  int x = 0;
  offload::launch(f, {}, &x);
}
// CHECK: not_named.cpp:10:19: error: offload::launch needs the kernel named directly
