#include <offload/offload.hpp>
#include <cstdio>
OFFLOAD_KERNEL void two(int *p) { *p = 2; }
int run_one();
int main() {
  int v = 0;
  offload::launch(two, {}, &v);
  std::printf("file_names: %d %d\n", run_one(), v);
}
