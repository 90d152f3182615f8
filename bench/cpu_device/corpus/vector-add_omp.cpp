// The algorithm of tests/corpus/vector-add/port.cpp (C = A + B, float), written with OpenMP on
// the host. time_ms: one pass, as the port's one launch; C is untouched before it, as the port's
// device buffer.
// usage: vector-add_omp [numElements]     g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50000;
  if (n <= 0) {
    printf("vector-add_omp: FAIL bad arguments\n");
    return 1;
  }
  std::vector<float> A(n), B(n);
  for (int i = 0; i < n; ++i) {
    A[i] = rand() / (float)RAND_MAX;
    B[i] = rand() / (float)RAND_MAX;
  }
  float *C = static_cast<float *>(malloc(sizeof(float) * n));
  const float *a = A.data(), *b = B.data();

  auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for
  for (int i = 0; i < n; i++) C[i] = a[i] + b[i] + 0.0f;
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());

  for (int i = 0; i < n; ++i)
    if (fabs(A[i] + B[i] - C[i]) > 1e-5) {
      printf("vector-add_omp: FAIL at element %d\n", i);
      return 1;
    }
  printf("vector-add_omp: PASS\n");
  free(C);
  return 0;
}
