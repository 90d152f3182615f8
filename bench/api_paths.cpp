// bench/api_paths.cpp — every public way an offload-cxx program launches, copies and waits,
// each timed against its CUDA twin (bench/cuda/api_paths.cu: the same kernels, sizes, row names
// and order). Issue 30, item 1. Each row is the median of many repetitions, in microseconds per
// operation; after each row the program checks that the operation did what its twin does (the
// data moved, every launch ran, the wait waited) and exits with status 1 if not.
//
// Rows (one operation; its CUDA twin after "|"):
//   queue_launch_wait        q.launch(empty, {1x1}, 1); q.wait()
//                            | empty<<<1, 1, 0, s>>>(1); cudaStreamSynchronize(s)
//   queue_launch_event_wait  q.launch(empty, {1x1}, 1); auto e = q.record(); e.wait()
//                            | <<<..., s>>>; cudaEventRecord(e, s); cudaEventSynchronize(e)
//   launch_synchronize       offload::launch(empty, {1x1}, 1); offload::synchronize()
//                            | empty<<<1, 1>>>(1); cudaDeviceSynchronize()
//   queue_copy_h2d_{4k,64m}  q.copy(buffer, host); q.wait()
//   queue_copy_d2h_{4k,64m}  q.copy(host, buffer); q.wait()
//                            | cudaMemcpyAsync(..., s); cudaStreamSynchronize(s)
//   buffer_copy_from_*,      b.copy_from(host), b.copy_to(host)
//   buffer_copy_to_*         | cudaMemcpy
//   buffer_fill_{4k,64m}     b.fill(0.0f) | cudaMemset(b, 0, bytes) (both may return before the
//                            device is done; later work waits for them)
//   data_region_{4k,64m}     { offload::data_region r({}, std::span(v)); }  (to+from)
//                            | cudaMalloc; cudaMemcpy in; cudaMemcpy out; cudaFree
//   launch_mapped_span_4k    offload::launch(add_one, cfg, std::span(v))  (maps to+from, waits)
//                            | cudaMalloc; cudaMemcpy in; <<<>>>; cudaMemcpy out; cudaFree
//   range_launch_{1000,1m}   offload::launch(saxpy, offload::range{n}, ...); synchronize()
//                            | saxpy<<<grid, block>>> with the occupancy calculator's block
//                            size, computed once by hand; cudaDeviceSynchronize()
//   queue_range_launch_1m    q.launch(saxpy, offload::range{n}, ...); q.wait()
//                            | the same on s; cudaStreamSynchronize(s)
//   buffer_{1k,64m}          offload::buffer<float> b(n), destroyed | cudaMalloc; cudaFree
//   buffer_1k_queue_alive    the same while an idle offload::queue exists
//                            | the same while a stream exists
//   saxpy_queue_batch        10,000 q.launch(saxpy, ...), then q.wait(); per launch
//                            | 10,000 saxpy<<<..., s>>>, then cudaStreamSynchronize(s)
//   saxpy_queue_each_wait    q.launch(saxpy, ...); q.wait()
//                            | saxpy<<<..., s>>>; cudaStreamSynchronize(s)
//   saxpy_launch_batch       10,000 offload::launch(saxpy, ...), then synchronize(); per launch
//                            | 10,000 saxpy<<<...>>>, then cudaDeviceSynchronize()
//   saxpy_launch_each_sync   offload::launch(saxpy, ...); offload::synchronize()
//                            | saxpy<<<...>>>; cudaDeviceSynchronize()
//
// Sizes: 4k = 4 KiB (1,024 floats), 64m = 64 MiB (16 Mi floats), 1k = 1 KiB; saxpy runs over
// 1 Mi floats (12 MiB moved, a few microseconds on an H200) in 4,096 workgroups of 256. Host
// memory is pageable on both sides (std::vector): offload-cxx has no public page-locked host
// allocation. Every row is warmed up (a tenth of its repetitions, at least 3,
// untimed) before it is timed.
//
//   api_paths [scale = 1]     scale multiplies every repetition count and the batch of 10,000
//                             (e.g. 0.01 for a quick run on the CPU device: OFFLOAD_DEVICE=cpu)
// Prints "row median_us" lines (and "#" comments), as bench/api_paths.sh reads them.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

