// The 5-point Jacobi stencil of examples/multi-gpu, split by rows over MPI ranks: each rank
// takes a node-local GPU by its rank on the node (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED))
// modulo offload::gpu_count(), or the CPU device when there is none; its rows live in
// offload::buffers and, after every sweep, its first and last rows go to the host and through
// MPI_Sendrecv to the neighbouring ranks as their halos. Rank 0 gathers the grid and compares it
// bitwise with the same sweeps in one process (on its device), and with a host loop to 1e-12.
//
//   mpirun -np 4 stencil_mpi [nx ny iterations]
//
// Built with offload-cxx and MPI's flags:
//   offload-cxx -O2 $(mpicxx --showme:compile) stencil_mpi.cpp $(mpicxx --showme:link) -o stencil_mpi
#include "../multi-gpu/jacobi.hpp"

#include <offload/offload.hpp>

#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace {

// Runs `iterations` sweeps over `rows` rows (the grid's rows [first, first + rows)) on `device`;
// `exchange(edges, halo)` turns the block's new edge rows into its next halo rows (both 2 * nx:
// first/above, then last/below). Returns the rows.
std::vector<double> sweep(int device, std::span<const double> start, std::uint32_t nx, std::uint32_t rows,
                          int iterations,
                          const std::function<void(const std::vector<double> &, std::vector<double> &)> &exchange) {
  offload::queue q(device);
  offload::buffer<double> u(start.size(), device), v(start.size(), device);
  offload::buffer<double> halo(2 * std::size_t(nx), device), edges(2 * std::size_t(nx), device);
  std::vector<double> host_edges(2 * std::size_t(nx)), host_halo(2 * std::size_t(nx));
  q.copy(u, start);
  std::memcpy(host_edges.data(), start.data(), nx * sizeof(double));
  std::memcpy(host_edges.data() + nx, start.data() + start.size() - nx, nx * sizeof(double));
  for (int it = 0; it < iterations; ++it) {
    exchange(host_edges, host_halo);
    q.copy(halo, std::span<const double>(host_halo));
    q.launch(jacobi_rows, jacobi_config(nx, rows, device), u.data(), halo.data(), v.data(), edges.data(), nx,
             rows);
    q.copy(std::span<double>(host_edges), edges);
    std::swap(u, v);
    q.wait();
  }
  std::vector<double> out(start.size());
  q.copy(std::span<double>(out), u);
  q.wait();
  return out;
}

std::string device_name(int device) {
  const offload::device_info info = offload::describe_device(device);
  std::string s = device == offload::cpu_device ? "CPU device" : "GPU " + std::to_string(device);
  return info.name.empty() ? s : s + " (" + info.name + ")";
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  try {
    const std::uint32_t nx = argc > 1 ? std::stoul(argv[1]) : 4096;
    const std::uint32_t ny = argc > 2 ? std::stoul(argv[2]) : 4096;
    const int iterations = argc > 3 ? std::stoi(argv[3]) : 100;
    if (nx == 0 || ny < std::uint32_t(size) || iterations < 1) {
      if (rank == 0)
        std::fprintf(stderr, "stencil_mpi: need nx >= 1, ny >= %d rows (one per rank), iterations >= 1\n", size);
      MPI_Finalize();
      return 2;
    }

    // The node-local rank picks the GPU: ranks of one node share its GPUs round-robin.
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int local_rank = 0;
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_free(&node);
    const int gpus = offload::gpu_count();
    const int device = gpus > 0 ? local_rank % gpus : offload::cpu_device;

    const offload::range mine = offload::partition(ny, std::size_t(size))[std::size_t(rank)];
    const std::uint32_t rows = std::uint32_t(mine.size());
    const std::vector<double> start = jacobi_initial(nx, mine.begin, mine.end);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    // Halos through MPI: my first row goes up as the upper rank's row below, my last row down as
    // the lower rank's row above. At the grid's top and bottom the halo is the block's own edge
    // (a receive from MPI_PROC_NULL leaves the buffer as it is).
    auto exchange = [&](const std::vector<double> &edges, std::vector<double> &halo) {
      std::memcpy(halo.data(), edges.data(), nx * sizeof(double));
      std::memcpy(halo.data() + nx, edges.data() + nx, nx * sizeof(double));
      MPI_Sendrecv(edges.data(), int(nx), MPI_DOUBLE, up, 0, halo.data() + nx, int(nx), MPI_DOUBLE, down, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(edges.data() + nx, int(nx), MPI_DOUBLE, down, 1, halo.data(), int(nx), MPI_DOUBLE, up, 1,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    };
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> result = sweep(device, start, nx, rows, iterations, exchange);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

    // Rank 0 gathers the rows and each rank's device.
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
    const int my_count = int(result.size());
    MPI_Gather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 1; r < size; ++r) displs[std::size_t(r)] = displs[std::size_t(r - 1)] + counts[std::size_t(r - 1)];
    std::vector<double> grid(rank == 0 ? std::size_t(nx) * ny : 0);
    MPI_Gatherv(result.data(), my_count, MPI_DOUBLE, grid.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
    char name[96] = {};
    std::snprintf(name, sizeof name, "%s", device_name(device).c_str());
    std::vector<char> names(rank == 0 ? sizeof name * std::size_t(size) : 0);
    MPI_Gather(name, sizeof name, MPI_CHAR, names.data(), sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);

    if (rank == 0) {
      // The same sweeps in this one process, on this rank's device, the halos being the grid's edges.
      const std::vector<double> whole = jacobi_initial(nx, ny);
      auto own_edges = [](const std::vector<double> &edges, std::vector<double> &halo) { halo = edges; };
      const std::vector<double> one = sweep(device, whole, nx, ny, iterations, own_edges);
      const std::vector<double> host = jacobi_host(whole, nx, ny, iterations);
      for (std::size_t i = 0; i < grid.size() && status == 0; ++i) {
        if (std::memcmp(&grid[i], &one[i], sizeof(double)) != 0) {
          std::printf("mpi stencil: FAILED: cell (%zu, %zu) = %.17g on %d ranks, %.17g in one process\n", i % nx,
                      i / nx, grid[i], size, one[i]);
          status = 1;
        } else if (!(std::fabs(grid[i] - host[i]) <= 1e-12 * std::fmax(1.0, std::fabs(host[i])))) {
          std::printf("mpi stencil: FAILED: cell (%zu, %zu) = %.17g, the host loop gives %.17g\n", i % nx, i / nx,
                      grid[i], host[i]);
          status = 1;
        }
      }
      if (status == 0) {
        std::string used;
        for (int r = 0; r < size; ++r)
          used += (r ? ", rank " : "rank ") + std::to_string(r) + ": " + &names[sizeof name * std::size_t(r)];
        std::printf("stencil_mpi %d ranks: %.1f Mcells/s\n", size, double(nx) * ny * iterations / seconds * 1e-6);
        std::printf("mpi stencil: PASS on %d rank%s [%s]: %ux%u, %d iterations, bitwise equal to one process\n",
                    size, size == 1 ? "" : "s", used.c_str(), nx, ny, iterations);
      }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "mpi stencil: rank %d: %s\n", rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
