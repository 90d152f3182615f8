// Port of HeCBench src/simpleSpmv-cuda (main.cpp, kernels.cu, utils.cpp, mv.h) to offload-cxx
// (see SOURCE.md). Sparse matrix-vector product: a dense kernel, a scalar CSR kernel (one
// work-item per row) and a vector CSR kernel (a group of lanes per row, reduced by shuffles),
// for workgroup sizes 32 .. 1024.
// usage: simple-spmv [number of non-zero elements] [number of rows in a square matrix] [repeat]
//        (default 163840 1024 2, SMALL for the CPU device; the original's GPU run: 16777216 10240 100)
#include <offload/offload.hpp>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <chrono>

// ---- mv.h
#define REAL float
//#define REAL double

// ---- utils.cpp (host), as found
void init_vector(REAL *vector, size_t m)
{
  for (size_t i = 0; i<m; i++) {
    vector[i] = (REAL)drand48();
  }
}

void init_matrix(REAL *matrix, size_t num_rows, size_t nnz)
{
  size_t n = num_rows * num_rows;

  REAL *d = (REAL *) malloc(n * sizeof(REAL));

  srand(123);
  for (size_t i = 0; i < n; i++) d[i] = (REAL)i;
  for (size_t i = n; i > 0; i--) {
    size_t a = i-1;
    size_t b = rand() % i;
    if (a != b) {
      auto t = d[a];
      d[a] = d[b];
      d[b] = t;
    }
  }

  for (size_t i = 0; i < num_rows; i++) {
    for (size_t j = 0; j < num_rows; j++) {
      matrix[i*num_rows+j] = (d[i*num_rows+j] >= nnz) ? 0 : (REAL)(drand48()+1);
    }
  }

  free(d);
}

void init_csr(size_t *row_indices, REAL *values,
              size_t *col_indices, REAL *matrix,
              size_t num_rows, size_t nnz)
{
  row_indices[num_rows] = nnz;
  row_indices[0] = 0;
  size_t *non_zero_elements = (size_t*) malloc (num_rows * sizeof(size_t));

  size_t tmp = 0;
  for (size_t i = 0; i < num_rows; i++) {
    size_t nnz_per_row = 0; // nnz per row
    for (size_t j = 0; j < num_rows; j++) {
      if(matrix[i*num_rows+j] != 0) {
        values[tmp] = matrix[i*num_rows+j];
        col_indices[tmp] = j;
        tmp++;
        nnz_per_row++;
      }
    }
    non_zero_elements[i] = nnz_per_row;
  }
  assert(tmp == nnz);

  for (size_t i = 1; i < num_rows; i++) {
    row_indices[i] = row_indices[i-1] + non_zero_elements[i-1];
  }

  free(non_zero_elements);
}

void mv_csr_serial(const size_t num_rows,
                   const size_t *row_indices,
                   const size_t *col_indices,
                   const REAL *values, const REAL *x, REAL *y)
{
  for(size_t row = 0; row < num_rows; row++){
    size_t row_start = row_indices[row];
    size_t row_end = row_indices[row+1];

    REAL dot = 0;
    for ( size_t i = row_start; i < row_end; i++)
      dot += values[i] * x[col_indices[i]];

    y[row] = dot;
  }
}

/* compare two arrays and return rate of difference */
float check(REAL *A, REAL *B, size_t n)
{
  double diffsum = 0, sum = 0;
  for (size_t i = 0; i < n; i++) {
    diffsum += fabs(A[i] - B[i]);
    sum += fabs(B[i]);
  }
  return diffsum / sum;
}

// ---- kernels.cu

// sparse matrix vector multiply using the CSR format
OFFLOAD_KERNEL void mv_csr(const size_t num_rows,
                       offload::device_ptr<const size_t> row_indices,
                       offload::device_ptr<const size_t> col_indices,
                       offload::device_ptr<const REAL> values,
                       offload::device_ptr<const REAL> x,
                       offload::device_ptr<REAL> y)
{
  size_t i = offload::block_id_x() * offload::block_dim_x() + offload::thread_id_x();
  if (i < num_rows) {
    size_t row_start = row_indices[i];
    size_t row_end = row_indices[i+1];

    REAL temp = 0;
    for(size_t n = row_start; n < row_end; n++){
      temp += values[n] * x[col_indices[n]];
    }
    y[i] = temp;
  }
}

