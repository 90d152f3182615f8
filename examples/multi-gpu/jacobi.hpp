// The 5-point Jacobi sweep shared by examples/multi-gpu/stencil.cpp and examples/mpi/
// stencil_mpi.cpp: a block of whole rows of an nx-wide grid, with the row above and the row
// below it (its halo) passed separately, so that the grid can be split by rows over devices or
// MPI ranks and only the halo rows travel between them.
#pragma once

#include <offload/offload.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

// One sweep over `rows` rows: out = 0.25 * (left + right + above + below), the grid's left and
// right edges clamped (a reflecting boundary). halo[0, nx) is the row above the block and
// halo[nx, 2nx) the row below; at the top and bottom of the whole grid the host passes the
// block's own edge row, which is the same clamp. The new first and last rows also go to
// edges[0, nx) and edges[nx, 2nx): the neighbours' next halos, without a copy at an offset.
OFFLOAD_KERNEL void jacobi_rows(offload::device_ptr<double> in, offload::device_ptr<double> halo,
                                offload::device_ptr<double> out, offload::device_ptr<double> edges,
                                std::uint32_t nx, std::uint32_t rows) {
  const std::uint64_t x = offload::global_id_x(), y = offload::global_id_y();
  if (x >= nx || y >= rows) return;
  const std::uint64_t row = y * nx;
  const double above = y == 0 ? halo[x] : in[row - nx + x];
  const double below = y + 1 == rows ? halo[nx + x] : in[row + nx + x];
  const double left = in[row + (x == 0 ? x : x - 1)];
  const double right = in[row + (x + 1 == nx ? x : x + 1)];
  const double v = 0.25 * ((left + right) + (above + below));
  out[row + x] = v;
  if (y == 0) edges[x] = v;
  if (y + 1 == rows) edges[nx + x] = v;
}

inline offload::launch_config jacobi_config(std::uint32_t nx, std::uint32_t rows, int device) {
  return {.workgroups = {(nx + 31) / 32, (rows + 7) / 8, 1}, .threads = {32, 8, 1}, .device = device};
}

// Rows [row_begin, row_end) of the starting grid: the same values wherever they are built.
inline std::vector<double> jacobi_initial(std::uint32_t nx, std::size_t row_begin, std::size_t row_end) {
  std::vector<double> u((row_end - row_begin) * nx);
  for (std::size_t k = 0; k < u.size(); ++k) {
    const std::size_t i = row_begin * nx + k;
    u[k] = double((i * 37) % 101) / 101.0 + (i % nx == 0 ? 10.0 : 0.0);
  }
  return u;
}
inline std::vector<double> jacobi_initial(std::uint32_t nx, std::uint32_t ny) { return jacobi_initial(nx, 0, ny); }

// The host's sweeps, in the kernel's order of operations: the results must agree with it to
// 1e-12 (relative) on every device.
inline std::vector<double> jacobi_host(std::vector<double> u, std::uint32_t nx, std::uint32_t ny, int iterations) {
  std::vector<double> v(u.size());
  for (int it = 0; it < iterations; ++it) {
    for (std::size_t y = 0; y < ny; ++y)
      for (std::size_t x = 0; x < nx; ++x) {
        const double above = u[(y == 0 ? y : y - 1) * nx + x];
        const double below = u[(y + 1 == ny ? y : y + 1) * nx + x];
        const double left = u[y * nx + (x == 0 ? x : x - 1)];
        const double right = u[y * nx + (x + 1 == nx ? x : x + 1)];
        v[y * nx + x] = 0.25 * ((left + right) + (above + below));
      }
    u.swap(v);
  }
  return u;
}
