// The algorithm of tests/corpus/bincount/port.cpp (histogram of normally distributed floats, for
// 768 .. 768*32 bins), written with OpenMP on the host. The port's two kernels become the two
// natural OpenMP forms: "global atomics" -> `#pragma omp atomic` on the shared histogram;
// "shared-memory atomics" (where 4*nbins <= 48 KiB, as in the port) -> an array reduction (a
// private histogram per thread, summed at the end). time_ms: the sum of the average times of the
// 11 cases, as the port's.
// usage: bincount_omp [number of elements] [repeat]     g++ -O3 -fopenmp
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

static inline int get_bin(float v, float minvalue, float maxvalue, int nbins) {
  int bin = (v - minvalue) * nbins / (maxvalue - minvalue);
  if (bin == nbins) bin--;
  return bin;
}

int main(int argc, char *argv[]) {
  const int n = argc > 1 ? atoi(argv[1]) : 500000;
  const int repeat = argc > 2 ? atoi(argv[2]) : 2;
  if (n <= 0 || repeat <= 0) {
    printf("bincount_omp: FAIL bad arguments\n");
    return 1;
  }
  std::vector<float> input(n);
  std::default_random_engine generator(123);
  std::normal_distribution<float> distribution(5.0, 2.0);
  for (int i = 0; i < n; i++) input[i] = distribution(generator);
  const float minv = *std::min_element(input.begin(), input.end());
  const float maxv = *std::max_element(input.begin(), input.end());
  const float *in = input.data();

  bool ok = true;
  double total_ms = 0;
  for (int nbins = 768; nbins <= 768 * 32; nbins *= 2) {
    std::vector<int> ref(nbins, 0);
    for (int r = 0; r < repeat; r++)
      for (int i = 0; i < n; i++)
        if (in[i] >= minv && in[i] <= maxv) ref[get_bin(in[i], minv, maxv, nbins)]++;

    for (int shared = 0; shared < 2; shared++) {
      if (shared && nbins * (int)sizeof(int) > 48 * 1024) break;
      std::vector<int> output(nbins, 0);
      int *out = output.data();
      auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < repeat; r++) {
        if (!shared) {
#pragma omp parallel for
          for (int i = 0; i < n; i++) {
            const float v = in[i];
            if (v >= minv && v <= maxv) {
              const int bin = get_bin(v, minv, maxv, nbins);
#pragma omp atomic
              out[bin] += 1;
            }
          }
        } else {
#pragma omp parallel for reduction(+ : out[:nbins])
          for (int i = 0; i < n; i++) {
            const float v = in[i];
            if (v >= minv && v <= maxv) out[get_bin(v, minv, maxv, nbins)] += 1;
          }
        }
      }
      auto t1 = std::chrono::steady_clock::now();
      total_ms += std::chrono::duration<double, std::milli>(t1 - t0).count() / repeat;
      if (output != ref) ok = false;
    }
  }
  printf("time_ms: %f (sum of the average times)\n", total_ms);
  printf("bincount_omp: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
