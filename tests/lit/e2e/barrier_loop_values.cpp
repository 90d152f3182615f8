// Values that a loop with a barrier carries from one iteration to the next, exchanged as a
// parallel copy: two locals swapped (`x, y = y, x`), three rotated, and two shared-memory
// buffers swapped by pointer (double buffering). In work-item loops they are kept per
// work-item across the barrier; every value must be read before any is overwritten.
// RUN: %offload-cxx -O2 %s -o %t && env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: %offload-cxx -O0 %s -o %t0 && env OFFLOAD_DEVICE=cpu %t0 | FileCheck %s
// CHECK: swap: ok
// CHECK: rotate: ok
// CHECK: double_buffer: ok
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <utility>
#include <vector>

OFFLOAD_KERNEL void swap(std::span<int> out, int iterations) {
  int x = 1, y = 2;
  for (int i = 0; i < iterations; ++i) {
    offload::barrier();
    const int t = x;
    x = y;
    y = t;
  }
  out[offload::global_id_x()] = x * 10 + y;
}

OFFLOAD_KERNEL void rotate(std::span<int> out, int iterations) {
  int a = 1, b = 2, c = 3;
  for (int i = 0; i < iterations; ++i) {
    offload::barrier();
    const int t = a;
    a = b;
    b = c;
    c = t;
  }
  out[offload::global_id_x()] = a * 100 + b * 10 + c;
}

// Each step: next[t] = cur[t - 1] + 1 (work-item 0 keeps its own), then swap the buffers.
constexpr unsigned wg = 32;
OFFLOAD_KERNEL void double_buffer(std::span<int> out, int steps) {
  auto &one = offload::shared<int[wg]>([] {});
  auto &two = offload::shared<int[wg]>([] {});
  int *cur = one, *next = two;
  const unsigned t = offload::thread_id_x();
  cur[t] = int(t);
  for (int s = 0; s < steps; ++s) {
    offload::barrier();
    next[t] = t == 0 ? cur[0] : cur[t - 1] + 1;
    std::swap(cur, next);
  }
  offload::barrier();
  out[offload::global_id_x()] = cur[t];
}

int main() {
  bool ok[3] = {true, true, true};
  for (int iterations = 0; iterations < 5; ++iterations) {
    std::vector<int> out(2 * wg, -1);
    offload::launch(swap, {.workgroups = {2}, .threads = {wg}}, std::span(out), iterations);
    int x = 1, y = 2;
    for (int i = 0; i < iterations; ++i) std::swap(x, y);
    for (int v : out) ok[0] &= v == x * 10 + y;
    offload::launch(rotate, {.workgroups = {2}, .threads = {wg}}, std::span(out), iterations);
    int a = 1, b = 2, c = 3;
    for (int i = 0; i < iterations; ++i) { const int t = a; a = b; b = c; c = t; }
    for (int v : out) ok[1] &= v == a * 100 + b * 10 + c;
    offload::launch(double_buffer, {.workgroups = {2}, .threads = {wg}}, std::span(out), iterations);
    std::vector<int> cur(wg), next(wg);
    for (unsigned t = 0; t < wg; ++t) cur[t] = int(t);
    for (int s = 0; s < iterations; ++s) {
      for (unsigned t = 0; t < wg; ++t) next[t] = t == 0 ? cur[0] : cur[t - 1] + 1;
      std::swap(cur, next);
    }
    for (unsigned i = 0; i < 2 * wg; ++i) ok[2] &= out[i] == cur[i % wg];
  }
  std::printf("swap: %s\nrotate: %s\ndouble_buffer: %s\n", ok[0] ? "ok" : "WRONG",
              ok[1] ? "ok" : "WRONG", ok[2] ? "ok" : "WRONG");
  return !(ok[0] && ok[1] && ok[2]);
}
