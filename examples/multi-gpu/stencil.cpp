// A 2-D 5-point Jacobi stencil split by rows over several devices (offload::device_set: every
// GPU, or the CPU device alone). Each device keeps its rows in offload::buffers; after every
// sweep each device's first and last rows go to the host and come back as its neighbours' halo
// rows (staged through the host with queue copies: there is no device-to-device copy yet).
// The result must be bitwise equal to the same sweeps on one device (the set's first) and agree
// with a host loop to 1e-12.
//
//   stencil [nx ny iterations] [--devices=0,1,...|cpu,...] [--no-host-check]
//
// --no-host-check skips the host loop (slow for large grids: bench/scaling.sh); the bitwise
// comparison with one device stays.
// "--devices=cpu,cpu" runs two parts on the CPU device, one queue each: the halo exchange of a
// multi-GPU run, on a machine without GPUs.
#include "jacobi.hpp"

#include <offload/offload.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <vector>

namespace {

struct block {
  offload::range rows;
  offload::buffer<double> u, v;   // this device's rows: the current sweep reads u, writes v
  offload::buffer<double> halo;   // the row above and the row below
  offload::buffer<double> edges;  // the newest first and last rows, for the neighbours
  std::vector<double> host_halo, host_edges;
};

// Runs `iterations` sweeps of the grid `start` split over `set`; returns the grid and the time
// the sweeps took (halo exchanges included, the first upload and the last download not).
std::vector<double> run(offload::device_set &set, const std::vector<double> &start, std::uint32_t nx,
                        std::uint32_t ny, int iterations, double &seconds) {
  const std::vector<offload::range> parts = set.partition(ny);
  const std::size_t n = set.size();
  std::vector<block> blocks;
  blocks.reserve(n);
  for (std::size_t d = 0; d < n; ++d) {
    const std::size_t cells = parts[d].size() * nx;
    blocks.push_back({parts[d], offload::buffer<double>(cells, set.device(d)),
                      offload::buffer<double>(cells, set.device(d)),
                      offload::buffer<double>(2 * std::size_t(nx), set.device(d)),
                      offload::buffer<double>(2 * std::size_t(nx), set.device(d)),
                      std::vector<double>(2 * std::size_t(nx)), std::vector<double>(2 * std::size_t(nx))});
    block &b = blocks.back();
    const std::span<const double> mine(start.data() + parts[d].begin * nx, cells);
    set.queue(d).copy(b.u, mine);
    // The first halos come from the starting grid's rows.
    std::memcpy(b.host_edges.data(), mine.data(), nx * sizeof(double));
    std::memcpy(b.host_edges.data() + nx, mine.data() + cells - nx, nx * sizeof(double));
  }
  set.wait_all();

  const auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < iterations; ++it) {
    // Halos on the host: the neighbour's edge row, or the block's own at the grid's top/bottom.
    for (std::size_t d = 0; d < n; ++d) {
      const double *above = d > 0 ? blocks[d - 1].host_edges.data() + nx : blocks[d].host_edges.data();
      const double *below = d + 1 < n ? blocks[d + 1].host_edges.data() : blocks[d].host_edges.data() + nx;
      std::memcpy(blocks[d].host_halo.data(), above, nx * sizeof(double));
      std::memcpy(blocks[d].host_halo.data() + nx, below, nx * sizeof(double));
    }
    for (std::size_t d = 0; d < n; ++d) {
      block &b = blocks[d];
      offload::queue &q = set.queue(d);
      const auto rows = std::uint32_t(b.rows.size());
      q.copy(b.halo, std::span<const double>(b.host_halo));
      q.launch(jacobi_rows, jacobi_config(nx, rows, set.device(d)), b.u.data(), b.halo.data(), b.v.data(),
               b.edges.data(), nx, rows);
      q.copy(std::span<double>(b.host_edges), b.edges);
      std::swap(b.u, b.v);  // the launch already holds the addresses
    }
    set.wait_all();  // every edge row is on the host before the next halos are built
  }
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::vector<double> grid(start.size());
  for (std::size_t d = 0; d < n; ++d)
    set.queue(d).copy(std::span<double>(grid.data() + blocks[d].rows.begin * nx, blocks[d].u.size()),
                      blocks[d].u);
  set.wait_all();
  return grid;
}

} // namespace

int main(int argc, char **argv) try {
  std::vector<std::string> positional;
  std::vector<int> devices = offload::device_set::all_devices();
  bool host_check = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--devices=", 10) == 0)
      devices = offload::parse_device_list(argv[i] + 10);
    else if (std::strcmp(argv[i], "--no-host-check") == 0)
      host_check = false;
    else
      positional.emplace_back(argv[i]);
  }
  const std::uint32_t nx = positional.size() > 0 ? std::stoul(positional[0]) : 4096;
  const std::uint32_t ny = positional.size() > 1 ? std::stoul(positional[1]) : 4096;
  const int iterations = positional.size() > 2 ? std::stoi(positional[2]) : 100;
  offload::device_set set(devices);
  if (nx == 0 || ny < set.size() || iterations < 1) {
    std::fprintf(stderr, "stencil: need nx >= 1, ny >= %zu rows (one per device), iterations >= 1\n", set.size());
    return 2;
  }

  const std::vector<double> start = jacobi_initial(nx, ny);
  double t_multi = 0, t_one = 0;
  const std::vector<double> multi = run(set, start, nx, ny, iterations, t_multi);
  offload::device_set first({set.device(0)});
  const std::vector<double> one = run(first, start, nx, ny, iterations, t_one);

  for (std::size_t i = 0; i < multi.size(); ++i)
    if (std::memcmp(&multi[i], &one[i], sizeof(double)) != 0) {
      std::printf("multi-gpu stencil: FAILED: cell (%zu, %zu) = %.17g on %zu devices, %.17g on one\n",
                  i % nx, i / nx, multi[i], set.size(), one[i]);
      return 1;
    }
  const std::vector<double> host = host_check ? jacobi_host(start, nx, ny, iterations) : std::vector<double>();
  for (std::size_t i = 0; i < host.size(); ++i)
    if (!(std::fabs(multi[i] - host[i]) <= 1e-12 * std::fmax(1.0, std::fabs(host[i])))) {
      std::printf("multi-gpu stencil: FAILED: cell (%zu, %zu) = %.17g, the host loop gives %.17g\n",
                  i % nx, i / nx, multi[i], host[i]);
      return 1;
    }
  const double cells = double(nx) * ny * iterations;
  const char *plural = set.size() == 1 ? "" : "s";
  std::printf("stencil %zu device%s: %.1f Mcells/s (one device: %.1f Mcells/s)\n", set.size(), plural,
              cells / t_multi * 1e-6, cells / t_one * 1e-6);
  std::printf("multi-gpu stencil: PASS on %zu device%s [%s]: %ux%u, %d iterations, bitwise equal to "
              "one device%s\n", set.size(), plural, set.describe().c_str(), nx, ny, iterations,
              host_check ? "" : " (host loop skipped)");
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "multi-gpu stencil: %s\n", e.what());
  return 1;
}
