// BabelStream's triad, a = b + s * c over doubles, split over several devices
// (offload::device_set: every GPU, or the CPU device alone): each device holds its contiguous
// chunk of a, b and c in offload::buffers and runs the kernel on it through its own queue.
// The result must be bitwise equal to the same triad on one device (the set's first) and agree
// with the host's b + s * c to 1e-15 (a GPU may fuse the multiply-add).
//
//   triad [n iterations] [--devices=0,1,...|cpu,...]
//
// Prints the best iteration's bandwidth (3 arrays of n doubles moved) on all devices and on one.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <span>
#include <string>
#include <vector>

OFFLOAD_KERNEL void triad(offload::device_ptr<double> a, offload::device_ptr<double> b,
                          offload::device_ptr<double> c, double scalar, std::uint64_t n) {
  const std::uint64_t i = offload::global_id_x();
  if (i < n) a[i] = b[i] + scalar * c[i];
}

namespace {

constexpr double scalar = 0.4;
constexpr std::uint32_t group = 256;

// Runs the triad `iterations` times over `set`; returns a and the best iteration's seconds (every
// device's launch enqueued, then all waited for).
std::vector<double> run(offload::device_set &set, const std::vector<double> &b, const std::vector<double> &c,
                        int iterations, double &best) {
  const std::size_t n = b.size();
  const std::vector<offload::range> chunks = set.partition(n, group);
  struct chunk_buffers {
    offload::buffer<double> a, b, c;
  };
  std::vector<chunk_buffers> bufs;
  bufs.reserve(set.size());
  for (std::size_t d = 0; d < set.size(); ++d) {
    const offload::range r = chunks[d];
    bufs.push_back({offload::buffer<double>(r.size(), set.device(d)), offload::buffer<double>(r.size(), set.device(d)),
                    offload::buffer<double>(r.size(), set.device(d))});
    set.queue(d).copy(bufs[d].b, std::span<const double>(b).subspan(r.begin, r.size()));
    set.queue(d).copy(bufs[d].c, std::span<const double>(c).subspan(r.begin, r.size()));
  }
  set.wait_all();

  best = std::numeric_limits<double>::infinity();
  for (int it = 0; it < iterations; ++it) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t d = 0; d < set.size(); ++d) {
      const std::uint64_t m = chunks[d].size();
      if (m == 0) continue;  // more devices than 256-element groups
      set.queue(d).launch(triad, {.workgroups = {std::uint32_t((m + group - 1) / group)}, .threads = {group},
                                  .device = set.device(d)},
                          bufs[d].a.data(), bufs[d].b.data(), bufs[d].c.data(), scalar, m);
    }
    set.wait_all();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }

  std::vector<double> a(n);
  for (std::size_t d = 0; d < set.size(); ++d)
    set.queue(d).copy(std::span<double>(a).subspan(chunks[d].begin, chunks[d].size()), bufs[d].a);
  set.wait_all();
  return a;
}

} // namespace

int main(int argc, char **argv) try {
  std::vector<std::string> positional;
  std::vector<int> devices = offload::device_set::all_devices();
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--devices=", 10) == 0)
      devices = offload::parse_device_list(argv[i] + 10);
    else
      positional.emplace_back(argv[i]);
  }
  const std::size_t n = positional.size() > 0 ? std::stoull(positional[0]) : std::size_t(1) << 25;
  const int iterations = positional.size() > 1 ? std::stoi(positional[1]) : 100;
  if (n == 0 || iterations < 1) {
    std::fprintf(stderr, "triad: need n >= 1 and iterations >= 1\n");
    return 2;
  }
  offload::device_set set(devices);

  std::vector<double> b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) {
    b[i] = double((i * 37) % 101) / 101.0 + 0.2;
    c[i] = double((i * 53) % 97) / 97.0;
  }
  double best_multi = 0, best_one = 0;
  const std::vector<double> multi = run(set, b, c, iterations, best_multi);
  offload::device_set first({set.device(0)});
  const std::vector<double> one = run(first, b, c, iterations, best_one);

  for (std::size_t i = 0; i < n; ++i) {
    if (std::memcmp(&multi[i], &one[i], sizeof(double)) != 0) {
      std::printf("multi-gpu triad: FAILED: a[%zu] = %.17g on %zu devices, %.17g on one\n", i, multi[i],
                  set.size(), one[i]);
      return 1;
    }
    const double expected = b[i] + scalar * c[i];
    if (!(std::fabs(multi[i] - expected) <= 1e-15 * std::fabs(expected))) {
      std::printf("multi-gpu triad: FAILED: a[%zu] = %.17g, expected %.17g\n", i, multi[i], expected);
      return 1;
    }
  }
  const double bytes = 3.0 * sizeof(double) * double(n);
  const char *plural = set.size() == 1 ? "" : "s";
  std::printf("triad %zu device%s: %.2f GB/s (one device: %.2f GB/s)\n", set.size(), plural,
              bytes / best_multi * 1e-9, bytes / best_one * 1e-9);
  std::printf("multi-gpu triad: PASS on %zu device%s [%s]: %zu doubles, %d iterations, bitwise equal "
              "to one device\n", set.size(), plural, set.describe().c_str(), n, iterations);
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "multi-gpu triad: %s\n", e.what());
  return 1;
}