// vector sparse matrix vector multiply using the CSR format
template <int BS>
OFFLOAD_KERNEL void vector_mv_csr(const size_t num_rows,
                              offload::device_ptr<const size_t> row_indices,
                              offload::device_ptr<const size_t> col_indices,
                              offload::device_ptr<const REAL> values,
                              offload::device_ptr<const REAL> x,
                              offload::device_ptr<REAL> y)
{
  size_t m = offload::block_id_x() * offload::block_dim_y() + offload::thread_id_y();

  if (m < num_rows) {
    size_t row_start = row_indices[m];
    size_t row_end = row_indices[m+1];

    REAL temp = 0;
    for(size_t n = row_start + offload::thread_id_x(); n < row_end; n += BS){
      temp += values[n] * x[col_indices[n]];
    }
    #pragma unroll
    for (int i = BS >> 1; i > 0; i >>= 1)
      temp += offload::shuffle_down(temp, i);  // __shfl_down_sync(0xFFFFFFFF, temp, i, BS)

    // FIX of the original (SOURCE.md): only the row's first lane holds the row's sum; the
    // original stores from every lane of the row.
    if (offload::thread_id_x() == 0)
      y[m] = temp;
  }
}


// dense matrix vector multiply
OFFLOAD_KERNEL void mv_dense(const size_t num_rows, offload::device_ptr<const REAL> matrix, offload::device_ptr<const REAL> x, offload::device_ptr<REAL> y)
{
  size_t i = offload::block_id_x() * offload::block_dim_x() + offload::thread_id_x();
  if (i < num_rows) {
    REAL temp = 0;
    for (size_t j = 0; j < num_rows; j++) {
      if (matrix[i * num_rows + j] != (REAL)0) 
        temp += matrix[i * num_rows + j] * x[j];
    }
    y[i] = temp;
  }
}

long mv_dense_parallel(const int repeat,
                       const int bs,
                       const size_t num_rows,
                       const REAL* x,
                             REAL* matrix,
                             REAL* y)
{
  offload::buffer<REAL> d_x(num_rows), d_matrix(num_rows * num_rows), d_y(num_rows);

  d_x.copy_from(std::span<const REAL>(x, num_rows));
  d_matrix.copy_from(std::span<const REAL>(matrix, num_rows*num_rows));

  offload::dim3 grids ((num_rows + bs - 1) / bs);
  offload::dim3 blocks (bs);

  offload::queue q;
  auto start = std::chrono::steady_clock::now();

  for (int i = 0; i < repeat; i++)
    q.launch(mv_dense, {.workgroups = grids, .threads = blocks}, num_rows, d_matrix.data(), d_x.data(), d_y.data());

  q.wait();
  auto end = std::chrono::steady_clock::now();
  auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  d_y.copy_to(std::span<REAL>(y, num_rows));

  return time;
}

long mv_csr_parallel(const int repeat,
                     const int bs,
                     const size_t num_rows,
                     const size_t *row_indices,
                     const size_t *col_indices,
                     const REAL* values,
                     const REAL* x,
                     const size_t nnz,
                     REAL* matrix,
                     REAL* y)
{
  offload::buffer<size_t> d_row_indices(num_rows+1);
  offload::buffer<size_t> d_col_indices(nnz);
  offload::buffer<REAL> d_values(nnz), d_x(num_rows), d_y(num_rows);

  d_row_indices.copy_from(std::span<const size_t>(row_indices, num_rows+1));
  d_col_indices.copy_from(std::span<const size_t>(col_indices, nnz));
  d_values.copy_from(std::span<const REAL>(values, nnz));
  d_x.copy_from(std::span<const REAL>(x, num_rows));

  offload::dim3 grids ((num_rows + bs - 1) / bs);
  offload::dim3 blocks (bs);

  offload::queue q;
  auto start = std::chrono::steady_clock::now();

  for (int i = 0; i < repeat; i++)
    q.launch(mv_csr, {.workgroups = grids, .threads = blocks}, num_rows, d_row_indices.data(), d_col_indices.data(), d_values.data(), d_x.data(), d_y.data());

  q.wait();
  auto end = std::chrono::steady_clock::now();
  auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();

  d_y.copy_to(std::span<REAL>(y, num_rows));

  return time;
}

