// The algorithm of tests/corpus/stencil1d/port.cpp (radius-7 1-D stencil over int data), written
// with OpenMP on the host. Times the same work as the port's time_ms: `repeat` passes over the
// data, printed as the average of one pass.
// usage: stencil1d_omp [length (multiple of 256)] [repeat]     g++ -O3 -fopenmp
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define RADIUS 7

int main(int argc, char *argv[]) {
  const int length = argc > 1 ? atoi(argv[1]) : 1 << 16;
  const int repeat = argc > 2 ? atoi(argv[2]) : 4;
  if (length <= 0 || length % 256 != 0 || repeat <= 0) {
    printf("stencil1d_omp: FAIL bad arguments\n");
    return 1;
  }
  std::vector<int> a(length + RADIUS);
  // the output untouched before the timed runs, as the port's device buffer
  int *out = static_cast<int *>(malloc(sizeof(int) * length));
  for (int i = 0; i < length + RADIUS; i++) a[i] = i;
  const int *in = a.data();

  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; r++) {
#pragma omp parallel for
    for (int i = 0; i < length; i++) {
      int s = 0;
      for (int j = i - RADIUS; j <= i + RADIUS; j++)
        s += j < 0 ? 0 : in[j];
      out[i] = s;
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f (average over %d runs)\n",
         std::chrono::duration<double, std::milli>(t1 - t0).count() / repeat, repeat);

  // the port's verification
  for (int i = 0; i < 2 * RADIUS; i++) {
    int s = 0;
    for (int j = i; j <= i + 2 * RADIUS; j++) s += j < RADIUS ? 0 : (a[j] - RADIUS);
    if (s != out[i]) { printf("stencil1d_omp: FAIL at %d\n", i); return 1; }
  }
  for (int i = 2 * RADIUS; i < length; i++) {
    int s = 0;
    for (int j = i - RADIUS; j <= i + RADIUS; j++) s += a[j];
    if (s != out[i]) { printf("stencil1d_omp: FAIL at %d\n", i); return 1; }
  }
  printf("stencil1d_omp: PASS\n");
  return 0;
}
