#include <offload/offload.hpp>
OFFLOAD_KERNEL void inner(int *x) { *x = 1; }
void helper(int *x) { offload::launch(inner, {}, x); }
OFFLOAD_KERNEL void outer(int *x) { helper(x); }
int main() {
  int x = 0;
  offload::launch(outer, {}, &x);
}
