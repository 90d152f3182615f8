// The algorithm of tests/corpus/scan/port.cpp (exclusive scan of each block of N elements, for
// char/short/int/long and N = 128 .. 2048), written with OpenMP on the host: blocks split among
// threads, each block scanned serially. The port times two kernels (plain and bank-conflict-
// avoiding Blelloch scans, the same result) `repeat` times each per type and N; the host has one
// natural form, so it runs that twice as often. time_ms: the total, as the port's.
// usage: scan_omp [number of elements] [repeat]     g++ -O3 -fopenmp
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

static int failures = 0;
static double total_ms = 0;

template <typename T>
static void scan_blocks(int64_t nblocks, int N, T *out, const T *in) {
#pragma omp parallel for
  for (int64_t b = 0; b < nblocks; b++) {
    const T *gi = in + b * N;
    T *go = out + b * N;
    T acc = 0;
    for (int i = 0; i < N; i++) {
      go[i] = acc;
      acc += gi[i];
    }
  }
}

template <typename T>
static void runTest(int N, int64_t n, int repeat) {
  int64_t num_blocks = (n + N - 1) / N;
  int64_t nelems = num_blocks * N;
  std::vector<T> in(nelems), cpu_out(nelems);
  // the output untouched before the first kernel, as the port's device buffer; zeroed before
  // the second, as the port's
  T *out = static_cast<T *>(malloc(sizeof(T) * nelems));
  srand(123);
  for (int64_t i = 0; i < nelems; i++) in[i] = rand() % 5 + 1;
  for (int64_t b = 0; b < num_blocks; b++) {  // the port's reference
    T *o = &cpu_out[b * N];
    const T *t = &in[b * N];
    o[0] = 0;
    for (int i = 1; i < N; i++) o[i] = o[i - 1] + t[i - 1];
  }
  for (int kernel = 0; kernel < 2; kernel++) {
    if (kernel == 1) std::fill(out, out + nelems, T(0));
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < repeat; r++) scan_blocks<T>(num_blocks, N, out, in.data());
    auto t1 = std::chrono::steady_clock::now();
    total_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    if (memcmp(out, cpu_out.data(), nelems * sizeof(T))) ++failures;
  }
  free(out);
}

int main(int argc, char *argv[]) {
  const int64_t n = argc > 1 ? atol(argv[1]) : 100000;
  const int repeat = argc > 2 ? atoi(argv[2]) : 1;
  if (n <= 0 || repeat <= 0) {
    printf("scan_omp: FAIL bad arguments\n");
    return 1;
  }
  for (int N = 128; N <= 2048; N *= 2) {
    runTest<char>(N, n, repeat);
    runTest<short>(N, n, repeat);
    runTest<int>(N, n, repeat);
    runTest<long>(N, n, repeat);
  }
  printf("time_ms: %f (all kernels)\n", total_ms);
  if (failures) {
    printf("scan_omp: FAIL %d of 40 results differ\n", failures);
    return 1;
  }
  printf("scan_omp: PASS\n");
  return 0;
}
