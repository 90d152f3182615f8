// bench/cuda/api_paths.cu — the CUDA twin of bench/api_paths.cpp: the same rows, in the same
// order, with the same kernels, sizes, repetition counts, warm-up, checks and output format
// ("row median_us"), each row written as a CUDA programmer would write that operation (the
// table at the top of bench/api_paths.cpp pairs them). "Queue" rows run on a stream made with
// cudaStreamCreate, plain launches on the default stream; host memory is pageable
// (std::vector), as on the offload-cxx side. Events are made once with cudaEventCreate (timing
// enabled, as offload::event can be timed) and recorded again each time.
//   nvcc -O2 -arch=sm_90 api_paths.cu -o api_paths_cuda
//   api_paths_cuda [scale = 1]     (exit status 2, with a message, where no CUDA device is)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t check_error_ = (call);                                                             \
    if (check_error_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "api_paths_cuda: CUDA error %s at %s:%d\n",                             \
                   cudaGetErrorString(check_error_), __FILE__, __LINE__);                          \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

__global__ void empty(int) {}

__global__ void mark(int *flag, int v) {
  if (blockIdx.x * size_t(blockDim.x) + threadIdx.x == 0) flag[0] = v;
}

__global__ void add_one(float *v, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) v[i] += 1.0f;
}

