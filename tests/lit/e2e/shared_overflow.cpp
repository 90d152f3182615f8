// A kernel that writes past the end of an offload::shared array on the CPU device (300
// work-items indexing an int[256]) wrote over its host thread's control block, which lies just
// after the thread_local arrays: the fault handler itself then faulted on every thread-local
// read and recursed for ever (a hang), or the program died by SIGSEGV outside the kernel
// (adversarial pass, 2026-12-05). Now: as work-item loops, the launch's error naming the kernel
// and its launch, the host's data intact, and the program goes on; as fibers, where the fault
// comes inside the kernel, one line saying what happened and exit status 1.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: env OFFLOAD_DEVICE=cpu %t 2>&1 | FileCheck %s --check-prefix=LOOPS
// LOOPS: caught: offload-cxx: error: kernel 'overflow' launched at shared_overflow.cpp:{{[0-9]+}} failed on CPU device {{.*}}: it wrote past the end of its shared memory, over the host thread's own memory
// LOOPS: host data intact: 1
// LOOPS: after: 42
// RUN: %offload-cxx -O2 --cpu-image=off %s -o %t.fibers
// RUN: env OFFLOAD_DEVICE=cpu not %t.fibers 2>&1 | FileCheck %s --check-prefix=FIBERS
// FIBERS: offload-cxx: error: {{.*}}wrote {{.*}}
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

OFFLOAD_KERNEL void overflow(std::span<int> out) {
  auto &sh = offload::shared<int[256]>([] {});
  const unsigned t = offload::local_linear_id();
  sh[t] = static_cast<int>(t);  // 300 work-items: 44 ints past the array
  offload::barrier();
  if (offload::global_id_x() < out.size())
    out[offload::global_id_x()] = sh[t];
}

OFFLOAD_KERNEL void fine(std::span<int> out) { out[offload::global_id_x()] = 42; }

int main() {
  std::vector<int> out(300 * 4, -1);
  try {
    offload::launch(overflow, {.workgroups = {4}, .threads = {300}}, std::span(out));
    std::printf("no error\n");
  } catch (const offload::error &e) {
    std::printf("caught: %s\n", e.what());
  }
  bool intact = true;
  for (int v : out)
    intact &= v == -1;
  std::printf("host data intact: %d\n", intact);
  offload::launch(fine, {.workgroups = {4}, .threads = {32}}, std::span(out));
  std::printf("after: %d\n", out[5]);
}
