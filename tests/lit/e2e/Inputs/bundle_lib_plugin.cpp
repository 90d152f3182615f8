#include <offload/offload.hpp>
#include <cstdio>
extern "C" int foo_val();
OFFLOAD_KERNEL void k1(int *x) { *x += 1; }
int main() {
  int x = 0;
  offload::launch(k1, {}, &x);
  std::printf("kernel %d library's plugin %d\n", x, foo_val());
}