__global__ void saxpy(float a, const float *x, float *y, uint64_t n) {
  uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

namespace {

using clock_type = std::chrono::steady_clock;

constexpr size_t small_floats = 1024;             // 4 KiB
constexpr size_t large_floats = size_t(16) << 20;  // 64 MiB
constexpr size_t saxpy_floats = size_t(1) << 20;   // 1 Mi floats

double scale = 1.0;

int reps(int n) { return std::max(3, int(n * scale)); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// As bench/api_paths.cpp: a tenth of `count` (at least 3) untimed, then `count` timed alone.
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
  CHECK(cudaGetLastError());  // a launch that failed to start fails its row
  if (!ok) {
    std::fprintf(stderr, "api_paths_cuda: check failed after row %s: %s\n", row, what);
    std::exit(1);
  }
}

bool holds(const float *d, size_t size, size_t n, float expected) {
  std::vector<float> h(size);
  CHECK(cudaMemcpy(h.data(), d, size * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < size; ++i)
    if (h[i] != (i < n ? expected : 0.0f)) return false;
  return true;
}

int flag_value(const int *flag) {
  int v = -1;
  CHECK(cudaMemcpy(&v, flag, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

void fill_pattern(std::vector<float> &v, int seed) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = float((i * 7 + size_t(seed)) % 65521);
}

}  // namespace

int main(int argc, char **argv) {
  scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  if (!(scale > 0)) {
    std::fprintf(stderr, "usage: api_paths_cuda [scale > 0]\n");
    return 2;
  }
  int devices = 0;
  if (cudaError_t e = cudaGetDeviceCount(&devices); e != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "api_paths_cuda: no usable CUDA device (%s): nothing measured\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    return 2;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int *flag;
  CHECK(cudaMalloc(&flag, sizeof(int)));
  empty<<<1, 1>>>(0);  // start the device (context, module) before any row
  CHECK(cudaDeviceSynchronize());
  std::printf("# CUDA api_paths on %s, scale %g\n", prop.name, scale);

  // 1-3: an empty kernel on one thread, launched and waited for three ways.
  {
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    report("queue_launch_wait", median_us(reps(10000), [&] {
             empty<<<1, 1, 0, s>>>(1);
             CHECK(cudaStreamSynchronize(s));
           }));
    mark<<<1, 1, 0, s>>>(flag, 1);
    CHECK(cudaStreamSynchronize(s));
    check(flag_value(flag) == 1, "queue_launch_wait", "the kernel had not run after the wait");

    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    report("queue_launch_event_wait", median_us(reps(10000), [&] {
             empty<<<1, 1, 0, s>>>(1);
             CHECK(cudaEventRecord(e, s));
             CHECK(cudaEventSynchronize(e));
           }));
    mark<<<1, 1, 0, s>>>(flag, 2);
    CHECK(cudaEventRecord(e, s));
    CHECK(cudaEventSynchronize(e));
    check(flag_value(flag) == 2, "queue_launch_event_wait",
          "the kernel had not run after the wait");
    CHECK(cudaEventDestroy(e));
    CHECK(cudaStreamDestroy(s));
  }
  report("launch_synchronize", median_us(reps(10000), [&] {
           empty<<<1, 1>>>(1);
           CHECK(cudaDeviceSynchronize());
         }));
  mark<<<1, 1>>>(flag, 3);
  CHECK(cudaDeviceSynchronize());
  check(flag_value(flag) == 3, "launch_synchronize", "the kernel had not run");

  // 4: copies between pageable host memory and device memory, on a stream (+ wait) and
  // synchronous (cudaMemcpy).
  for (const size_t n : {small_floats, large_floats}) {
    const bool small = n == small_floats;
    const size_t bytes = n * sizeof(float);
    const int count = small ? reps(5000) : reps(50);
    float *b;
    CHECK(cudaMalloc(&b, bytes));
    std::vector<float> host(n), back(n), pattern(n);
    {
      cudaStream_t s;
      CHECK(cudaStreamCreate(&s));
      const char *row = small ? "queue_copy_h2d_4k" : "queue_copy_h2d_64m";
      fill_pattern(host, 1);
      report(row, median_us(count, [&] {
               CHECK(cudaMemcpyAsync(b, host.data(), bytes, cudaMemcpyHostToDevice, s));
               CHECK(cudaStreamSynchronize(s));
             }));
      CHECK(cudaMemcpy(back.data(), b, bytes, cudaMemcpyDeviceToHost));
      check(back == host, row, "the device does not hold what was copied in");

      row = small ? "queue_copy_d2h_4k" : "queue_copy_d2h_64m";
      fill_pattern(pattern, 2);
      CHECK(cudaMemcpy(b, pattern.data(), bytes, cudaMemcpyHostToDevice));
      std::fill(host.begin(), host.end(), 0.0f);
      report(row, median_us(count, [&] {
               CHECK(cudaMemcpyAsync(host.data(), b, bytes, cudaMemcpyDeviceToHost, s));
               CHECK(cudaStreamSynchronize(s));
             }));
      check(host == pattern, row, "the host does not hold what the device held");
      CHECK(cudaStreamDestroy(s));
    }
    const char *row = small ? "buffer_copy_from_4k" : "buffer_copy_from_64m";
    fill_pattern(host, 3);
    report(row, median_us(count, [&] {
             CHECK(cudaMemcpy(b, host.data(), bytes, cudaMemcpyHostToDevice));
           }));
    CHECK(cudaMemcpy(back.data(), b, bytes, cudaMemcpyDeviceToHost));
    check(back == host, row, "the device does not hold what was copied in");

    row = small ? "buffer_copy_to_4k" : "buffer_copy_to_64m";
    fill_pattern(pattern, 4);
    CHECK(cudaMemcpy(b, pattern.data(), bytes, cudaMemcpyHostToDevice));
    std::fill(host.begin(), host.end(), 0.0f);
    report(row, median_us(count, [&] {
             CHECK(cudaMemcpy(host.data(), b, bytes, cudaMemcpyDeviceToHost));
           }));
    check(host == pattern, row, "the host does not hold what the device held");

    row = small ? "buffer_fill_4k" : "buffer_fill_64m";
    report(row, median_us(count, [&] { CHECK(cudaMemset(b, 0, bytes)); }));
    CHECK(cudaMemcpy(host.data(), b, bytes, cudaMemcpyDeviceToHost));
    check(std::all_of(host.begin(), host.end(), [](float x) { return x == 0.0f; }), row,
          "the device does not hold the value set");
    CHECK(cudaFree(b));
  }

  // 5: what a data region mapping one array to+from does: allocate, copy in, copy out, free.
  // The check does it once more with a launch between the copies.
  for (const size_t n : {small_floats, large_floats}) {
    const bool small = n == small_floats;
    const size_t bytes = n * sizeof(float);
    const char *row = small ? "data_region_4k" : "data_region_64m";
    std::vector<float> v(n);
    fill_pattern(v, 5);
    const std::vector<float> before = v;
    report(row, median_us(small ? reps(5000) : reps(30), [&] {
             float *d;
             CHECK(cudaMalloc(&d, bytes));
             CHECK(cudaMemcpy(d, v.data(), bytes, cudaMemcpyHostToDevice));
             CHECK(cudaMemcpy(v.data(), d, bytes, cudaMemcpyDeviceToHost));
             CHECK(cudaFree(d));
           }));
    check(v == before, row, "the copies changed the host data");
    {
      float *d;
      CHECK(cudaMalloc(&d, bytes));
      CHECK(cudaMemcpy(d, v.data(), bytes, cudaMemcpyHostToDevice));
      add_one<<<(n + 255) / 256, 256>>>(d, n);
      CHECK(cudaMemcpy(v.data(), d, bytes, cudaMemcpyDeviceToHost));
      CHECK(cudaFree(d));
    }
    bool ok = true;
    for (size_t i = 0; i < n; ++i) ok = ok && v[i] == before[i] + 1.0f;
    check(ok, row, "a launch between the copies did not reach the host");
  }

  // What a launch that maps a span to+from does: allocate, copy in, kernel, copy out, free.
  {
    std::vector<float> v(small_floats, 0.0f);
    const size_t bytes = small_floats * sizeof(float);
    int launches = 0;
    report("launch_mapped_span_4k", median_us(reps(5000), [&] {
             float *d;
             CHECK(cudaMalloc(&d, bytes));
             CHECK(cudaMemcpy(d, v.data(), bytes, cudaMemcpyHostToDevice));
             add_one<<<small_floats / 256, 256>>>(d, small_floats);
             CHECK(cudaMemcpy(v.data(), d, bytes, cudaMemcpyDeviceToHost));
             CHECK(cudaFree(d));
             ++launches;
           }));
    check(v.front() == float(launches) && v.back() == float(launches), "launch_mapped_span_4k",
          "not every launch's result came back");
  }

  // 6 and 8: saxpy (y += 1 * x, x = 1): y holds the number of launches, 0 past the range.
  float *x, *y;
  CHECK(cudaMalloc(&x, saxpy_floats * sizeof(float)));
  CHECK(cudaMalloc(&y, saxpy_floats * sizeof(float)));
  {
    const std::vector<float> ones(saxpy_floats, 1.0f);
    CHECK(cudaMemcpy(x, ones.data(), saxpy_floats * sizeof(float), cudaMemcpyHostToDevice));
  }
  const std::vector<float> zeros(saxpy_floats, 0.0f);
  auto zero_y = [&] {
    CHECK(cudaMemcpy(y, zeros.data(), saxpy_floats * sizeof(float), cudaMemcpyHostToDevice));
  };

  // 6: the grid offload::range{n} gets, computed by hand once: the occupancy calculator's block
  // size, cut to whole warps for a range smaller than a block (runtime/launch_checks.cpp).
  int min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, saxpy, 0, 0));
  auto threads_for = [&](uint64_t n) {
    uint64_t t = std::min<uint64_t>(block, 1024);
    return n < t ? std::min<uint64_t>(t, (n + 31) / 32 * 32) : t;
  };
  auto blocks_for = [&](uint64_t n) { return (n + threads_for(n) - 1) / threads_for(n); };
  std::printf("# range shapes: n=1000 %llux%llu, n=%zu %llux%llu\n",
              (unsigned long long)blocks_for(1000), (unsigned long long)threads_for(1000),
              saxpy_floats, (unsigned long long)blocks_for(saxpy_floats),
              (unsigned long long)threads_for(saxpy_floats));
  for (const uint64_t n : {uint64_t(1000), uint64_t(saxpy_floats)}) {
    const char *row = n == 1000 ? "range_launch_1000" : "range_launch_1m";
    const unsigned grid = unsigned(blocks_for(n)), threads = unsigned(threads_for(n));
    zero_y();
    int launches = 0;
    report(row, median_us(reps(5000), [&] {
             saxpy<<<grid, threads>>>(1.0f, x, y, n);
             CHECK(cudaDeviceSynchronize());
             ++launches;
           }));
    check(holds(y, saxpy_floats, n, float(launches)), row,
          "y is not the number of launches over [0, n)");
  }
  {
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    const unsigned grid = unsigned(blocks_for(saxpy_floats)),
                   threads = unsigned(threads_for(saxpy_floats));
    zero_y();
    int launches = 0;
    report("queue_range_launch_1m", median_us(reps(5000), [&] {
             saxpy<<<grid, threads, 0, s>>>(1.0f, x, y, saxpy_floats);
             CHECK(cudaStreamSynchronize(s));
             ++launches;
           }));
    check(holds(y, saxpy_floats, saxpy_floats, float(launches)), "queue_range_launch_1m",
          "y is not the number of launches");
    CHECK(cudaStreamDestroy(s));
  }

  // 7: device memory allocated and released.
  for (const size_t n : {size_t(256), large_floats}) {
    const char *row = n == 256 ? "buffer_1k" : "buffer_64m";
    bool all = true;
    report(row, median_us(n == 256 ? reps(5000) : reps(500), [&] {
             float *b = nullptr;
             CHECK(cudaMalloc(&b, n * sizeof(float)));
             all = all && b;
             CHECK(cudaFree(b));
           }));
    check(all, row, "an allocation had no memory");
  }
  {
    cudaStream_t s;  // alive and idle, as the offload::queue of this row
    CHECK(cudaStreamCreate(&s));
    bool all = true;
    report("buffer_1k_queue_alive", median_us(reps(5000), [&] {
             float *b = nullptr;
             CHECK(cudaMalloc(&b, 256 * sizeof(float)));
             all = all && b;
             CHECK(cudaFree(b));
           }));
    check(all, "buffer_1k_queue_alive", "an allocation had no memory");
    CHECK(cudaStreamDestroy(s));
  }

  // 8: a kernel of a few microseconds, back to back (per launch) and waited for each time.
  const unsigned grid = saxpy_floats / 256;
  const int batch = std::max(10, int(10000 * scale));
  std::printf("# batch %d launches\n", batch);
  {
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    zero_y();
    int launches = 0;
    report("saxpy_queue_batch", median_us(reps(5), [&] {
             for (int k = 0; k < batch; ++k) saxpy<<<grid, 256, 0, s>>>(1.0f, x, y, saxpy_floats);
             CHECK(cudaStreamSynchronize(s));
             launches += batch;
           }) / batch);
    check(holds(y, saxpy_floats, saxpy_floats, float(launches)), "saxpy_queue_batch",
          "y is not the number of launches");

    zero_y();
    launches = 0;
    report("saxpy_queue_each_wait", median_us(reps(5000), [&] {
             saxpy<<<grid, 256, 0, s>>>(1.0f, x, y, saxpy_floats);
             CHECK(cudaStreamSynchronize(s));
             ++launches;
           }));
    check(holds(y, saxpy_floats, saxpy_floats, float(launches)), "saxpy_queue_each_wait",
          "y is not the number of launches");
    CHECK(cudaStreamDestroy(s));
  }
  {
    zero_y();
    int launches = 0;
    report("saxpy_launch_batch", median_us(reps(5), [&] {
             for (int k = 0; k < batch; ++k) saxpy<<<grid, 256>>>(1.0f, x, y, saxpy_floats);
             CHECK(cudaDeviceSynchronize());
             launches += batch;
           }) / batch);
    check(holds(y, saxpy_floats, saxpy_floats, float(launches)), "saxpy_launch_batch",
          "y is not the number of launches");

    zero_y();
    launches = 0;
    report("saxpy_launch_each_sync", median_us(reps(5000), [&] {
             saxpy<<<grid, 256>>>(1.0f, x, y, saxpy_floats);
             CHECK(cudaDeviceSynchronize());
             ++launches;
           }));
    check(holds(y, saxpy_floats, saxpy_floats, float(launches)), "saxpy_launch_each_sync",
          "y is not the number of launches");
  }
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(flag));
  std::printf("# all checks passed\n");
  return 0;
}
