// bench/babelstream.cpp — BabelStream (copy, mul, add, triad, nstream, dot) written with
// offload-cxx: arrays live in device buffers for the whole run; each kernel is launched and
// waited for `iterations` times; the first iteration is dropped; bandwidth from the minimum time
// (BabelStream's rules). Results are validated as BabelStream validates them. Also measures
// launch cost (empty kernel) and 1 GiB transfers. Prints "name value unit" lines for bench/run.sh.
//
//   babelstream [log2 elements = 27] [iterations = 100]
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#ifdef BENCH_CUDART_REFERENCE
extern "C" int bench_cudart_memcpy(void *dst, const void *src, std::size_t bytes, int to_device);
#endif

using clock_type = std::chrono::steady_clock;
using dptr = offload::device_ptr<double>;
using cdptr = offload::device_ptr<const double>;

OFFLOAD_KERNEL void copy(cdptr a, dptr c, std::uint64_t n) {
  auto i = offload::global_id_x();
  if (i < n) c[i] = a[i];
}
OFFLOAD_KERNEL void mul(dptr b, cdptr c, double s, std::uint64_t n) {
  auto i = offload::global_id_x();
  if (i < n) b[i] = s * c[i];
}
OFFLOAD_KERNEL void add(cdptr a, cdptr b, dptr c, std::uint64_t n) {
  auto i = offload::global_id_x();
  if (i < n) c[i] = a[i] + b[i];
}
OFFLOAD_KERNEL void triad(dptr a, cdptr b, cdptr c, double s, std::uint64_t n) {
  auto i = offload::global_id_x();
  if (i < n) a[i] = b[i] + s * c[i];
}
OFFLOAD_KERNEL void nstream(dptr a, cdptr b, cdptr c, double s, std::uint64_t n) {
  auto i = offload::global_id_x();
  if (i < n) a[i] += b[i] + s * c[i];
}
OFFLOAD_KERNEL void dot(cdptr a, cdptr b, std::uint64_t n, double *sum) {
  double partial = 0;
  const std::uint64_t stride = std::uint64_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::uint64_t i = offload::global_id_x(); i < n; i += stride) partial += a[i] * b[i];
  offload::grid_reduce_add(partial, sum);
}
OFFLOAD_KERNEL void empty(std::uint64_t) {}

