// Slowdown: a kernel WITHOUT any barrier (in a program with no barrier at all) that makes an
// indirect call (virtual call or function pointer) runs as fibers in snap11 ("-v": "fibers,
// because it makes an indirect call, and 'virt(...)', which reaches a barrier, has its address
// taken" -- the kernel itself is said to reach a barrier, which it does not): ~40x slower.
// Build: /opt/ocxx-snap11/bin/offload-cxx -v -O2 --offload-arch=host bugs/indirect_call_kernel_runs_as_fibers_slow.cpp -o r
// Run:   OFFLOAD_DEVICE=cpu ./r
// Expected (snap10, 2-core machine): "virt 2.4 ms  fptr 2.3 ms" (work-item loop)
// Actual   (snap11):                "virt 120 ms  fptr 111 ms" (fibers), results equal
// Every kernel with an indirect call is affected: its own address is taken (to be launched),
// so the indirect call "may reach" the kernel itself, which is then said to reach a barrier.
// The same kernels' stack-overflow error then says "a kernel with barriers runs each work-item
// on a stack of its own", though the kernel has none.
#include <offload/offload.hpp>
#include <chrono>
#include <cstdio>
#include <vector>
struct Op { virtual double f(double) const = 0; };
struct Dbl : Op { double f(double x) const override { return 2 * x; } };
struct Inc : Op { double f(double x) const override { return x + 1; } };
OFFLOAD_KERNEL void virt(offload::device_ptr<double> a, std::uint64_t n) {
  auto i = offload::global_id_x(); if (i >= n) return;
  Dbl d; Inc c; const Op *o = (i & 1) ? static_cast<const Op *>(&d) : &c;
  a[i] = o->f(a[i]);
}
double twice(double x) { return 2 * x; }
double plus1(double x) { return x + 1; }
OFFLOAD_KERNEL void fptr(offload::device_ptr<double> a, std::uint64_t n) {
  auto i = offload::global_id_x(); if (i >= n) return;
  double (*f)(double) = (i & 1) ? twice : plus1;
  a[i] = f(a[i]);
}
template <class F> double best(F f) { double bt = 1e9; for (int r = 0; r < 5; ++r) { auto t0 = std::chrono::steady_clock::now(); f(); offload::synchronize(); bt = std::min(bt, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()); } return bt; }
int main() {
  const std::uint64_t n = 1 << 20;
  offload::buffer<double> a(n); std::vector<double> h(n, 1.0); a.copy_from(h);
  offload::launch_config c{.workgroups = {unsigned(n / 256)}, .threads = {256}};
  double tv = best([&] { offload::launch(virt, c, a.data(), n); });
  double tf = best([&] { offload::launch(fptr, c, a.data(), n); });
  std::printf("virt %.1f ms  fptr %.1f ms\n", tv, tf);
}
