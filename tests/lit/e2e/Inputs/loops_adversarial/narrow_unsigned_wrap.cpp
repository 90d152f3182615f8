// BUG (snap12): a test `if (t + h < 10u)` after a barrier (t = thread_id_x(), h an unsigned kernel
// argument, so t + h wraps modulo 2^32) runs the region for the wrong work-items: with
// h = 0xFFFFFFFE the work-items t = 2..11 pass the test (t + h == t - 2 < 10), but snap12 runs none.
//
//   /opt/ocxx-snap12/bin/offload-cxx -O2 --offload-arch=host narrow_unsigned_wrap.cpp -o n12 && OFFLOAD_DEVICE=cpu ./n12
//   expected (snap10, and the host loop): 0 0 1 1 1 1 1 1 1 1 1 1 0 0 0 0   ok
//   actual   (snap12):                    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0   WRONG
// (also with -O0, -O3 -march=native, OFFLOAD_CPU_THREADS=1; also `h + t < 10u`, and `t + h >= 10u`
// runs the complement wrongly; h = 0xFFFFFFF8 or 0xFFFFFFFF alike; when t = thread_id_x() + h is
// computed before the barrier and `if (t < 10u)` tested after it, too)
#include <offload/offload.hpp>
#include <cstdio>
#include <vector>
#include <span>

OFFLOAD_KERNEL void wrap(std::span<int> out, unsigned h) {
  auto &sh = offload::shared<int[16]>([] {});
  unsigned t = offload::thread_id_x();
  sh[t] = 0;
  offload::barrier();
  if (t + h < 10u) sh[t] = 1;
  offload::barrier();
  out[t] = sh[t];
}

int main() {
  const unsigned h = 0xFFFFFFFEu;
  std::vector<int> out(16, -1);
  offload::launch(wrap, {.threads = {16}}, std::span(out), h);
  bool ok = true;
  for (unsigned t = 0; t < 16; ++t) { std::printf("%d ", out[t]); ok &= out[t] == (t + h < 10u ? 1 : 0); }
  std::printf("  %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
