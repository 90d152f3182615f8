#include <offload/offload.hpp>
OFFLOAD_KERNEL void read_clock(unsigned *p) {
  unsigned r = 0;
#if defined(__NVPTX__)
  asm volatile("mov.u32 %0, %%no_such_register;" : "=r"(r)); // case:ptx-asm-error
#endif
  *p = r;
}
int main() {
  unsigned d = 1;
  offload::launch(read_clock, {}, &d);
}
