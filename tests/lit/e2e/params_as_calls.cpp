// Issue 13, item 1: parameters accepted as a call accepts them, on every device (the
// lit-e2e-sm_90 run builds this for sm_90,host too).
// RUN: %offload-cxx -O2 -Wall -Wextra %s -o %t 2>&1 | count 0
// RUN: %t | FileCheck %s
// CHECK: params_as_calls: all checks passed
#include <offload/offload.hpp>
#include <array>
#include <string>
#include <cstdio>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

OFFLOAD_KERNEL void inc_ref(int &x) { x += 1; }
OFFLOAD_KERNEL void fill_arr(int (&a)[8]) { a[offload::thread_id_x()] = 7; }
OFFLOAD_KERNEL void fill_span(std::span<int> s, int v) {
  auto i = offload::global_id_x();
  if (i < s.size()) s[i] = v;
}
OFFLOAD_KERNEL void vol(volatile int *p) { *p = 5; }
OFFLOAD_KERNEL void nx(int *p) noexcept { *p = 9; }
extern "C" OFFLOAD_KERNEL void c_fill(int *p) { *p = 11; }
OFFLOAD_KERNEL void by_pair(std::pair<int, int> pr, std::tuple<int, double> t, std::optional<int> o,
                            int (&out)[3]) {
  out[0] = pr.first + pr.second;
  out[1] = std::get<0>(t) + int(std::get<1>(t));
  out[2] = o ? *o : -1;
}

OFFLOAD_KERNEL void read_only(offload::device_ptr<const int> in, int *out) { *out = in[1]; }

int main() {
  int failures = 0;
  int x = 1;
  offload::launch(inc_ref, {}, x);
  failures += x != 2;
  int a[8] = {};
  offload::launch(fill_arr, {.threads = {8}}, a);
  failures += a[7] != 7;
  std::vector<int> v(1000, 0);
  std::size_t n = v.size();
  offload::launch(fill_span, {.workgroups = {(n + 255) / 256}, .threads = {256}}, v, 3);
  failures += v[999] != 3;
  std::array<int, 4> ar{};
  offload::launch(fill_span, {.threads = {4}}, ar, 4);
  failures += ar[3] != 4;
  int carr[5] = {};
  offload::launch(fill_span, {.threads = {5}}, carr, 6);
  failures += carr[4] != 6;
  int vv = 0;
  offload::launch(vol, {}, &vv);
  failures += vv != 5;
  int y = 0;
  offload::launch(nx, {}, &y);
  failures += y != 9;
  int z = 0;
  offload::launch(c_fill, {}, &z);
  failures += z != 11;
  int out[3] = {};
  offload::launch(by_pair, {}, std::pair{2, 3}, std::tuple<int, double>{4, 5.0}, std::optional<int>{6}, out);
  failures += out[0] != 5 || out[1] != 9 || out[2] != 6;
  offload::buffer<int> buf(2);
  const int two[2] = {5, 8};
  buf.copy_from(std::span<const int>(two));
  int got = 0;
  offload::queue q;
  q.launch(read_only, {}, buf.data(), &got);  // device_ptr<int> converts to device_ptr<const int>
  const std::string queued_on = offload::last_launch_device();  // set when enqueued
  q.wait();
  failures += got != 8 || queued_on.empty();
  std::printf("params_as_calls: %s (%d failures) on %s\n", failures ? "FAILED" : "all checks passed", failures,
              offload::last_launch_device().c_str());
  return failures != 0;
}
