// Issue 29: values a loop around a barrier carries as a recurrence of several terms, where only
// some of them are kept per work-item across the barrier (the others stay phis of the loop's
// header: `t = a + b; a = b; b = t;` read the new b into a, and work-item 0's tenth Fibonacci
// number came out 256); the same in a grid-stride loop (its virtual barrier) of a kernel with a
// barrier elsewhere; and locals aligned past a cache line (`alignas(128)` landed 64 mod 128).
// RUN: %offload-cxx -O2 %s -o %t && env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: %offload-cxx -O0 %s -o %t0 && env OFFLOAD_DEVICE=cpu %t0 | FileCheck %s
// RUN: %offload-cxx -O3 %s -o %t3 && env OFFLOAD_DEVICE=cpu %t3 | FileCheck %s
// CHECK: fibonacci: ok
// CHECK: swap_plus: ok
// CHECK: three_terms: ok
// CHECK: grid_stride: ok
// CHECK: aligned: ok
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

OFFLOAD_KERNEL void fibonacci(std::span<unsigned> out, unsigned n) {
  unsigned a = 0, b = 1;
  for (unsigned k = 0; k < n; ++k) {
    const unsigned t = a + b;
    a = b;
    b = t;
    offload::barrier();
  }
  out[offload::global_id_x()] = a;
}

OFFLOAD_KERNEL void swap_plus(std::span<unsigned> out, unsigned n) {
  unsigned a = offload::thread_id_x(), b = 1;
  for (unsigned k = 0; k < n; ++k) {
    const unsigned tmp = a;
    a = b;
    b = tmp + k;
    offload::barrier();
  }
  out[offload::global_id_x()] = a * 1000 + b;
}

OFFLOAD_KERNEL void three_terms(std::span<unsigned long> out, unsigned n) {
  unsigned long a = 1, b = 2, c = offload::thread_id_x();
  for (unsigned k = 0; k < n; ++k) {
    offload::barrier();
    const unsigned long t = a + 2 * b + c;
    a = b;
    b = c;
    c = t;
    offload::barrier();
  }
  out[offload::global_id_x()] = a ^ (b << 20) ^ (c << 40);
}

OFFLOAD_KERNEL void grid_stride(std::span<unsigned> out, unsigned n) {
  unsigned a = 0, b = 1;
  for (unsigned i = offload::thread_id_x(); i < n; i += offload::block_dim_x()) {
    const unsigned t = a + b;
    a = b;
    b = t;
  }
  offload::barrier();
  out[offload::global_id_x()] = a;
}

struct alignas(64) line { unsigned v[3]; };
OFFLOAD_KERNEL void aligned(std::span<unsigned> out, unsigned n) {
  volatile unsigned keep[3] = {n, n + 1, n + 2};
  alignas(128) volatile unsigned char small[16];
  alignas(256) volatile unsigned char big[8];
  line l{};
  l.v[0] = n;
  small[0] = static_cast<unsigned char>(offload::thread_id_x());
  offload::barrier();
  // Through volatile: LLVM folds `address % 128` of a local it knows to be aligned.
  volatile std::uintptr_t at[3] = {reinterpret_cast<std::uintptr_t>(&small[0]),
                                   reinterpret_cast<std::uintptr_t>(&big[0]),
                                   reinterpret_cast<std::uintptr_t>(&l)};
  const unsigned misaligned = (at[0] % 128 != 0) | (at[1] % 256 != 0) << 1 | (at[2] % 64 != 0) << 2;
  out[offload::global_id_x()] = misaligned + small[0] * 8 + (keep[1] - n - 1) + l.v[0] - n;
}

int main() {
  bool ok[5] = {true, true, true, true, true};
  constexpr unsigned wg = 5, groups = 3, items = wg * groups;
  for (unsigned n = 0; n < 12; ++n) {
    std::vector<unsigned> out(items);
    offload::launch(fibonacci, {.workgroups = {groups}, .threads = {wg}}, std::span(out), n);
    unsigned a = 0, b = 1;
    for (unsigned k = 0; k < n; ++k) { const unsigned t = a + b; a = b; b = t; }
    for (unsigned v : out) ok[0] &= v == a;
    offload::launch(swap_plus, {.workgroups = {groups}, .threads = {wg}}, std::span(out), n);
    for (unsigned i = 0; i < items; ++i) {
      unsigned x = i % wg, y = 1;
      for (unsigned k = 0; k < n; ++k) { const unsigned tmp = x; x = y; y = tmp + k; }
      ok[1] &= out[i] == x * 1000 + y;
    }
    std::vector<unsigned long> wide(items);
    offload::launch(three_terms, {.workgroups = {groups}, .threads = {wg}}, std::span(wide), n);
    for (unsigned i = 0; i < items; ++i) {
      unsigned long x = 1, y = 2, z = i % wg;
      for (unsigned k = 0; k < n; ++k) { const unsigned long t = x + 2 * y + z; x = y; y = z; z = t; }
      ok[2] &= wide[i] == (x ^ (y << 20) ^ (z << 40));
    }
    // Each work-item of 5 runs the loop once per 5 of 5n + 2 indices.
    offload::launch(grid_stride, {.workgroups = {groups}, .threads = {wg}}, std::span(out), 5 * n + 2);
    for (unsigned i = 0; i < items; ++i) {
      const unsigned t = i % wg, steps = t < 2 ? n + 1 : n;
      unsigned x = 0, y = 1;
      for (unsigned k = 0; k < steps; ++k) { const unsigned s = x + y; x = y; y = s; }
      ok[3] &= out[i] == x;
    }
    offload::launch(aligned, {.workgroups = {groups}, .threads = {wg}}, std::span(out), n);
    for (unsigned i = 0; i < items; ++i) ok[4] &= out[i] == (i % wg) * 8;
  }
  const char *names[] = {"fibonacci", "swap_plus", "three_terms", "grid_stride", "aligned"};
  for (int k = 0; k < 5; ++k) std::printf("%s: %s\n", names[k], ok[k] ? "ok" : "WRONG");
  return !(ok[0] && ok[1] && ok[2] && ok[3] && ok[4]);
}
