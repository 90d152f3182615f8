// A program's results do not depend on the device it ran on (issue 14, item 3): a kernel's writes
// through offload::to or offload::alloc never reach the host object, on the CPU device as on a
// GPU (the CPU device used to hand kernels the host objects themselves); tofrom and from copy
// back; two arguments naming one object name one copy, as libomptarget maps an address once; a
// launch from a global's destructor, at exit, still runs.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: same_results: all checks passed
// CHECK: launched at exit: 42
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

OFFLOAD_KERNEL void overwrite(std::span<int> s) {
  if (auto i = offload::global_id_x(); i < s.size()) s[i] = -1;
}

OFFLOAD_KERNEL void copy_in_out(std::span<const int> in, std::span<int> scratch,
                                std::span<int> out) {
  if (auto i = offload::global_id_x(); i < out.size()) {
    scratch[i] = in[i] * 2;
    out[i] = scratch[i] + 1;
  }
}

OFFLOAD_KERNEL void add_both(int *a, int *b) {
  *a += 1;
  *b += 10;
}

OFFLOAD_KERNEL void halves(std::span<int> low, std::span<int> whole) {
  if (offload::global_id_x() == 0) {
    low[0] = 5;               // the same element as whole[0]
    whole[whole.size() - 1] = low[0] + 1;
  }
}

OFFLOAD_KERNEL void set_value(int *p, int v) { *p = v; }

int failures = 0;
void expect(bool ok, const char *what) {
  if (!ok) {
    ++failures;
    std::printf("FAILED: %s (on %s)\n", what, offload::last_launch_device().c_str());
  }
}

struct at_exit_launch {
  ~at_exit_launch() {
    int v = 0;
    offload::launch(set_value, {}, &v, 42);
    std::printf("launched at exit: %d\n", v);
  }
} launcher;

int main() {
  std::vector<int> keep(64, 42);
  offload::launch(overwrite, {.threads = {64}}, offload::to(std::span(keep)));
  expect(keep[0] == 42 && keep[63] == 42, "a write through offload::to reached the host");
  offload::launch(overwrite, {.threads = {64}}, offload::alloc(std::span(keep)));
  expect(keep[0] == 42 && keep[63] == 42, "a write through offload::alloc reached the host");
  offload::launch(overwrite, {.threads = {64}}, offload::tofrom(std::span(keep)));
  expect(keep[0] == -1 && keep[63] == -1, "tofrom did not copy back");

  std::vector<int> in(32, 3), scratch(32, 7), out(32, 0);
  offload::launch(copy_in_out, {.threads = {32}}, std::span<const int>(in),
                  offload::alloc(std::span(scratch)), offload::from(std::span(out)));
  expect(out[0] == 7 && out[31] == 7, "from did not copy back");
  expect(scratch[0] == 7 && scratch[31] == 7, "alloc scratch reached the host");

  int x = 0;
  offload::launch(add_both, {}, &x, &x);
  expect(x == 11, "two pointers to one object are not one object on the device");

  std::vector<int> v(8, 0);
  offload::launch(halves, {}, std::span(v).first(4), std::span(v));
  expect(v[0] == 5 && v[7] == 6, "overlapping spans are not one object on the device");

  std::printf("same_results: %s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
