#include <offload/offload.hpp>
OFFLOAD_KERNEL void inner(int *x) { *x = 1; }
OFFLOAD_KERNEL void outer(int *x) {
  offload::launch(inner, {}, x); // case:nested-launch
}
int main() {
  int x = 0;
  offload::launch(outer, {}, &x);
}
