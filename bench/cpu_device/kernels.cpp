// bench/cpu_device/kernels.cpp — barrier kernels on the CPU device (issue 17), each timed against
// the same algorithm written with OpenMP on the host (openmp.cpp). The kernels are those of
// examples/device (dot, histogram, tiled matmul, stencil) plus the library's grid_reduce_add, a
// tiled transpose, and a dot product with one element per work-item. Prints "name ms" (median
// of the timed repetitions, after one warm-up); checks each result against a host loop.
#include <offload/offload.hpp>

#include "sizes.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace bench_sizes;

// examples/device/dot.cpp: a grid-stride loop, then the library's workgroup tree and one atomic.
OFFLOAD_KERNEL void dot(std::span<const double> a, std::span<const double> b, double *result) {
  double partial = 0;
  const std::uint64_t stride = std::uint64_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::uint64_t i = offload::global_id_x(); i < a.size(); i += stride)
    partial += a[i] * b[i];
  offload::grid_reduce_add(partial, result);
}

// One element per work-item, a shared-memory tree of eight barriers, one atomic per workgroup.
OFFLOAD_KERNEL void dot_one_each(std::span<const double> a, std::span<const double> b, double *result) {
  auto &s = offload::shared<double[256]>([] {});
  const unsigned t = offload::thread_id_x();
  const std::uint64_t i = offload::global_id_x();
  s[t] = i < a.size() ? a[i] * b[i] : 0.0;
  offload::barrier();
  for (unsigned h = 128; h > 0; h /= 2) {
    if (t < h) s[t] += s[t + h];
    offload::barrier();
  }
  if (t == 0) offload::atomic_add(result, s[0]);
}

OFFLOAD_KERNEL void reduce(std::span<const double> v, double *result) {
  double partial = 0;
  const std::uint64_t stride = std::uint64_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::uint64_t i = offload::global_id_x(); i < v.size(); i += stride)
    partial += v[i];
  offload::grid_reduce_add(partial, result);
}

// examples/device/matmul.cpp
constexpr unsigned tile = 16;
OFFLOAD_KERNEL void matmul(std::span<const double> a, std::span<const double> b,
                           std::span<double> c, std::uint32_t n) {
  auto &ta = offload::shared<double[tile][tile]>([] {});
  auto &tb = offload::shared<double[tile][tile]>([] {});
  const unsigned tx = offload::thread_id_x(), ty = offload::thread_id_y();
  const std::uint64_t row = offload::global_id_y(), col = offload::global_id_x();
  double acc = 0;
  for (unsigned t = 0; t < (n + tile - 1) / tile; ++t) {
    const std::uint64_t ac = t * tile + tx, br = t * tile + ty;
    ta[ty][tx] = row < n && ac < n ? a[row * n + ac] : 0.0;
    tb[ty][tx] = br < n && col < n ? b[br * n + col] : 0.0;
    offload::barrier();
    for (unsigned k = 0; k < tile; ++k) acc += ta[ty][k] * tb[k][tx];
    offload::barrier();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}

// The CUDA samples' tiled transpose: a 32x32 tile through shared memory (padded), 32x8 threads.
OFFLOAD_KERNEL void transpose(std::span<const double> in, std::span<double> out, std::uint32_t n) {
  auto &t = offload::shared<double[32][33]>([] {});
  const unsigned tx = offload::thread_id_x(), ty = offload::thread_id_y();
  const std::uint32_t x0 = offload::block_id_x() * 32, y0 = offload::block_id_y() * 32;
  for (unsigned j = ty; j < 32; j += 8)
    if (x0 + tx < n && y0 + j < n) t[j][tx] = in[std::size_t(y0 + j) * n + x0 + tx];
  offload::barrier();
  for (unsigned j = ty; j < 32; j += 8)
    if (y0 + tx < n && x0 + j < n) out[std::size_t(x0 + j) * n + y0 + tx] = t[tx][j];
}

// examples/device/histogram.cpp
OFFLOAD_KERNEL void histogram(std::span<const std::uint32_t> values, std::uint64_t (*counts)[bins]) {
  auto &local = offload::shared<unsigned[bins]>([] {});
  const unsigned id = offload::local_linear_id(), size = offload::workgroup_size();
  for (unsigned b = id; b < bins; b += size) local[b] = 0;
  offload::barrier();
  const std::uint64_t stride = std::uint64_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::uint64_t i = offload::global_id_x(); i < values.size(); i += stride)
    offload::atomic_add(&local[values[i] % bins], 1u);
  offload::barrier();
  for (unsigned b = id; b < bins; b += size)
    if (local[b]) offload::atomic_add(&(*counts)[b], std::uint64_t(local[b]));
}