OFFLOAD_KERNEL void empty(int) {}

// One work-item writes `v`: shows that a launch ran, and ran before the wait returned.
OFFLOAD_KERNEL void mark(offload::device_ptr<int> flag, int v) {
  if (offload::global_id_x() == 0) flag[0] = v;
}

OFFLOAD_KERNEL void add_one(std::span<float> v) {
  if (std::size_t i = offload::global_id_x(); i < v.size()) v[i] += 1.0f;
}

OFFLOAD_KERNEL void saxpy(float a, offload::device_ptr<const float> x, offload::device_ptr<float> y,
                          std::uint64_t n) {
  if (std::uint64_t i = offload::global_id_x(); i < n) y[i] = a * x[i] + y[i];
}

namespace {

using clock_type = std::chrono::steady_clock;

constexpr std::size_t small_floats = 1024;                  // 4 KiB
constexpr std::size_t large_floats = std::size_t(16) << 20;  // 64 MiB
constexpr std::size_t saxpy_floats = std::size_t(1) << 20;   // 1 Mi floats

double scale = 1.0;

/// `n` repetitions scaled down (or up) by the command line, at least 3.
int reps(int n) { return std::max(3, int(n * scale)); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Runs `op` a tenth of `count` times (at least 3) untimed, then `count` times, each timed
/// alone; returns the median in microseconds.
template <class F> double median_us(int count, F &&op) {
  for (int k = 0; k < std::max(3, count / 10); ++k) op();
  std::vector<double> t(count);
  for (int k = 0; k < count; ++k) {
    const auto t0 = clock_type::now();
    op();
    t[k] = std::chrono::duration<double, std::micro>(clock_type::now() - t0).count();
  }
  return median(std::move(t));
}

void report(const char *row, double us) { std::printf("%s %.3f\n", row, us); }

void check(bool ok, const char *row, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "api_paths: check failed after row %s: %s\n", row, what);
    std::exit(1);
  }
}

/// Whether every element of `b` is `expected` in [0, n) and 0 in [n, size).
bool holds(const offload::buffer<float> &b, std::size_t n, float expected) {
  std::vector<float> h(b.size());
  b.copy_to(h);
  for (std::size_t i = 0; i < h.size(); ++i)
    if (h[i] != (i < n ? expected : 0.0f)) return false;
  return true;
}

int flag_value(const offload::buffer<int> &flag) {
  int v = -1;
  flag.copy_to(std::span<int>(&v, 1));
  return v;
}

/// A recognisable pattern for copies: distinct per element and per `seed`, exact in float.
void fill_pattern(std::vector<float> &v, int seed) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = float((i * 7 + std::size_t(seed)) % 65521);
}

}  // namespace

