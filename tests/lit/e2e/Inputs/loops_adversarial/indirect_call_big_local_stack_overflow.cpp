// A kernel without barriers, with a large local array and an indirect call: snap11 runs it as
// fibers (any indirect call does, see indirect_call_kernel_runs_as_fibers_slow.cpp), whose
// 128 KiB stacks it overflows -- the launch now fails; snap10 ran it (thread stack).
// Build: /opt/ocxx-snap11/bin/offload-cxx -O2 --offload-arch=host bugs/indirect_call_big_local_stack_overflow.cpp -o r
// Run:   OFFLOAD_DEVICE=cpu ./r
// Expected (snap10): "sum=40000274016" and "ok"
// Actual (snap11):   offload-cxx: error: kernel 'k' ... a work-item overflowed its stack of 128 KiB ...
#include <offload/offload.hpp>
#include <cstdio>
#include <vector>
int twice(int x) { return 2 * x; }
int plus1(int x) { return x + 1; }
OFFLOAD_KERNEL void k(std::span<int> out) {
  auto i = offload::global_id_x();
  int big[50000];  // 200 KB
  int (*f)(int) = (i & 1) ? twice : plus1;
  for (int j = 0; j < 50000; ++j) big[j] = f(j) ^ int(i);
  long s = 0;
  for (int j = 0; j < 50000; j += 3) s += big[j];
  out[i] = int(s);
}
int main() {
  std::vector<int> out(64);
  offload::launch(k, {.workgroups = {2}, .threads = {32}}, std::span(out));
  long s = 0; for (int v : out) s += v;
  std::printf("sum=%ld\nok\n", s);
}