// examples/device/stencil.cpp
constexpr unsigned sx = 32, sy = 8;
OFFLOAD_KERNEL void jacobi(std::span<const double> in, std::span<double> out, std::uint32_t nx,
                           std::uint32_t ny) {
  double *halo = offload::dynamic_shared<double>();
  const unsigned tx = offload::thread_id_x(), ty = offload::thread_id_y();
  const long x = long(offload::global_id_x()), y = long(offload::global_id_y());
  auto at = [&](long i, long j) {
    i = i < 0 ? 0 : i >= long(nx) ? long(nx) - 1 : i;
    j = j < 0 ? 0 : j >= long(ny) ? long(ny) - 1 : j;
    return in[std::size_t(j) * nx + std::size_t(i)];
  };
  halo[(ty + 1) * (sx + 2) + tx + 1] = at(x, y);
  if (tx == 0) halo[(ty + 1) * (sx + 2)] = at(x - 1, y);
  if (tx == sx - 1) halo[(ty + 1) * (sx + 2) + sx + 1] = at(x + 1, y);
  if (ty == 0) halo[tx + 1] = at(x, y - 1);
  if (ty == sy - 1) halo[(sy + 1) * (sx + 2) + tx + 1] = at(x, y + 1);
  offload::barrier();
  if (x < long(nx) && y < long(ny)) {
    const double *c = &halo[(ty + 1) * (sx + 2) + tx + 1];
    const double mean = 0.25 * (c[-1] + c[1] + c[-long(sx + 2)] + c[sx + 2]);
    out[std::size_t(y) * nx + std::size_t(x)] = std::sqrt(mean * mean + 1e-3 * c[0] * c[0]);
  }
}

int main(int argc, char **argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
  const bool small = argc > 2;  // CI: tiny sizes, so that the benchmark cannot rot
  data d(small);
  int failures = 0;
  auto time = [&](const char *name, const std::function<void()> &run, const std::function<bool()> &check) {
    std::vector<double> ms;
    for (int r = 0; r <= reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      run();
      const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (r > 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const bool ok = check();
    failures += !ok;
    std::printf("%s %.3f ms%s\n", name, ms[ms.size() / 2], ok ? "" : " WRONG");
  };
  // One data region for the arrays (the CPU device, as a GPU, works on its own copies): the
  // launches copy only their scalars, so that the kernels are timed, as OpenMP's loops are.
  offload::data_region region({}, offload::to(d.a), offload::to(d.b), offload::to(d.r),
                              offload::to(d.ma), offload::to(d.mb), d.mc, offload::to(d.t_in),
                              d.t_out, offload::to(d.values), offload::to(d.s_in), d.s_out);
  double result = 0;
  std::span<const double> a(d.a), b(d.b);
  time("dot", [&] { result = 0; offload::launch(dot, {.workgroups = {264}, .threads = {256}}, a, b, &result); },
       [&] { return close(result, d.dot_expect); });
  time("dot_one_each", [&] {
    result = 0;
    offload::launch(dot_one_each, {.workgroups = {unsigned((a.size() + 255) / 256)}, .threads = {256}}, a, b, &result);
  }, [&] { return close(result, d.dot_expect); });
  time("grid_reduce_add", [&] { result = 0; offload::launch(reduce, {.workgroups = {264}, .threads = {256}}, std::span<const double>(d.r), &result); },
       [&] { return close(result, d.reduce_expect); });
  const std::uint32_t n = d.mm_n;
  time("matmul", [&] {
    offload::launch(matmul, {.workgroups = {(n + tile - 1) / tile, (n + tile - 1) / tile}, .threads = {tile, tile}},
                    std::span<const double>(d.ma), std::span<const double>(d.mb), std::span(d.mc), n);
  }, [&] { region.update_from(d.mc); return d.check_matmul(); });
  const std::uint32_t tn = d.t_n;
  time("transpose", [&] {
    offload::launch(transpose, {.workgroups = {(tn + 31) / 32, (tn + 31) / 32}, .threads = {32, 8}},
                    std::span<const double>(d.t_in), std::span(d.t_out), tn);
  }, [&] { region.update_from(d.t_out); return d.check_transpose(); });
  std::uint64_t counts[bins];
  time("histogram", [&] {
    std::fill(counts, counts + bins, 0);
    offload::launch(histogram, {.workgroups = {132}, .threads = {256}}, std::span<const std::uint32_t>(d.values), &counts);
  }, [&] { return d.check_histogram(counts); });
  const std::uint32_t nx = d.s_nx, ny = d.s_ny;
  time("stencil", [&] {
    offload::launch(jacobi, {.workgroups = {(nx + sx - 1) / sx, (ny + sy - 1) / sy}, .threads = {sx, sy},
                             .dynamic_shared_bytes = (sx + 2) * (sy + 2) * sizeof(double)},
                    std::span<const double>(d.s_in), std::span(d.s_out), nx, ny);
  }, [&] { region.update_from(d.s_out); return d.check_stencil(); });
  std::printf("device %s\n", offload::last_launch_device().c_str());
  return failures != 0;
}
