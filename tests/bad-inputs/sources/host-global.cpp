// A kernel reads a global variable of the host program: the GPU has no copy of it.
#include <offload/offload.hpp>
int table[4] = {1, 2, 3, 4};
OFFLOAD_KERNEL void reads_host(int (*o)[1]) { (*o)[0] = table[2]; }
int main() {
  int o[1];
  offload::launch(reads_host, {}, &o);
}
