// The algorithm of tests/corpus/matrix-rotate/port.cpp (in-place rotation of an n x n matrix,
// layer by layer), written with OpenMP on the host: layers split among threads (plain
// `parallel for`, as the port gives one layer to each work-item). time_ms: the average of
// `repeat` rotations, as the port's.
// usage: matrix-rotate_omp [n] [repeat]     g++ -O3 -fopenmp
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

/// One layer (ring) of the matrix rotated by a quarter turn, in place.
static void rotate_layer(float *matrix, int n, int layer) {
  int first = layer, last = n - 1 - layer;
  for (int i = first; i < last; ++i) {
    int offset = i - first;
    float top = matrix[first * n + i];
    matrix[first * n + i] = matrix[(last - offset) * n + first];
    matrix[(last - offset) * n + first] = matrix[last * n + (last - offset)];
    matrix[last * n + (last - offset)] = matrix[i * n + last];
    matrix[i * n + last] = top;
  }
}

static void rotate_matrix_serial(float *matrix, int n) {
  for (int layer = 0; layer < n / 2; ++layer) rotate_layer(matrix, n, layer);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1000;
  const int repeat = argc > 2 ? atoi(argv[2]) : 3;
  if (n <= 0 || repeat <= 0) {
    printf("matrix-rotate_omp: FAIL bad arguments\n");
    return 1;
  }
  std::vector<float> serial_res(std::size_t(n) * n), parallel_res(std::size_t(n) * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) serial_res[i * n + j] = parallel_res[i * n + j] = i * n + j;
  for (int i = 0; i < repeat; i++) rotate_matrix_serial(serial_res.data(), n);

  float *matrix = parallel_res.data();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; r++) {
#pragma omp parallel for
    for (int layer = 0; layer < n / 2; ++layer) rotate_layer(matrix, n, layer);
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f (average over %d runs)\n",
         std::chrono::duration<double, std::milli>(t1 - t0).count() / repeat, repeat);
  if (serial_res != parallel_res) {
    printf("matrix-rotate_omp: FAIL\n");
    return 1;
  }
  printf("matrix-rotate_omp: PASS\n");
  return 0;
}
