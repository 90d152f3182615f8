// Data regions mean the same on the CPU device as on a GPU (issue 14, item 3; the cases are an
// adversarial tester's): the region's map decides what is copied in and back, and launches inside
// it use the region's copy and copy nothing; host writes after the region opened do not reach
// kernels; update_from copies a present object back.
// RUN: %offload-cxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK-NOT: DIFFERS
// CHECK: host write after the region opened: kernel saw 2
// CHECK-NOT: DIFFERS
#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>
OFFLOAD_KERNEL void set9(std::span<int> a) { auto i = offload::global_id_x(); if (i < a.size()) a[i] = 9; }
OFFLOAD_KERNEL void add1(std::span<int> a) { auto i = offload::global_id_x(); if (i < a.size()) a[i] += 1; }
template <class R, class L> void t(const char* name, R rw, L lw, int gpu) {
  std::vector<int> v(8, 1); std::span<int> sv(v);
  { offload::data_region r({}, rw(sv));
    offload::launch(set9, {.threads = {8}}, lw(sv)); }
  std::printf("%-28s host=%d  GPU-model=%d %s\n", name, v[0], gpu, v[0] == gpu ? "" : "<-- DIFFERS");
}
int main() {
  auto D = [](auto& s) { return s; };
  auto TO = [](auto& s) { return offload::to(s); };
  auto FR = [](auto& s) { return offload::from(s); };
  auto AL = [](auto& s) { return offload::alloc(s); };
  auto TF = [](auto& s) { return offload::tofrom(s); };
  // GPU model: region's map decides; launch inside copies nothing.
  t("region tofrom, launch to", D, TO, 9);
  t("region tofrom, launch alloc", D, AL, 9);
  t("region tofrom, launch from", D, FR, 9);
  t("region to, launch tofrom", TO, D, 1);
  t("region to, launch from", TO, FR, 1);
  t("region alloc, launch tofrom", AL, D, 1);
  t("region from, launch tofrom", FR, D, 9);
  t("region from, launch to", FR, TO, 9);
  t("region tofrom(explicit), launch to", TF, TO, 9);
  // sequence: region tofrom, add1 with to, then add1 with tofrom -> device copy 1+1+1=3
  std::vector<int> v(8, 1);
  { offload::data_region r({}, std::span(v));
    offload::launch(add1, {.threads = {8}}, offload::to(std::span(v)));
    offload::launch(add1, {.threads = {8}}, std::span(v)); }
  std::printf("region; add1(to); add1(tofrom): host=%d %s\n", v[0], v[0] == 3 ? "" : "<-- DIFFERS");
  // region with a sub-span then launch on whole
  std::vector<int> w(8, 1);
  { offload::data_region r({}, offload::to(std::span(w)));
    offload::launch(add1, {.threads = {8}}, offload::from(std::span(w)));
    r.update_from(std::span(w)); }
  std::printf("region to; add1(from); update_from: host=%d %s\n", w[0], w[0] == 2 ? "" : "<-- DIFFERS");
  // A host write after the region opened does not reach the kernel (it works on the region's
  // copy), and the kernel's write comes back at the region's end.
  std::vector<int> h(8, 1), seen(8, 0);
  {
    offload::data_region r({}, std::span(h));
    h[0] = 100;
    offload::launch(add1, {.threads = {8}}, std::span(h));
    r.update_from(std::span(h));
    seen = h;
  }
  std::printf("host write after the region opened: kernel saw %d %s\n", seen[0],
              seen[0] == 2 && h[0] == 2 ? "" : "<-- DIFFERS");
}
