// A range2d or range3d whose y or z needs more workgroups than a grid holds (65535): the grid is
// capped and each work-item steps over the rest, so every index runs once (it was refused:
// "a grid of 1x65536x1 workgroups exceeds the limit of every device", adversarial pass).
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=3 %t | FileCheck %s
// CHECK: range2d 1 x 524281: every index once
// CHECK: range2d 3 x 600000: every index once
// CHECK: range3d 2 x 1 x 140001: every index once
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

static void report(const char *what, const std::vector<unsigned char> &hits) {
  std::size_t wrong = 0;
  for (unsigned char h : hits)
    wrong += h != 1;
  std::printf("%s: %s\n", what, wrong ? "WRONG" : "every index once");
  if (wrong)
    std::printf("  %zu of %zu indices ran other than once\n", wrong, hits.size());
}

int main() {
  {
    std::vector<unsigned char> hits(524281);
    std::span<unsigned char> h(hits);
    offload::parallel_for(offload::range2d{1, 524281}, [=](std::size_t x, std::size_t y) { h[y + x] += 1; });
    report("range2d 1 x 524281", hits);
  }
  {
    const std::size_t nx = 3, ny = 600000;
    std::vector<unsigned char> hits(nx * ny);
    std::span<unsigned char> h(hits);
    offload::parallel_for(offload::range2d{nx, ny}, [=](std::size_t x, std::size_t y) { h[y * nx + x] += 1; });
    report("range2d 3 x 600000", hits);
  }
  {
    const std::size_t nx = 2, nz = 140001;
    std::vector<unsigned char> hits(nx * nz);
    std::span<unsigned char> h(hits);
    offload::parallel_for(offload::range3d{nx, 1, nz},
                          [=](std::size_t x, std::size_t y, std::size_t z) { h[(z + y) * nx + x] += 1; });
    report("range3d 2 x 1 x 140001", hits);
  }
}
