// The algorithm of tests/corpus/rodinia-lud/port.cpp (Rodinia's lud: blocked LU decomposition
// without pivoting, 16-wide blocks), written with OpenMP on the host: per step the diagonal block
// serially, then a `parallel for` over the perimeter blocks (the row of U to its right and the
// column of L below it, a pair per iteration as the port's perimeter workgroups), then a
// `parallel for` over the rows of internal blocks (each 16x16 block updated by the product of its
// perimeter blocks); the last diagonal block at the end. time_ms: the whole decomposition, as the
// port's; the port's time also covers its copies of the matrix in and out, which have no
// counterpart (the host decomposes the matrix in place).
// Derived from Rodinia 3.1 (see tests/corpus/rodinia-lud/SOURCE.md); Rodinia's licence,
// tests/corpus/RODINIA-LICENSE.
// usage: rodinia-lud_omp [matrix_size (multiple of 16)]     g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define BLOCK_SIZE 16
#define MIN(i, j) ((i) < (j) ? (i) : (j))

// the port's (the original's common.c) well-conditioned matrix
static float *create_matrix(int size) {
  float lamda = -0.001;
  std::vector<float> coe(2 * size - 1);
  for (int i = 0; i < size; i++) {
    float coe_i = 10 * exp(lamda * i);
    coe[size - 1 + i] = coe_i;
    coe[size - 1 - i] = coe_i;
  }
  float *m = (float *)malloc(sizeof(float) * size * size);
  for (int i = 0; i < size; i++)
    for (int j = 0; j < size; j++) m[i * size + j] = coe[size - 1 - i + j];
  return m;
}

// LU of the BLOCK_SIZE x BLOCK_SIZE block at (o, o), in place (unit lower L, U)
static void lu_diagonal(float *a, int n, int o) {
  for (int k = 0; k < BLOCK_SIZE; k++)
    for (int i = k + 1; i < BLOCK_SIZE; i++) {
      float l = a[(o + i) * n + o + k] /= a[(o + k) * n + o + k];
      for (int j = k + 1; j < BLOCK_SIZE; j++) a[(o + i) * n + o + j] -= l * a[(o + k) * n + o + j];
    }
}

static void lud(float *a, int n) {
  int o = 0;
  for (; o < n - BLOCK_SIZE; o += BLOCK_SIZE) {
    lu_diagonal(a, n, o);
    const int nb = (n - o) / BLOCK_SIZE - 1;  // blocks right of (and below) the diagonal block
#pragma omp parallel for
    for (int b = 0; b < nb; b++) {
      const int c0 = o + (b + 1) * BLOCK_SIZE;
      // U to the right: L(diag)^-1 times the block, row by row
      for (int i = 1; i < BLOCK_SIZE; i++)
        for (int k = 0; k < i; k++) {
          const float l = a[(o + i) * n + o + k];
          for (int j = 0; j < BLOCK_SIZE; j++) a[(o + i) * n + c0 + j] -= l * a[(o + k) * n + c0 + j];
        }
      // L below: the block times U(diag)^-1, each row
      for (int r = c0; r < c0 + BLOCK_SIZE; r++)
        for (int k = 0; k < BLOCK_SIZE; k++) {
          float v = a[r * n + o + k];
          for (int j = 0; j < k; j++) v -= a[r * n + o + j] * a[(o + j) * n + o + k];
          a[r * n + o + k] = v / a[(o + k) * n + o + k];
        }
    }
#pragma omp parallel for
    for (int bi = 0; bi < nb; bi++) {
      const int r0 = o + (bi + 1) * BLOCK_SIZE;
      for (int bj = 0; bj < nb; bj++) {
        const int c0 = o + (bj + 1) * BLOCK_SIZE;
        for (int i = 0; i < BLOCK_SIZE; i++) {
          float sum[BLOCK_SIZE] = {};
          for (int k = 0; k < BLOCK_SIZE; k++) {
            const float l = a[(r0 + i) * n + o + k];
            for (int j = 0; j < BLOCK_SIZE; j++) sum[j] += l * a[(o + k) * n + c0 + j];
          }
          for (int j = 0; j < BLOCK_SIZE; j++) a[(r0 + i) * n + c0 + j] -= sum[j];
        }
      }
    }
  }
  lu_diagonal(a, n, o);
}

int main(int argc, char *argv[]) {
  const int matrix_dim = argc > 1 ? atoi(argv[1]) : 512;
  if (matrix_dim <= 0 || matrix_dim % BLOCK_SIZE != 0) {
    printf("rodinia-lud_omp: FAIL the size must be a positive multiple of %d\n", BLOCK_SIZE);
    return 1;
  }
  float *m = create_matrix(matrix_dim);
  float *mm = (float *)malloc(sizeof(float) * matrix_dim * matrix_dim);
  memcpy(mm, m, sizeof(float) * matrix_dim * matrix_dim);

  auto t0 = std::chrono::steady_clock::now();
  lud(m, matrix_dim);
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());

  // the port's check: L * U against the input, relative 1e-3, sampled for sizes over 512
  int step = matrix_dim > 512 ? matrix_dim / 512 : 1, bad = 0;
  double worst = 0;
  for (int i = 0; i < matrix_dim; i += step)
    for (int j = 0; j < matrix_dim; j += step) {
      float sum = 0;
      for (int k = 0; k <= MIN(i, j); k++) {
        float l = i == k ? 1 : m[i * matrix_dim + k];
        sum += l * m[k * matrix_dim + j];
      }
      double e = fabs(mm[i * matrix_dim + j] - sum) / fmax(fabs(mm[i * matrix_dim + j]), 1e-30);
      worst = fmax(worst, e);
      if (!(e <= 1e-3)) {
        if (bad < 5) printf("dismatch at (%d, %d): (o)%f (n)%f\n", i, j, mm[i * matrix_dim + j], sum);
        bad++;
      }
    }
  printf("largest relative difference of L*U from the input: %g\n", worst);
  if (bad) {
    printf("rodinia-lud_omp: FAIL %d entries of L*U differ from the input\n", bad);
    return 1;
  }
  printf("rodinia-lud_omp: PASS\n");
  return 0;
}
