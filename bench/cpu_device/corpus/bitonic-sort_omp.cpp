// The algorithm of tests/corpus/bitonic-sort/port.cpp (bitonic sort of 2**n ints, one pass over
// the data per stage), written with OpenMP on the host: each stage a `parallel for` over the
// compare-and-swap pairs. time_ms: the total of all n(n+1)/2 stages, as the port's.
// usage: bitonic-sort_omp [exponent n: 2**n elements] [seed]     g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static void SwapElements(int step, int stage, int num_sequence, int seq_len, int *array) {
  for (int seq_num = 0; seq_num < num_sequence; seq_num++) {  // the port's serial reference
    int odd = seq_num / (pow(2, (step - stage)));
    bool increasing = ((odd % 2) == 0);
    int h_len = seq_len / 2;
    for (int i = seq_num * seq_len; i < seq_num * seq_len + h_len; i++) {
      int swapped_ele = i + h_len;
      if (((array[i] > array[swapped_ele]) && increasing) ||
          ((array[i] < array[swapped_ele]) && !increasing)) {
        int temp = array[i];
        array[i] = array[swapped_ele];
        array[swapped_ele] = temp;
      }
    }
  }
}

int main(int argc, char *argv[]) {
  const int n = argc > 1 ? atoi(argv[1]) : 16;
  const int seed = argc > 2 ? atoi(argv[2]) : 123;
  if (n < 8 || n >= 31) {
    printf("bitonic-sort_omp: FAIL bad arguments\n");
    return 1;
  }
  const int size = 1 << n;
  int *data_cpu = (int *)malloc(sizeof(int) * size), *a = (int *)malloc(sizeof(int) * size);
  srand(seed);
  for (int i = 0; i < size; i++) a[i] = data_cpu[i] = rand() % 1000;

  auto t0 = std::chrono::steady_clock::now();
  for (int step = 0; step < n; step++) {
    for (int stage = step; stage >= 0; stage--) {
      const int h_len = 1 << stage;           // half of the sequence length 2**(stage+1)
      const int two_power = 1 << (step - stage);
#pragma omp parallel for
      for (int p = 0; p < size / 2; p++) {  // pair p: element i and i + h_len
        const int seq_num = p / h_len;
        const int i = seq_num * 2 * h_len + p % h_len;
        const bool increasing = (seq_num / two_power) % 2 == 0;
        const int x = a[i], y = a[i + h_len];
        if ((x > y && increasing) || (x < y && !increasing)) {
          a[i] = y;
          a[i + h_len] = x;
        }
      }
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f (total of all stages)\n", std::chrono::duration<double, std::milli>(t1 - t0).count());

  for (int step = 0; step < n; step++)
    for (int stage = step; stage >= 0; stage--)
      SwapElements(step, stage, 1 << (n - stage - 1), 1 << (stage + 1), data_cpu);
  const bool ok = memcmp(a, data_cpu, sizeof(int) * size) == 0;
  printf("bitonic-sort_omp: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
