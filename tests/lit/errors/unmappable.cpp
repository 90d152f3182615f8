// A parameter that cannot be mapped is an error at the launch, naming the kernel, the parameter
// and what to pass instead.
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
#include <offload/offload.hpp>

struct node {
  int value;
  node *next;
};

OFFLOAD_KERNEL void takes_void(void *p) {}
OFFLOAD_KERNEL void takes_node(node n) {}

int main() {
  int x = 0;
  offload::launch(takes_void, {}, static_cast<void *>(&x));
  offload::launch(takes_node, {}, node{1, nullptr});
}
// CHECK: unmappable.cpp:16:19: error: kernel 'takes_void': parameter 'p' of type 'void *' cannot be mapped to the device: 'void' has no size to copy; pass arithmetic or enum values
// CHECK: unmappable.cpp:11:{{[0-9]+}}: note: parameter declared here
// CHECK: unmappable.cpp:17:19: error: kernel 'takes_node': parameter 'n' of type 'node' cannot be mapped to the device: 'node' holds the raw pointer member 'next', which would be a host address on the device
