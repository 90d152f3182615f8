// The algorithm of tests/corpus/simple-spmv/port.cpp (matrix-vector product: dense, and sparse
// in CSR form), written with OpenMP on the host: rows split among threads, each row's dot
// product done serially. The port runs three kernels (dense, scalar CSR, vector CSR whose lanes
// share a row) for six workgroup sizes, `repeat` launches each; the host has one natural CSR form,
// so it runs dense, CSR, CSR for each of the six sizes. time_ms: the sum of the average times,
// as the port's.
// usage: simple-spmv_omp [number of non-zero elements] [number of rows] [repeat]
//        g++ -O3 -fopenmp
#include <assert.h>
#include <chrono>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef float REAL;

// ---- the port's utils.cpp (host), as found
void init_vector(REAL *vector, size_t m) {
  for (size_t i = 0; i < m; i++) vector[i] = (REAL)drand48();
}

void init_matrix(REAL *matrix, size_t num_rows, size_t nnz) {
  size_t n = num_rows * num_rows;
  REAL *d = (REAL *)malloc(n * sizeof(REAL));
  srand(123);
  for (size_t i = 0; i < n; i++) d[i] = (REAL)i;
  for (size_t i = n; i > 0; i--) {
    size_t a = i - 1;
    size_t b = rand() % i;
    if (a != b) {
      auto t = d[a];
      d[a] = d[b];
      d[b] = t;
    }
  }
  for (size_t i = 0; i < num_rows; i++)
    for (size_t j = 0; j < num_rows; j++)
      matrix[i * num_rows + j] = (d[i * num_rows + j] >= nnz) ? 0 : (REAL)(drand48() + 1);
  free(d);
}

void init_csr(size_t *row_indices, REAL *values, size_t *col_indices, REAL *matrix,
              size_t num_rows, size_t nnz) {
  row_indices[num_rows] = nnz;
  row_indices[0] = 0;
  size_t *non_zero_elements = (size_t *)malloc(num_rows * sizeof(size_t));
  size_t tmp = 0;
  for (size_t i = 0; i < num_rows; i++) {
    size_t nnz_per_row = 0;
    for (size_t j = 0; j < num_rows; j++) {
      if (matrix[i * num_rows + j] != 0) {
        values[tmp] = matrix[i * num_rows + j];
        col_indices[tmp] = j;
        tmp++;
        nnz_per_row++;
      }
    }
    non_zero_elements[i] = nnz_per_row;
  }
  assert(tmp == nnz);
  for (size_t i = 1; i < num_rows; i++) row_indices[i] = row_indices[i - 1] + non_zero_elements[i - 1];
  free(non_zero_elements);
}

void mv_csr_serial(const size_t num_rows, const size_t *row_indices, const size_t *col_indices,
                   const REAL *values, const REAL *x, REAL *y) {
  for (size_t row = 0; row < num_rows; row++) {
    REAL dot = 0;
    for (size_t i = row_indices[row]; i < row_indices[row + 1]; i++) dot += values[i] * x[col_indices[i]];
    y[row] = dot;
  }
}

float check(REAL *A, REAL *B, size_t n) {
  double diffsum = 0, sum = 0;
  for (size_t i = 0; i < n; i++) {
    diffsum += fabs(A[i] - B[i]);
    sum += fabs(B[i]);
  }
  return diffsum / sum;
}
// ---- end of utils.cpp

static void mv_dense(size_t num_rows, const REAL *matrix, const REAL *x, REAL *y) {
#pragma omp parallel for
  for (size_t i = 0; i < num_rows; i++) {
    REAL temp = 0;
    for (size_t j = 0; j < num_rows; j++)
      if (matrix[i * num_rows + j] != (REAL)0) temp += matrix[i * num_rows + j] * x[j];
    y[i] = temp;
  }
}

static void mv_csr(size_t num_rows, const size_t *row_indices, const size_t *col_indices,
                   const REAL *values, const REAL *x, REAL *y) {
#pragma omp parallel for
  for (size_t i = 0; i < num_rows; i++) {
    REAL temp = 0;
    for (size_t n = row_indices[i]; n < row_indices[i + 1]; n++) temp += values[n] * x[col_indices[n]];
    y[i] = temp;
  }
}

int main(int argc, char *argv[]) {
  size_t nnz = argc > 1 ? atol(argv[1]) : 163840;
  size_t num_rows = argc > 2 ? atol(argv[2]) : 1024;
  int repeat = argc > 3 ? atoi(argv[3]) : 2;
  size_t num_elems = num_rows * num_rows;
  if (!(nnz > 0 && num_rows > 0 && nnz <= num_elems && repeat > 0)) {
    printf("simple-spmv_omp: FAIL bad arguments\n");
    return 1;
  }
  size_t *row_indices = (size_t *)malloc((num_rows + 1) * sizeof(size_t));
  size_t *col_indices = (size_t *)malloc(nnz * sizeof(size_t));
  REAL *values = (REAL *)malloc(nnz * sizeof(REAL));
  REAL *x = (REAL *)malloc(num_rows * sizeof(REAL));
  REAL *y[4];
  for (int i = 0; i < 4; i++) y[i] = (REAL *)malloc(num_rows * sizeof(REAL));
  REAL *matrix = (REAL *)malloc(num_elems * sizeof(REAL));

  srand48(1 << 12);
  init_matrix(matrix, num_rows, nnz);
  init_vector(x, num_rows);
  init_csr(row_indices, values, col_indices, matrix, num_rows, nnz);
  mv_csr_serial(num_rows, row_indices, col_indices, values, x, y[0]);

  double total_ms = 0;
  float max_error = 0;
  auto time_ms = [&](auto &&f) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < repeat; i++) f();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(t1 - t0).count() / repeat;
  };
  for (int bs = 32; bs <= 1024; bs = bs * 2) {  // the port's workgroup sizes: no use on the host
    total_ms += time_ms([&] { mv_dense(num_rows, matrix, x, y[1]); });
    total_ms += time_ms([&] { mv_csr(num_rows, row_indices, col_indices, values, x, y[2]); });
    total_ms += time_ms([&] { mv_csr(num_rows, row_indices, col_indices, values, x, y[3]); });
    for (int i = 1; i < 4; i++) {
      float e = check(y[0], y[i], num_rows);
      if (!(e <= max_error)) max_error = e;
    }
  }
  printf("time_ms: %f (sum of the average times)\n", total_ms);
  if (max_error <= 1e-5f) {
    printf("simple-spmv_omp: PASS\n");
    return 0;
  }
  printf("simple-spmv_omp: FAIL error rate %g\n", max_error);
  return 1;
}
