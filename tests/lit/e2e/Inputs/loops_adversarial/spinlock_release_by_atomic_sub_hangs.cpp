// A spin lock whose release is an atomic_sub with unused result: the release
// is the work-item's last memory access, so snap11 combines it and applies it once after the
// whole workgroup -- work-item 1 then spins forever on a lock that work-item 0 "released".
// Valid on GPUs with independent thread scheduling (Volta+); worked with snap10.
// Build: /opt/ocxx-snap11/bin/offload-cxx -O2 --offload-arch=host bugs/spinlock_release_by_atomic_sub_hangs.cpp -o r
// Run:   OFFLOAD_DEVICE=cpu timeout 10 ./r
// Expected (snap10): "total=64 lock=0"   Actual (snap11): hangs (timeout, exit 124)
// Same at -O0 and -O3 -march=native; --cpu-image=off runs it. Cause: combineUniformAtomics
// (compiler/CpuRegionLoops.cpp) checks only the SAME work-item's later accesses
// (touchesMemoryAfter); other work-items of the loop (or other workgroups) may be waiting for it.
#include <offload/offload.hpp>
#include <cstdio>
OFFLOAD_KERNEL void k(int *lock, int *total) {
  while (offload::atomic_compare_exchange(lock, 0, 1, std::memory_order_acquire) != 0) {}
  *total += 1;                                             // critical section
  offload::atomic_sub(lock, 1, std::memory_order_release); // unlock: last access, combined
}
int main() {
  int lock = 0, total = 0;
  offload::launch(k, {.workgroups = {2}, .threads = {32}}, &lock, &total);
  std::printf("total=%d lock=%d\n", total, lock);
}