template <class F> double seconds(F &&f) {
  auto t0 = clock_type::now();
  f();
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 27;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 100;
  const std::uint64_t n = std::uint64_t(1) << log2n;
  const double start_a = 0.1, start_b = 0.2, start_c = 0.0, scalar = 0.4;
  offload::buffer<double> a(n), b(n), c(n);
  {
    std::vector<double> init(n, start_a);
    a.copy_from(init);
    std::fill(init.begin(), init.end(), start_b);
    b.copy_from(init);
    std::fill(init.begin(), init.end(), start_c);
    c.copy_from(init);
  }
  const offload::launch_config cfg{.workgroups = {unsigned((n + 255) / 256)}, .threads = {256}};
  const offload::launch_config dot_cfg{.workgroups = {132 * 4}, .threads = {1024}};
  const cdptr ca{a.data().get()}, cb{b.data().get()}, cc{c.data().get()};
  const char *names[6] = {"copy", "mul", "add", "triad", "nstream", "dot"};
  const double weights[6] = {2, 2, 3, 3, 4, 2};
  std::vector<double> times[6];
  double sum = 0;
  for (int k = 0; k < iterations; ++k) {
    // Launches on buffers return before their kernels end (as CUDA's): each is timed to its end,
    // as BabelStream's CUDA version synchronises after each kernel.
    auto timed = [&](auto launch) {
      return seconds([&] {
        launch();
        offload::synchronize();
      });
    };
    times[0].push_back(timed([&] { offload::launch(copy, cfg, ca, c.data(), n); }));
    times[1].push_back(timed([&] { offload::launch(mul, cfg, b.data(), cc, scalar, n); }));
    times[2].push_back(timed([&] { offload::launch(add, cfg, ca, cb, c.data(), n); }));
    times[3].push_back(timed([&] { offload::launch(triad, cfg, a.data(), cb, cc, scalar, n); }));
    times[4].push_back(timed([&] { offload::launch(nstream, cfg, a.data(), cb, cc, scalar, n); }));
    times[5].push_back(seconds([&] {
      sum = 0;
      offload::launch(dot, dot_cfg, ca, cb, n, &sum);
    }));
  }
  // Validation (BabelStream): replay on scalars.
  double ea = start_a, eb = start_b, ec = start_c;
  for (int k = 0; k < iterations; ++k) {
    ec = ea;
    eb = scalar * ec;
    ec = ea + eb;
    ea = eb + scalar * ec;
    ea += eb + scalar * ec;
  }
  const double esum = ea * eb * double(n);
  std::vector<double> ha(n), hb(n), hc(n);
  a.copy_to(ha);
  b.copy_to(hb);
  c.copy_to(hc);
  double erra = 0, errb = 0, errc = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    erra += std::fabs(ha[i] - ea);
    errb += std::fabs(hb[i] - eb);
    errc += std::fabs(hc[i] - ec);
  }
  const double eps = std::numeric_limits<double>::epsilon();
  const bool ok = erra / n / std::fabs(ea) <= eps * 100 && errb / n / std::fabs(eb) <= eps * 100 &&
                  errc / n / std::fabs(ec) <= eps * 100 &&
                  std::fabs((sum - esum) / esum) <= eps * 1e7;
  if (!ok) {
    std::printf("validation FAILED: a %.3g b %.3g c %.3g dot %.17g vs %.17g\n", erra / n, errb / n,
                errc / n, sum, esum);
    return 1;
  }
  std::printf("# offload-cxx BabelStream on %s, %llu doubles per array, %d iterations, validated\n",
              offload::last_launch_device().c_str(), (unsigned long long)n, iterations);
  for (int k = 0; k < 6; ++k) {
    std::vector<double> t(times[k].begin() + 1, times[k].end());
    const double best = *std::min_element(t.begin(), t.end());
    std::printf("%s %.1f GB/s\n", names[k], weights[k] * sizeof(double) * double(n) / best / 1e9);
  }

  // Launch cost: an empty kernel launched and waited for; 1,000 queued then one wait.
  const int launches = argc > 3 ? std::atoi(argv[3]) : 10000;
  for (int k = 0; k < 100; ++k) offload::launch(empty, {}, std::uint64_t(k));
  offload::synchronize();
  std::vector<double> single;
  for (int k = 0; k < launches; ++k)
    single.push_back(seconds([&] {
      offload::launch(empty, {}, std::uint64_t(k));
      offload::synchronize();
    }));
  std::printf("launch_wait %.2f us\n", median(single) * 1e6);
  std::vector<double> queued;
  offload::queue q;
  for (int rep = 0; rep < 5; ++rep)
    queued.push_back(seconds([&] {
                       for (int k = 0; k < 1000; ++k) q.launch(empty, {}, std::uint64_t(k));
                       q.wait();
                     }) /
                     1000);
  std::printf("launch_queued %.2f us\n", median(queued) * 1e6);
  // The caller's side alone: 1,000 launches enqueued, timed without the wait (which follows).
  std::vector<double> enqueued;
  for (int rep = 0; rep < 5; ++rep) {
    enqueued.push_back(seconds([&] {
                         for (int k = 0; k < 1000; ++k) q.launch(empty, {}, std::uint64_t(k));
                       }) /
                       1000);
    q.wait();
  }
  std::printf("launch_enqueue_only %.2f us\n", median(enqueued) * 1e6);

  // Transfers: 1 GiB (or the array size if smaller) to and from a buffer, pageable host memory.
  // With -DBENCH_CUDART_REFERENCE the same copies through cudaMemcpy, interleaved with ours in
  // this process (bench/cuda/cudart_copies.cpp).
  const std::uint64_t tn = std::min<std::uint64_t>(n, std::uint64_t(1) << 27);
  std::vector<double> host(tn, 1.0);
  std::vector<double> to, from, cuda_to, cuda_from;
  for (int rep = 0; rep < 11; ++rep) {
    to.push_back(seconds([&] { a.copy_from(std::span<const double>(host.data(), tn)); }));
    from.push_back(seconds([&] { a.copy_to(std::span<double>(host.data(), tn)); }));
#ifdef BENCH_CUDART_REFERENCE
    void *device = a.data().get();
    int failures = 0;
    cuda_to.push_back(seconds([&] { failures += bench_cudart_memcpy(device, host.data(), tn * 8, 1); }));
    cuda_from.push_back(seconds([&] { failures += bench_cudart_memcpy(host.data(), device, tn * 8, 0); }));
    if (failures) {  // no CUDA driver (the CPU device): no reference
      cuda_to.clear();
      break;
    }
#endif
  }
  std::printf("h2d_pageable %.1f GB/s\n", tn * 8.0 / median(to) / 1e9);
  std::printf("d2h_pageable %.1f GB/s\n", tn * 8.0 / median(from) / 1e9);
  if (!cuda_to.empty()) {
    std::printf("h2d_pageable_cudart_same_process %.1f GB/s\n", tn * 8.0 / median(cuda_to) / 1e9);
    std::printf("d2h_pageable_cudart_same_process %.1f GB/s\n", tn * 8.0 / median(cuda_from) / 1e9);
  }
}
