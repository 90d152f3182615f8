#include <offload/offload.hpp>
OFFLOAD_KERNEL void two(int *x, int v) { *x = v; }
int main() {
  int x = 0;
  offload::launch(two, {}, &x); // case:wrong-argument-count
}
