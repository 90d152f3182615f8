// A correct program: the inputs of the manifest, device-image and link cases are made from it.
#include <offload/offload.hpp>
#include <cstdio>
OFFLOAD_KERNEL void add_one(int (*x)[8]) { (*x)[offload::thread_id_x()] += 1; }
int main() {
  int x[8] = {};
  offload::launch(add_one, {.threads = {8}}, &x);
  std::printf("x[7] = %d\n", x[7]);
}
