// A kernel whose value comes from a macro (-D) and a header found with -I, however spelled.
#include <offload/offload.hpp>

#include <cstdio>

#include "extra.h"

OFFLOAD_KERNEL void value(int *out) { *out = VALUE + EXTRA; }

int main() {
  int r = 0;
  offload::launch(value, {}, &r);
  std::printf("kernel: %d\n", r);
  return r != VALUE + EXTRA;
}
