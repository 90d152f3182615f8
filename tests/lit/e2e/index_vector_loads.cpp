// With AVX-512 (-mavx512f, -march=native on such a machine) clang's SLP vectoriser reads the
// work-item's x and y index as one `load <2 x i32>` of offload::detail::current_cpu_item before
// the work-item loops are built; they must become the loops' counters like single loads
// (CpuWorkItemLoops.cpp scalarizeIndexLoads), else every work-item of a workgroup took the first
// one's index and ~90% of the output was never written (new-user pass, 2026-12-04). The build
// is checked to contain such loads; the program runs where the CPU has AVX-512F.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %offload-cxx -O2 --offload-arch=host -mavx512f --save-temps %s -o %t/vec
// RUN: llvm-dis %t/vec.host.bc -o - | FileCheck %s --check-prefix=VECTOR
// VECTOR: load <2 x i32>, ptr {{%[0-9]+}}
// RUN: bash -c 'if grep -qw avx512f /proc/cpuinfo; then env OFFLOAD_DEVICE=cpu %t/vec; else echo "index_vector_loads: all checks passed (not run: no AVX-512F)"; fi' | FileCheck %s
// CHECK: index_vector_loads: all checks passed
#include <offload/offload.hpp>
#include <cstdio>
#include <vector>
template <int V>
OFFLOAD_KERNEL void k(offload::device_ptr<float> out, offload::device_ptr<const float> in, int nx, int ny) {
  int x = offload::global_id_x(), y = offload::global_id_y();
  if constexpr (V == 0) {  // interior 4-neighbour sum
    if (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1)
      out[y * nx + x] = in[(y - 1) * nx + x] + in[(y + 1) * nx + x] + in[y * nx + x - 1] + in[y * nx + x + 1];
  } else if constexpr (V == 1) {  // x-guard only, left neighbour
    if (x >= 1 && x < nx && y < ny) out[y * nx + x] = in[y * nx + x - 1];
  } else if constexpr (V == 2) {  // x-guard only, same element
    if (x >= 1 && x < nx && y < ny) out[y * nx + x] = in[y * nx + x];
  } else if constexpr (V == 4) {  // full interior guard, body copies the same element
    if (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1) out[y * nx + x] = in[y * nx + x];
  } else if constexpr (V == 5) {  // x interior guard only
    if (x >= 1 && x < nx - 1 && y < ny) out[y * nx + x] = in[y * nx + x];
  } else {  // y-guard only
    if (x < nx && y >= 1 && y < ny) out[y * nx + x] = in[(y - 1) * nx + x];
  }
}
template <int V> float ref(const std::vector<float> &a, int x, int y, int nx, int ny) {
  if (V == 0) return (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1) ? a[(y - 1) * nx + x] + a[(y + 1) * nx + x] + a[y * nx + x - 1] + a[y * nx + x + 1] : -1.f;
  if (V == 1) return x >= 1 ? a[y * nx + x - 1] : -1.f;
  if (V == 4) return (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1) ? a[y * nx + x] : -1.f;
  if (V == 5) return (x >= 1 && x < nx - 1) ? a[y * nx + x] : -1.f;
  if (V == 2) return x >= 1 ? a[y * nx + x] : -1.f;
  return y >= 1 ? a[(y - 1) * nx + x] : -1.f;
}
template <int V> int test(int nx, int ny, unsigned bx, unsigned by) {
  std::vector<float> a(size_t(nx) * ny), got(a.size()), init(a.size(), -1.f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 1013);
  offload::buffer<float> in(a.size()), out(a.size());
  in.copy_from(a);
  out.copy_from(init);
  offload::launch(k<V>, {.workgroups = {(nx + bx - 1) / bx, (ny + by - 1) / by}, .threads = {bx, by}}, out.data(), in.data(), nx, ny);
  out.copy_to(got);
  int bad = 0;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) bad += got[y * nx + x] != ref<V>(a, x, y, nx, ny);
  std::printf("variant %d, %dx%d, workgroup %ux%u: %s (%d of %zu wrong)\n", V, nx, ny, bx, by, bad ? "FAIL" : "PASS", bad, a.size());
  return bad != 0;
}
int main() {
  int f = 0;
  f += test<0>(100, 30, 16, 16) + test<0>(100, 30, 1024, 1);
  f += test<1>(100, 30, 16, 16) + test<2>(100, 30, 16, 16) + test<3>(100, 30, 16, 16);
  f += test<4>(100, 30, 16, 16) + test<5>(100, 30, 16, 16) + test<5>(100, 1, 128, 1);
  if (f == 0) std::printf("index_vector_loads: all checks passed\n");
  return f;
}
