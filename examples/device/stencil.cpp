// A 2-D five-point stencil (Jacobi sweeps), each workgroup staging its block plus a one-cell halo
// in dynamic shared memory sized at launch. <cmath> inside the kernel (std::sqrt). Checked
// against the same sweeps on the CPU (relative tolerance 1e-12).
#include <offload/offload.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr unsigned bx = 32, by = 8;

OFFLOAD_KERNEL void jacobi(std::span<const double> in, std::span<double> out, std::uint32_t nx,
                           std::uint32_t ny) {
  double *halo = offload::dynamic_shared<double>();  // (by + 2) x (bx + 2)
  const unsigned tx = offload::thread_id_x(), ty = offload::thread_id_y();
  const long x = long(offload::global_id_x()), y = long(offload::global_id_y());
  auto at = [&](long i, long j) {  // clamped read of the input
    i = i < 0 ? 0 : i >= long(nx) ? long(nx) - 1 : i;
    j = j < 0 ? 0 : j >= long(ny) ? long(ny) - 1 : j;
    return in[std::size_t(j) * nx + std::size_t(i)];
  };
  // Fill the block and its halo: every work-item loads its cell, edge work-items the halo.
  halo[(ty + 1) * (bx + 2) + tx + 1] = at(x, y);
  if (tx == 0) halo[(ty + 1) * (bx + 2)] = at(x - 1, y);
  if (tx == bx - 1) halo[(ty + 1) * (bx + 2) + bx + 1] = at(x + 1, y);
  if (ty == 0) halo[tx + 1] = at(x, y - 1);
  if (ty == by - 1) halo[(by + 1) * (bx + 2) + tx + 1] = at(x, y + 1);
  offload::barrier();
  if (x < long(nx) && y < long(ny)) {
    const double *c = &halo[(ty + 1) * (bx + 2) + tx + 1];
    const double mean = 0.25 * (c[-1] + c[1] + c[-long(bx + 2)] + c[bx + 2]);
    out[std::size_t(y) * nx + std::size_t(x)] = std::sqrt(mean * mean + 1e-3 * c[0] * c[0]);
  }
}

int main(int argc, char **argv) {
  const std::uint32_t nx = argc > 1 ? std::atoi(argv[1]) : 1000, ny = argc > 2 ? std::atoi(argv[2]) : 700;
  std::vector<double> u(std::size_t(nx) * ny), v(u.size()), ref(u.size()), tmp(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = ref[i] = double((i * 37) % 101) / 101.0;
  const offload::launch_config cfg{.workgroups = {(nx + bx - 1) / bx, (ny + by - 1) / by},
                                   .threads = {bx, by},
                                   .dynamic_shared_bytes = (bx + 2) * (by + 2) * sizeof(double)};
  for (int sweep = 0; sweep < 5; ++sweep) {
    offload::launch(jacobi, cfg, std::span<const double>(u), std::span(v), nx, ny);
    std::swap(u, v);
  }
  auto at = [&](const std::vector<double> &g, long i, long j) {
    i = i < 0 ? 0 : i >= long(nx) ? long(nx) - 1 : i;
    j = j < 0 ? 0 : j >= long(ny) ? long(ny) - 1 : j;
    return g[std::size_t(j) * nx + std::size_t(i)];
  };
  for (int sweep = 0; sweep < 5; ++sweep) {
    for (long j = 0; j < long(ny); ++j)
      for (long i = 0; i < long(nx); ++i) {
        const double mean = 0.25 * (at(ref, i - 1, j) + at(ref, i + 1, j) + at(ref, i, j - 1) + at(ref, i, j + 1));
        tmp[std::size_t(j) * nx + std::size_t(i)] = std::sqrt(mean * mean + 1e-3 * at(ref, i, j) * at(ref, i, j));
      }
    std::swap(ref, tmp);
  }
  for (std::size_t i = 0; i < u.size(); ++i)
    if (std::fabs(u[i] - ref[i]) > 1e-12 * std::fmax(1.0, std::fabs(ref[i]))) {
      std::printf("stencil: cell %zu = %.17g, expected %.17g\n", i, u[i], ref[i]);
      return 1;
    }
  std::printf("stencil: all checks passed on %s (%ux%u, 5 sweeps)\n",
              offload::last_launch_device().c_str(), nx, ny);
}