int main(int argc, char **argv) try {
  scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  if (!(scale > 0)) {
    std::fprintf(stderr, "usage: api_paths [scale > 0]\n");
    return 2;
  }
  const offload::launch_config one{.workgroups = {1}, .threads = {1}};
  offload::buffer<int> flag(1);
  offload::launch(empty, one, 0);  // start the device (context, module) before any row
  offload::synchronize();
  std::printf("# offload-cxx api_paths on %s, scale %g\n", offload::last_launch_device().c_str(),
              scale);

  // 1-3: an empty kernel on one work-item, launched and waited for three ways.
  {
    offload::queue q;
    report("queue_launch_wait", median_us(reps(10000), [&] {
             q.launch(empty, one, 1);
             q.wait();
           }));
    q.launch(mark, one, flag.data(), 1);
    q.wait();
    check(flag_value(flag) == 1, "queue_launch_wait", "the kernel had not run after q.wait()");

    report("queue_launch_event_wait", median_us(reps(10000), [&] {
             q.launch(empty, one, 1);
             offload::event e = q.record();
             e.wait();
           }));
    q.launch(mark, one, flag.data(), 2);
    q.record().wait();
    check(flag_value(flag) == 2, "queue_launch_event_wait",
          "the kernel had not run after e.wait()");
    q.wait();
  }
  report("launch_synchronize", median_us(reps(10000), [&] {
           offload::launch(empty, one, 1);
           offload::synchronize();
         }));
  offload::launch(mark, one, flag.data(), 3);
  offload::synchronize();
  check(flag_value(flag) == 3, "launch_synchronize", "the kernel had not run");

  // 4: copies between pageable host memory and a buffer, on a queue (+ wait) and synchronous.
  // Host-to-device rows copy a pattern in, checked by reading the buffer back; device-to-host
  // rows copy a pattern out of the buffer into zeroed host memory.
  for (const std::size_t n : {small_floats, large_floats}) {
    const bool small = n == small_floats;
    const int count = small ? reps(5000) : reps(50);
    offload::buffer<float> b(n);
    std::vector<float> host(n), back(n), pattern(n);
    {
      offload::queue q;
      const char *row = small ? "queue_copy_h2d_4k" : "queue_copy_h2d_64m";
      fill_pattern(host, 1);
      report(row, median_us(count, [&] {
               q.copy(b, std::span<const float>(host));
               q.wait();
             }));
      b.copy_to(back);
      check(back == host, row, "the buffer does not hold what was copied in");

      row = small ? "queue_copy_d2h_4k" : "queue_copy_d2h_64m";
      fill_pattern(pattern, 2);
      b.copy_from(pattern);
      std::fill(host.begin(), host.end(), 0.0f);
      report(row, median_us(count, [&] {
               q.copy(std::span<float>(host), b);
               q.wait();
             }));
      check(host == pattern, row, "the host does not hold what the buffer held");
    }
    const char *row = small ? "buffer_copy_from_4k" : "buffer_copy_from_64m";
    fill_pattern(host, 3);
    report(row, median_us(count, [&] { b.copy_from(host); }));
    b.copy_to(back);
    check(back == host, row, "the buffer does not hold what was copied in");

    row = small ? "buffer_copy_to_4k" : "buffer_copy_to_64m";
    fill_pattern(pattern, 4);
    b.copy_from(pattern);
    std::fill(host.begin(), host.end(), 0.0f);
    report(row, median_us(count, [&] { b.copy_to(host); }));
    check(host == pattern, row, "the host does not hold what the buffer held");

    row = small ? "buffer_fill_4k" : "buffer_fill_64m";
    report(row, median_us(count, [&] { b.fill(0.0f); }));
    b.copy_to(host);
    check(std::all_of(host.begin(), host.end(), [](float x) { return x == 0.0f; }), row,
          "the buffer does not hold the value filled");
  }

  // 5: a data region mapping one array to+from, opened and closed (allocation, copy in, copy
  // out, release). The check opens one more with a launch inside: the kernel sees the data the
  // region copied in, and the host gets its result back at the region's end.
  for (const std::size_t n : {small_floats, large_floats}) {
    const bool small = n == small_floats;
    const char *row = small ? "data_region_4k" : "data_region_64m";
    std::vector<float> v(n);
    fill_pattern(v, 5);
    const std::vector<float> before = v;
    report(row, median_us(small ? reps(5000) : reps(30), [&] {
             offload::data_region region({}, std::span(v));
           }));
    check(v == before, row, "the region changed the host data");
    {
      offload::data_region region({}, std::span(v));
      offload::launch(add_one, {.workgroups = {(n + 255) / 256}, .threads = {256}}, std::span(v));
    }
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) ok = ok && v[i] == before[i] + 1.0f;
    check(ok, row, "a launch inside the region did not reach the host at its end");
  }

  // A launch that maps a span to+from itself (the README's first example): allocation, copy
  // in, kernel, copy out, release; it waits for the kernel as the copy back needs it.
  {
    std::vector<float> v(small_floats, 0.0f);
    int launches = 0;
    report("launch_mapped_span_4k", median_us(reps(5000), [&] {
             offload::launch(add_one, {.workgroups = {small_floats / 256}, .threads = {256}},
                             std::span(v));
             ++launches;
           }));
    check(v.front() == float(launches) && v.back() == float(launches), "launch_mapped_span_4k",
          "not every launch's result came back");
  }

  // 6 and 8: saxpy (y += 1 * x, x = 1) on buffers: each launch adds 1 to the elements it
  // covers, so y holds the number of launches, and 0 past the range.
  offload::buffer<float> x(saxpy_floats), y(saxpy_floats);
  x.copy_from(std::vector<float>(saxpy_floats, 1.0f));
  const std::vector<float> zeros(saxpy_floats, 0.0f);
  const offload::device_ptr<const float> cx = x.data();

  // 6: launches over offload::range{n} (the device picks the workgroup size).
  for (const std::uint64_t n : {std::uint64_t(1000), std::uint64_t(saxpy_floats)}) {
    const char *row = n == 1000 ? "range_launch_1000" : "range_launch_1m";
    y.copy_from(zeros);
    int launches = 0;
    report(row, median_us(reps(5000), [&] {
             offload::launch(saxpy, offload::range{n}, 1.0f, cx, y.data(), n);
             offload::synchronize();
             ++launches;
           }));
    check(holds(y, n, float(launches)), row, "y is not the number of launches over [0, n)");
  }
  {
    offload::queue q;
    y.copy_from(zeros);
    int launches = 0;
    report("queue_range_launch_1m", median_us(reps(5000), [&] {
             q.launch(saxpy, offload::range{saxpy_floats}, 1.0f, cx, y.data(),
                      std::uint64_t(saxpy_floats));
             q.wait();
             ++launches;
           }));
    check(holds(y, saxpy_floats, float(launches)), "queue_range_launch_1m",
          "y is not the number of launches");
  }

  // 7: device memory allocated and released.
  for (const std::size_t n : {std::size_t(256), large_floats}) {
    const char *row = n == 256 ? "buffer_1k" : "buffer_64m";
    bool all = true;
    report(row, median_us(n == 256 ? reps(5000) : reps(500), [&] {
             offload::buffer<float> b(n);
             all = all && b.data() && b.size() == n;
           }));
    check(all, row, "a buffer had no memory");
  }
  {
    // A buffer's release waits for the device's queues (as cudaFree waits for the device):
    // the cost of that with one idle queue alive.
    offload::queue q;
    bool all = true;
    report("buffer_1k_queue_alive", median_us(reps(5000), [&] {
             offload::buffer<float> b(256);
             all = all && b.data();
           }));
    check(all, "buffer_1k_queue_alive", "a buffer had no memory");
  }

  // 8: a kernel of a few microseconds, back to back (per launch) and waited for each time.
  const offload::launch_config cfg{.workgroups = {saxpy_floats / 256}, .threads = {256}};
  const int batch = std::max(10, int(10000 * scale));
  std::printf("# batch %d launches\n", batch);
  {
    offload::queue q;
    y.copy_from(zeros);
    int launches = 0;
    report("saxpy_queue_batch", median_us(reps(5), [&] {
             for (int k = 0; k < batch; ++k)
               q.launch(saxpy, cfg, 1.0f, cx, y.data(), std::uint64_t(saxpy_floats));
             q.wait();
             launches += batch;
           }) / batch);
    check(holds(y, saxpy_floats, float(launches)), "saxpy_queue_batch",
          "y is not the number of launches");

    y.copy_from(zeros);
    launches = 0;
    report("saxpy_queue_each_wait", median_us(reps(5000), [&] {
             q.launch(saxpy, cfg, 1.0f, cx, y.data(), std::uint64_t(saxpy_floats));
             q.wait();
             ++launches;
           }));
    check(holds(y, saxpy_floats, float(launches)), "saxpy_queue_each_wait",
          "y is not the number of launches");
  }
  {
    y.copy_from(zeros);
    int launches = 0;
    report("saxpy_launch_batch", median_us(reps(5), [&] {
             for (int k = 0; k < batch; ++k)
               offload::launch(saxpy, cfg, 1.0f, cx, y.data(), std::uint64_t(saxpy_floats));
             offload::synchronize();
             launches += batch;
           }) / batch);
    check(holds(y, saxpy_floats, float(launches)), "saxpy_launch_batch",
          "y is not the number of launches");

    y.copy_from(zeros);
    launches = 0;
    report("saxpy_launch_each_sync", median_us(reps(5000), [&] {
             offload::launch(saxpy, cfg, 1.0f, cx, y.data(), std::uint64_t(saxpy_floats));
             offload::synchronize();
             ++launches;
           }));
    check(holds(y, saxpy_floats, float(launches)), "saxpy_launch_each_sync",
          "y is not the number of launches");
  }
  std::printf("# all checks passed\n");
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "api_paths: %s\n", e.what());
  return 1;
}
