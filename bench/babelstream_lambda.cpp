// bench/babelstream_lambda.cpp — BabelStream (copy, mul, add, triad, nstream, dot) written with
// offload::parallel_for and offload::parallel_reduce (issue 33): the same arrays, rules and
// validation as bench/babelstream.cpp (the kernels' version), so that the two compare line for
// line against CUDA's. Arrays live in device buffers; the lambdas capture their device_ptrs.
// Each kernel is run and waited for `iterations` times; the first iteration is dropped;
// bandwidth from the minimum time. Prints "name value unit" lines for bench/run.sh.
//
//   babelstream_lambda [log2 elements = 27] [iterations = 100]
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

using clock_type = std::chrono::steady_clock;

template <class F> double seconds(F &&f) {
  auto t0 = clock_type::now();
  f();
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

int main(int argc, char **argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 27;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 100;
  const std::uint64_t n = std::uint64_t(1) << log2n;
  const double start_a = 0.1, start_b = 0.2, start_c = 0.0, scalar = 0.4;
  offload::buffer<double> ba(n), bb(n), bc(n);
  {
    std::vector<double> init(n, start_a);
    ba.copy_from(init);
    std::fill(init.begin(), init.end(), start_b);
    bb.copy_from(init);
    std::fill(init.begin(), init.end(), start_c);
    bc.copy_from(init);
  }
  const offload::device_ptr<double> a = ba.data(), b = bb.data(), c = bc.data();
  const offload::range all{n};
  const char *names[6] = {"copy", "mul", "add", "triad", "nstream", "dot"};
  const double weights[6] = {2, 2, 3, 3, 4, 2};
  std::vector<double> times[6];
  double sum = 0;
  for (int k = 0; k < iterations; ++k) {
    // Lambdas on device pointers return before their kernels end (as CUDA's launches): each is
    // timed to its end, as BabelStream's CUDA version synchronises after each kernel.
    auto timed = [&](auto run) {
      return seconds([&] {
        run();
        offload::synchronize();
      });
    };
    times[0].push_back(timed([&] { offload::parallel_for(all, [=](std::size_t i) { c[i] = a[i]; }); }));
    times[1].push_back(timed([&] { offload::parallel_for(all, [=](std::size_t i) { b[i] = scalar * c[i]; }); }));
    times[2].push_back(timed([&] { offload::parallel_for(all, [=](std::size_t i) { c[i] = a[i] + b[i]; }); }));
    times[3].push_back(timed([&] { offload::parallel_for(all, [=](std::size_t i) { a[i] = b[i] + scalar * c[i]; }); }));
    times[4].push_back(timed([&] { offload::parallel_for(all, [=](std::size_t i) { a[i] += b[i] + scalar * c[i]; }); }));
    times[5].push_back(seconds([&] {
      sum = offload::parallel_reduce(all, 0.0, [=](std::size_t i) { return a[i] * b[i]; });
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
  ba.copy_to(ha);
  bb.copy_to(hb);
  bc.copy_to(hc);
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
  std::printf("# offload-cxx BabelStream (lambdas) on %s, %llu doubles per array, %d iterations, "
              "validated\n",
              offload::last_launch_device().c_str(), (unsigned long long)n, iterations);
  for (int k = 0; k < 6; ++k) {
    std::vector<double> t(times[k].begin() + 1, times[k].end());
    const double best = *std::min_element(t.begin(), t.end());
    std::printf("%s %.1f GB/s\n", names[k], weights[k] * sizeof(double) * double(n) / best / 1e9);
  }
}
