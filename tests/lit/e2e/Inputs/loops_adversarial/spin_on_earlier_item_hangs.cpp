// Combined atomics: a work-item spin-waits on an atomic done by an EARLIER work-item of its
// workgroup (valid on a GPU; worked in snap10, where work-items ran in order).
// Build: /opt/ocxx-snap11/bin/offload-cxx -O2 --offload-arch=host bugs/spin_on_earlier_item_hangs.cpp -o r
// Run:   OFFLOAD_DEVICE=cpu timeout 10 ./r
// Expected (snap10): "flag=1 out=1"   Actual (snap11): hangs (timeout, exit 124)
// Same at -O0 and -O3 -march=native; --cpu-image=off runs it. Cause: combineUniformAtomics
// (compiler/CpuRegionLoops.cpp) checks only the SAME work-item's later accesses
// (touchesMemoryAfter); other work-items of the loop (or other workgroups) may be waiting for it.
#include <offload/offload.hpp>
#include <cstdio>
OFFLOAD_KERNEL void k(int *flag, int *out) {
  unsigned t = offload::thread_id_x();
  if (t == 0) offload::atomic_add(flag, 1);            // last access of item 0: combined
  else if (t == 1) {                                     // item 1 waits for item 0
    while (offload::atomic_add(flag, 0) == 0) {}
    *out = 1;
  }
}
int main() {
  int flag = 0, out = 0;
  offload::launch(k, {.threads = {2}}, &flag, &out);
  std::printf("flag=%d out=%d\n", flag, out);
}
