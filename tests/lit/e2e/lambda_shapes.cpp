// Lambda kernels' shapes and queue forms (found by a new user, 2026-12-06): a lambda without
// barriers runs in the workgroups of a range launch of a kernel without barriers (1024
// work-items on the CPU device: its generic helper's call of std::addressof read as "may reach a
// barrier" before), range2d/range3d take extents of any integer type, and a queue runs 2-D
// and 3-D lambdas too.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_INFO=1 %t 2>&1 | FileCheck %s
// RUN: %t | FileCheck %s --check-prefix=RESULT
// CHECK: launching kernel lambda at lambda_shapes.cpp:[[#]] on CPU device {{.*}} with 5x1x1 workgroups of 1024x1x1 threads
// CHECK: launching kernel lambda at lambda_shapes.cpp:[[#]] on CPU device {{.*}} with 1x1x1 workgroups of 32x8x1 threads
// CHECK: launching kernel lambda at lambda_shapes.cpp:[[#]]{{.*}} on CPU device {{.*}} with 1x2x2 workgroups of 32x4x2 threads
// RESULT: lambda_shapes: all checks passed
#include <offload/offload.hpp>

#include <cstdio>
#include <vector>

int main() {
  const int n = 5000;
  std::vector<float> a(n, 0.0f);
  std::span<float> as(a);
  offload::parallel_for(offload::range{n}, [=](std::size_t i) { as[i] = float(i); });

  const int nx = 10, ny = 7;
  const short nz = 3;
  std::vector<float> b(nx * ny, 1.0f), c(nx * ny * nz, 0.0f);
  std::span<float> bs(b), cs(c);
  offload::queue q;
  q.parallel_for(offload::range2d{nx, ny}, [=](std::size_t x, std::size_t y) { bs[y * 10 + x] *= 2.0f; });
  q.parallel_for(offload::range3d{nx, ny, nz},
                 [=](auto x, auto y, auto z) { cs[(z * 7 + y) * 10 + x] = float(x + y + z); });
  q.wait();

  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += a[i] != float(i);
  for (float v : b)
    bad += v != 2.0f;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)
        bad += c[(z * 7 + y) * 10 + x] != float(x + y + z);
  // A range whose extent is negative is refused, as range's.
  try {
    q.parallel_for(offload::range2d{-1, ny}, [=](std::size_t x, std::size_t y) { bs[y * 10 + x] = 0; });
    q.wait();
    ++bad;
    std::printf("FAILED: a negative extent was not refused\n");
  } catch (const offload::error &) {
  }
  if (bad == 0)
    std::printf("lambda_shapes: all checks passed\n");
  else
    std::printf("lambda_shapes: %d wrong\n", bad);
  return bad != 0;
}
