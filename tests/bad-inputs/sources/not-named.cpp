#include <offload/offload.hpp>
OFFLOAD_KERNEL void k(int *x) { *x = 1; }
int main() {
  int x = 0;
  void (*f)(int *) = k;
  offload::launch(f, {}, &x); // case:not-named
}
