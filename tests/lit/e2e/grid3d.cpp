// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=3 %t | FileCheck %s
// RUN: %offload-cxx -O0 -g --host-compiler=g++ %s -o %t.O0
// RUN: env OFFLOAD_DEVICE=cpu %t.O0 | FileCheck %s
// CHECK: grid3d: all checks passed
// A 3-D grid of 3-D workgroups: every work-item writes its own global coordinates once.
#include <offload/offload.hpp>

#include <cstdio>
#include <vector>

constexpr unsigned X = 20, Y = 12, Z = 6;  // covered by 3x2x2 workgroups of 8x6x3 threads

struct cell {
  unsigned x, y, z, hits;
};

OFFLOAD_KERNEL void mark(cell (*grid)[Z][Y][X]) {
  auto x = offload::global_id_x(), y = offload::global_id_y(), z = offload::global_id_z();
  if (x < X && y < Y && z < Z) {
    cell &c = (*grid)[z][y][x];
    c.x = unsigned(x);
    c.y = unsigned(y);
    c.z = unsigned(z);
    c.hits += 1;
  }
}

int main() {
  static cell grid[Z][Y][X] = {};
  offload::launch(mark, {.workgroups = {3, 2, 2}, .threads = {8, 6, 3}}, &grid);
  for (unsigned z = 0; z < Z; ++z)
    for (unsigned y = 0; y < Y; ++y)
      for (unsigned x = 0; x < X; ++x) {
        const cell &c = grid[z][y][x];
        if (c.x != x || c.y != y || c.z != z || c.hits != 1) {
          std::printf("FAIL at (%u,%u,%u): got (%u,%u,%u) hits %u\n", x, y, z, c.x, c.y, c.z,
                      c.hits);
          return 1;
        }
      }
  std::printf("grid3d: all checks passed on %s\n", offload::last_launch_device().c_str());
}