// Reference
// https://github.com/ROCm/rocm-blogs/blob/release/blogs/high-performance-computing/spmv/part-1/examples/vector_csr.cpp
size_t prevPowerOf2(size_t v) {
  v--;
  v |= v >> 1;
  v |= v >> 2;
  v |= v >> 4;
  v |= v >> 8;
  v |= v >> 16;
  v++;
  return v >> 1;
}

long vector_mv_csr_parallel(const int repeat,
                            const int bs,
                            const size_t num_rows,
                            const size_t *row_indices,
                            const size_t *col_indices,
                            const REAL* values,
                            const REAL* x,
                            const size_t nnz,
                            REAL* matrix,
                            REAL* y)
{
  offload::buffer<size_t> d_row_indices(num_rows+1);
  offload::buffer<size_t> d_col_indices(nnz);
  offload::buffer<REAL> d_values(nnz), d_x(num_rows), d_y(num_rows);

  d_row_indices.copy_from(std::span<const size_t>(row_indices, num_rows+1));
  d_col_indices.copy_from(std::span<const size_t>(col_indices, nnz));
  d_values.copy_from(std::span<const REAL>(values, nnz));
  d_x.copy_from(std::span<const REAL>(x, num_rows));

  int nnz_per_row = nnz / num_rows;
  int threads_per_row = prevPowerOf2(nnz_per_row);
  int warpSize = 32;
  // limit the number of threads per row to be no larger than the wavefront (warp) size
  threads_per_row = threads_per_row > warpSize ? warpSize : threads_per_row;
  int rows_per_block = bs / threads_per_row;
  if (rows_per_block == 0) rows_per_block = 1;
  int num_blocks = (num_rows + rows_per_block - 1) / rows_per_block;

  offload::dim3 grid(num_blocks, 1, 1);
  offload::dim3 block(threads_per_row, rows_per_block, 1);
  const offload::launch_config cfg{.workgroups = grid, .threads = block};

  offload::queue q;
  auto start = std::chrono::steady_clock::now();

  for (int i = 0; i < repeat; i++) {
    if (threads_per_row <= 2)
      q.launch(vector_mv_csr<2>, cfg, num_rows, d_row_indices.data(), d_col_indices.data(), d_values.data(), d_x.data(), d_y.data());
    else if (threads_per_row <= 4)
      q.launch(vector_mv_csr<4>, cfg, num_rows, d_row_indices.data(), d_col_indices.data(), d_values.data(), d_x.data(), d_y.data());
    else if (threads_per_row <= 8)
      q.launch(vector_mv_csr<8>, cfg, num_rows, d_row_indices.data(), d_col_indices.data(), d_values.data(), d_x.data(), d_y.data());
    else if (threads_per_row <= 16)
      q.launch(vector_mv_csr<16>, cfg, num_rows, d_row_indices.data(), d_col_indices.data(), d_values.data(), d_x.data(), d_y.data());
    else if (threads_per_row <= 32)
      q.launch(vector_mv_csr<32>, cfg, num_rows, d_row_indices.data(), d_col_indices.data(), d_values.data(), d_x.data(), d_y.data());
  }

  q.wait();
  auto end = std::chrono::steady_clock::now();
  auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();

  d_y.copy_to(std::span<REAL>(y, num_rows));

  return time;
}

