// offload::shared<T> of a type aligned above 16 bytes builds and is aligned as T asks, on every
// device (adversarial pass, 2026-12-05: alignas(32) and up failed inside workgroup.hpp).
// RUN: %offload-cxx -O2 %s -o %t && env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: aligned 32: 0, 64: 0, 128: 0; sum 2016
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

struct alignas(32) A32 { int v; };
struct alignas(64) A64 { int v; };
struct alignas(128) A128 { int v; };

OFFLOAD_KERNEL void kernel(std::span<unsigned> misaligned, std::span<int> sum) {
  auto &a = offload::shared<A32[2]>([] {});
  auto &b = offload::shared<A64[2]>([] {});
  auto &c = offload::shared<A128[64]>([] {});
  const unsigned t = offload::thread_id_x();
  c[t].v = static_cast<int>(t);
  if (t == 0) {
    misaligned[0] = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(&a) % 32);
    misaligned[1] = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(&b) % 64);
    misaligned[2] = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(&c) % 128);
  }
  offload::barrier();
  if (t == 0) {
    int s = 0;
    for (int i = 0; i < 64; ++i)
      s += c[i].v;
    sum[0] = s;
  }
}

int main() {
  std::vector<unsigned> misaligned(3, 99);
  std::vector<int> sum(1);
  offload::launch(kernel, {.workgroups = {1}, .threads = {64}}, std::span(misaligned), std::span(sum));
  std::printf("aligned 32: %u, 64: %u, 128: %u; sum %d\n", misaligned[0], misaligned[1], misaligned[2], sum[0]);
}
