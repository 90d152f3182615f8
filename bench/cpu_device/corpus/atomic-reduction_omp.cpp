// The algorithm of tests/corpus/atomic-reduction/port.cpp (sum of an int array), written with
// OpenMP on the host: `#pragma omp parallel for reduction(+:sum)`, in five forms that add 1, 2, 4,
// 8 or 16 elements per iteration, as the port's five kernels. The port runs each kernel for four
// block sizes, which the host has no use for, so each form runs four times. time_ms: the total of
// all 20 benchmarks of `repeat` runs each (after an untimed warm-up of `repeat` runs), as the
// port's.
// usage: atomic-reduction_omp [arrayLength (multiple of 16)] [repeat]     g++ -O3 -fopenmp
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <int K>
static int reduce(const int *in, int n) {
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; i += K) {
    int s = 0;
    for (int k = 0; k < K; k++) s += in[i + k];
    sum += s;
  }
  return sum;
}

int main(int argc, char **argv) {
  int arrayLength = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int N = argc > 2 ? atoi(argv[2]) : 2;
  if (arrayLength <= 0 || arrayLength % 16 != 0 || N <= 0) {
    printf("atomic-reduction_omp: FAIL bad arguments\n");
    return 1;
  }
  std::vector<int> array(arrayLength);
  int checksum = 0;
  for (int i = 0; i < arrayLength; i++) {
    array[i] = rand() % 2;
    checksum += array[i];
  }
  const int *in = array.data();
  volatile int sink = 0;
  for (int i = 0; i < N; i++) sink = reduce<1>(in, arrayLength);  // warm-up, as the port

  int failures = 0;
  double total_ms = 0;
  auto bench = [&](int (*f)(const int *, int)) {
    int sum = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < N; i++) sum = f(in, arrayLength);
    auto t1 = std::chrono::steady_clock::now();
    total_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    if (sum != checksum) ++failures;
  };
  for (int b = 0; b < 4; b++) {  // the port's block sizes 128, 256, 512, 1024
    bench(reduce<1>);
    bench(reduce<2>);
    bench(reduce<4>);
    bench(reduce<8>);
    bench(reduce<16>);
  }
  printf("time_ms: %f (all 20 benchmarks, %d runs each)\n", total_ms, N);
  if (failures) {
    printf("atomic-reduction_omp: FAIL %d of 20 sums differ\n", failures);
    return 1;
  }
  printf("atomic-reduction_omp: PASS\n");
  return 0;
}
