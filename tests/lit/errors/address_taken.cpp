// A kernel launched through a function pointer is checked (and built) where a file takes its
// address, since the launch cannot say which kernel it is.
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
#include <offload/offload.hpp>

OFFLOAD_KERNEL void k(void *x) {}

int main() {
  void (*f)(void *) = k;
  int x = 0;
  offload::launch(f, {}, &x);
}
// CHECK: address_taken.cpp:9:23: error: kernel 'k'
