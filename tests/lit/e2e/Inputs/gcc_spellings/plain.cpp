// No kernel: g++'s file, compiled as written.
#include <cstdio>

#include "extra.h"

int main() {
  std::printf("plain: %d\n", VALUE + EXTRA);
  return 0;
}
