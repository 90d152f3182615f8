// Kernels with internal linkage, or instantiated with a local type, cannot be named by the
// device image: an error at the launch.
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
#include <offload/offload.hpp>

OFFLOAD_KERNEL static void hidden(int *x) { *x = 1; }

template <class T> OFFLOAD_KERNEL void generic(T *x) {}

int main() {
  int x = 0;
  offload::launch(hidden, {}, &x);
  struct local { int v; } l{};
  offload::launch(generic<local>, {}, &l);
}
// CHECK: internal_linkage.cpp:12:19: error: kernel 'hidden' has internal linkage
// CHECK: internal_linkage.cpp:14:19: error: kernel 'generic<local>' is instantiated with the local type 'local', which the device image cannot name; move the type to namespace scope
