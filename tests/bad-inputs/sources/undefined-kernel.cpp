#include <offload/offload.hpp>
OFFLOAD_KERNEL void never_defined(int *x); // case:undefined-kernel
int main() {
  int x = 0;
  offload::launch(never_defined, {}, &x);
}
