// BUG (snap12): the range-check idiom `if (t - 5u < len)` (unsigned, constant offset;
// t = thread_id_x()) after a barrier runs the region for no work-item: with len = 7 the
// work-items t = 5..11 pass the test, but snap12 runs none of them. (`int` operands work, and so
// does `t - lo` with lo a kernel argument; the unsigned form with a constant is wrong.
// Same family as narrow_unsigned_wrap.cpp: `t + h < 10u`.) Also wrong: `t - 5u <= h`, `t - 5u > h`,
// `h > t - 5u`, `t + 4294967291u < h`, and the stencil-halo idiom with the index made before the
// barrier: `unsigned tx = thread_id_x() - 5u; ... barrier(); if (tx < w) ...`. Right: the `int` form,
// `(t - 5u) / 2 < h`, `t - 5u < h && t < 20u`, 64-bit `global_id_x() - 5 < h`. Also wrong with
// `local_linear_id() - 5u < h` in 2-D/3-D workgroups, and `barrier(); if (t - 5u < h) atomic_add(c, 1);`
// counts 0 instead of 7 with 64 work-items; `if (t - 5u == h)` skips work-item h + 5. Right in kernels without a barrier (or after only a shuffle).
//
//   /opt/ocxx-snap12/bin/offload-cxx -O2 --offload-arch=host narrow_unsigned_range_check.cpp -o r12 && OFFLOAD_DEVICE=cpu ./r12
//   expected (snap10, and the host loop): 0 0 0 0 0 1 1 1 1 1 1 1 0 0 0 0   ok
//   actual   (snap12):                    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0   WRONG
#include <offload/offload.hpp>
#include <cstdio>
#include <vector>
#include <span>

OFFLOAD_KERNEL void window(std::span<int> out, unsigned len) {
  auto &sh = offload::shared<int[16]>([] {});
  unsigned t = offload::thread_id_x();
  sh[t] = 0;
  offload::barrier();
  if (t - 5u < len) sh[t] = 1;          // 5 <= t < 5 + len
  offload::barrier();
  out[t] = sh[t];
}

int main() {
  const unsigned lo = 5, len = 7;
  std::vector<int> out(16, -1);
  offload::launch(window, {.threads = {16}}, std::span(out), len);
  bool ok = true;
  for (unsigned t = 0; t < 16; ++t) { std::printf("%d ", out[t]); ok &= out[t] == (t - lo < len ? 1 : 0); }
  std::printf("  %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