// ---- main.cpp
int main(int argc, char *argv[])
{
  size_t nnz = 0;
  size_t num_rows = 0;
  int repeat = 0;

  if (argc != 1 && argc != 4) {
    printf("Usage %s <number of non-zero elements> <number of rows in a square matrix> <repeat>\n", argv[0]);
    printf("simple-spmv: FAIL bad arguments\n");
    return 1;
  }

  nnz = argc > 1 ? atol(argv[1]) : 163840;  // SMALL; 16777216 10240 100 for a GPU run
  num_rows = argc > 2 ? atol(argv[2]) : 1024;
  repeat = argc > 3 ? atoi(argv[3]) : 2;

  size_t num_elems = num_rows * num_rows;

  if (!(nnz > 0 && num_rows > 0 && nnz <= num_elems && repeat > 0)) {
    printf("simple-spmv: FAIL bad arguments\n");
    return 1;
  }

  size_t vector_size_bytes = num_rows * sizeof(REAL);
  size_t matrix_size_bytes = num_elems * sizeof(REAL);
  size_t value_size_bytes  = nnz * sizeof(REAL);
  size_t colidx_size_bytes = nnz * sizeof(size_t);
  size_t rowidx_size_bytes = (num_rows + 1) * sizeof(size_t);

  size_t *row_indices = (size_t *) malloc (rowidx_size_bytes);
  size_t *col_indices = (size_t *) malloc (colidx_size_bytes);
  REAL *values = (REAL *) malloc (value_size_bytes);

  REAL *y[4];

  REAL *x = (REAL *) malloc (vector_size_bytes);
  for (int i = 0; i < 4; i++)
    y[i] = (REAL *) malloc (vector_size_bytes);
  REAL *matrix = (REAL *) malloc (matrix_size_bytes);

  srand48(1<<12);
  init_matrix(matrix, num_rows, nnz);
  init_vector(x, num_rows);
  init_csr(row_indices, values, col_indices, matrix, num_rows, nnz);

  // reference results in y
  mv_csr_serial(num_rows, row_indices, col_indices, values, x, y[0]);

  printf("Number of non-zero elements: %lu\n", nnz);
  printf("Number of rows in a square matrix: %lu\n", num_rows);
  printf("Sparsity: %lf%%\n", (num_elems - nnz) * 1.0 / num_elems * 100.0);

  long elapsed[3];
  double total_ms = 0;    // the sum of all average kernel times
  float max_error = 0;    // the largest error rate

  // thread block size
  for (int bs = 32; bs <= 1024; bs = bs * 2) {
    printf("\nThread block size: %d\n", bs);

    elapsed[0] = mv_dense_parallel(repeat, bs, num_rows, x, matrix, y[1]);
    elapsed[1] = mv_csr_parallel(repeat, bs, num_rows, row_indices,
                                 col_indices, values, x, nnz, matrix, y[2]);
    elapsed[2] = vector_mv_csr_parallel(repeat, bs, num_rows, row_indices,
                                        col_indices, values, x, nnz, matrix, y[3]);

    printf("Average dense, sparse, and vector sparse kernel execution time (ms):");
    for (int i = 0; i < 3; i++) {
      printf(" %lf", elapsed[i] * 1e-6 / repeat);
      total_ms += elapsed[i] * 1e-6 / repeat;
    }

    printf("\nError rate:");
    for (int i = 1; i < 4; i++) {
      float e = check(y[0], y[i], num_rows);
      printf(" %f", e);
      if (!(e <= max_error)) max_error = e;  // NaN too
    }
    printf("\n");
  }
  printf("time_ms: %f (sum of the average kernel times)\n", total_ms);

  free(row_indices);
  free(col_indices);
  free(values);
  free(x);
  free(matrix);
  for (int i = 0; i < 4; i++) free(y[i]);

  // added check: every result within a relative 1e-5 of the serial CSR product
  if (max_error <= 1e-5f) {
    printf("simple-spmv: PASS\n");
    return 0;
  }
  printf("simple-spmv: FAIL error rate %g (limit 1e-5)\n", max_error);
  return 1;
}
