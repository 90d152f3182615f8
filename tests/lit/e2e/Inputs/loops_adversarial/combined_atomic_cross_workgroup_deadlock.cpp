// Combined atomics delay a work-item's atomic to the end of its workgroup's region; a handshake
// between two co-resident workgroups then deadlocks (work-item 1 of workgroup 0 waits for
// workgroup 1, which waits for work-item 0's atomic, now only applied after work-item 1).
// No work-item waits on another work-item of its own workgroup. Valid on a GPU (both
// workgroups resident); worked with snap10.
// Build: /opt/ocxx-snap11/bin/offload-cxx -O2 --offload-arch=host bugs/combined_atomic_cross_workgroup_deadlock.cpp -o r
// Run:   OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=2 timeout 10 ./r
// Expected (snap10): "ready=1 ack=1 got=1"   Actual (snap11): hangs (timeout, exit 124)
// Same at -O0 and -O3 -march=native; --cpu-image=off runs it. Cause: combineUniformAtomics
// (compiler/CpuRegionLoops.cpp) checks only the SAME work-item's later accesses
// (touchesMemoryAfter); other work-items of the loop (or other workgroups) may be waiting for it.
#include <offload/offload.hpp>
#include <cstdio>
OFFLOAD_KERNEL void k(int (*f)[3]) {
  unsigned t = offload::thread_id_x(), b = offload::block_id_x();
  int *ready = &(*f)[0], *ack = &(*f)[1], *got = &(*f)[2];
  if (b == 0) {
    if (t == 0) offload::atomic_add(ready, 1, std::memory_order_release);  // last access of item 0
    else { while (offload::atomic_add(ack, 0, std::memory_order_acquire) == 0) {} *got = 1; }
  } else if (t == 0) {
    while (offload::atomic_add(ready, 0, std::memory_order_acquire) == 0) {}
    offload::atomic_add(ack, 1, std::memory_order_release);
  }
}
int main() {
  int f[3] = {};
  offload::launch(k, {.workgroups = {2}, .threads = {2}}, &f);
  std::printf("ready=%d ack=%d got=%d\n", f[0], f[1], f[2]);
}
