// Launching a function that is not marked OFFLOAD_KERNEL is an error at the launch.
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
#include <offload/offload.hpp>

void plain(int *x) { *x = 1; }

int main() {
  int x = 0;
  offload::launch(plain, {}, &x);
}
// CHECK: unmarked.cpp:9:19: error: 'plain' is launched as a kernel but not marked: declare it with OFFLOAD_KERNEL
// CHECK: unmarked.cpp:5:6: note: 'plain' declared here
