// The algorithm of tests/corpus/rodinia-pathfinder/port.cpp (Rodinia's pathfinder: each row's
// shortest path from the row above, the min of three neighbours plus the row's weight), written
// with OpenMP on the host: each row a `parallel for` over its columns. The port's pyramid (several
// rows per launch in 256-wide tiles) has no use on the host: pyramid_height is checked as the
// port checks it and otherwise ignored. time_ms: all rows-1 steps, as the port's (its launches
// and a wait; the copies are outside, as in the port).
// Derived from Rodinia 3.1 (see tests/corpus/rodinia-pathfinder/SOURCE.md); Rodinia's licence,
// tests/corpus/RODINIA-LICENSE.
// usage: rodinia-pathfinder_omp [row_len] [col_len] [pyramid_height]     g++ -O3 -fopenmp
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#define BLOCK_SIZE 256
#define HALO 1
#define M_SEED 9
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

int main(int argc, char **argv) {
  const int cols = argc > 1 ? atoi(argv[1]) : 100000;
  const int rows = argc > 2 ? atoi(argv[2]) : 100;
  const int pyramid_height = argc > 3 ? atoi(argv[3]) : 20;
  if (cols <= 0 || rows <= 1 || pyramid_height <= 0 || pyramid_height * HALO * 2 >= BLOCK_SIZE) {
    printf("rodinia-pathfinder_omp: FAIL bad arguments\n");
    return 1;
  }
  // the port's (the original's) data
  int *data = new int[(size_t)rows * cols];
  srand(M_SEED);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) data[(size_t)i * cols + j] = rand() % 10;

  // the first row copied in, the other buffer untouched, as the port's two device buffers
  int *src = new int[cols], *dst = new int[cols];
  memcpy(src, data, sizeof(int) * cols);

  auto t0 = std::chrono::steady_clock::now();
  for (int t = 1; t < rows; t++) {
    const int *wall = data + (size_t)t * cols;
#pragma omp parallel for
    for (int j = 0; j < cols; j++) {
      int s = src[j];
      if (j > 0) s = MIN(s, src[j - 1]);
      if (j < cols - 1) s = MIN(s, src[j + 1]);
      dst[j] = s + wall[j];
    }
    std::swap(src, dst);
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
  const int *result = src;

  // the port's check: the same recurrence row by row on the host
  std::vector<int> prev(data, data + cols), next(cols);
  for (int t = 1; t < rows; t++) {
    for (int j = 0; j < cols; j++) {
      int s = prev[j];
      if (j > 0) s = MIN(s, prev[j - 1]);
      if (j < cols - 1) s = MIN(s, prev[j + 1]);
      next[j] = s + data[(size_t)t * cols + j];
    }
    prev.swap(next);
  }
  int bad = 0;
  for (int j = 0; j < cols; j++)
    if (prev[j] != result[j]) {
      if (!bad) printf("result[%d] = %d (OpenMP) != %d (host)\n", j, result[j], prev[j]);
      bad++;
    }
  if (bad) {
    printf("rodinia-pathfinder_omp: FAIL %d of %d results differ from the host's\n", bad, cols);
    return 1;
  }
  printf("rodinia-pathfinder_omp: PASS\n");
  return 0;
}
