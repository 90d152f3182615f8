// The algorithm of tests/corpus/rodinia-nw/port.cpp (Rodinia's nw: Needleman-Wunsch alignment
// score matrix), written with OpenMP on the host: the matrix in 16x16 tiles, as the port's, swept
// along anti-diagonals of tiles, each diagonal a `parallel for` over its tiles and each tile done
// serially row by row. time_ms: the whole sweep, as the port's (its 2*width/16-1 launches and a
// wait; the copies are outside, as in the port).
// Derived from Rodinia 3.1 (see tests/corpus/rodinia-nw/SOURCE.md); Rodinia's licence,
// tests/corpus/RODINIA-LICENSE.
// usage: rodinia-nw_omp [max_rows/max_cols (multiple of 16)] [penalty]     g++ -O3 -fopenmp
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define BLOCK_SIZE 16

static int maximum(int a, int b, int c) {
  int k = a <= b ? b : a;
  return k <= c ? c : k;
}

static const int blosum62[24][24] = {
{ 4, -1, -2, -2,  0, -1, -1,  0, -2, -1, -1, -1, -1, -2, -1,  1,  0, -3, -2,  0, -2, -1,  0, -4},
{-1,  5,  0, -2, -3,  1,  0, -2,  0, -3, -2,  2, -1, -3, -2, -1, -1, -3, -2, -3, -1,  0, -1, -4},
{-2,  0,  6,  1, -3,  0,  0,  0,  1, -3, -3,  0, -2, -3, -2,  1,  0, -4, -2, -3,  3,  0, -1, -4},
{-2, -2,  1,  6, -3,  0,  2, -1, -1, -3, -4, -1, -3, -3, -1,  0, -1, -4, -3, -3,  4,  1, -1, -4},
{ 0, -3, -3, -3,  9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4},
{-1,  1,  0,  0, -3,  5,  2, -2,  0, -3, -2,  1,  0, -3, -1,  0, -1, -2, -1, -2,  0,  3, -1, -4},
{-1,  0,  0,  2, -4,  2,  5, -2,  0, -3, -3,  1, -2, -3, -1,  0, -1, -3, -2, -2,  1,  4, -1, -4},
{ 0, -2,  0, -1, -3, -2, -2,  6, -2, -4, -4, -2, -3, -3, -2,  0, -2, -2, -3, -3, -1, -2, -1, -4},
{-2,  0,  1, -1, -3,  0,  0, -2,  8, -3, -3, -1, -2, -1, -2, -1, -2, -2,  2, -3,  0,  0, -1, -4},
{-1, -3, -3, -3, -1, -3, -3, -4, -3,  4,  2, -3,  1,  0, -3, -2, -1, -3, -1,  3, -3, -3, -1, -4},
{-1, -2, -3, -4, -1, -2, -3, -4, -3,  2,  4, -2,  2,  0, -3, -2, -1, -2, -1,  1, -4, -3, -1, -4},
{-1,  2,  0, -1, -3,  1,  1, -2, -1, -3, -2,  5, -1, -3, -1,  0, -1, -3, -2, -2,  0,  1, -1, -4},
{-1, -1, -2, -3, -1,  0, -2, -3, -2,  1,  2, -1,  5,  0, -2, -1, -1, -1, -1,  1, -3, -1, -1, -4},
{-2, -3, -3, -3, -2, -3, -3, -3, -1,  0,  0, -3,  0,  6, -4, -2, -2,  1,  3, -1, -3, -3, -1, -4},
{-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4,  7, -1, -1, -4, -3, -2, -2, -1, -2, -4},
{ 1, -1,  1,  0, -1,  0,  0,  0, -1, -2, -2,  0, -1, -2, -1,  4,  1, -3, -2, -2,  0,  0,  0, -4},
{ 0, -1,  0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1,  1,  5, -2, -2,  0, -1, -1,  0, -4},
{-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1,  1, -4, -3, -2, 11,  2, -3, -4, -3, -2, -4},
{-2, -2, -2, -3, -2, -1, -2, -3,  2, -1, -1, -2, -1,  3, -3, -2, -2,  2,  7, -1, -3, -2, -1, -4},
{ 0, -3, -3, -3, -1, -2, -2, -3, -3,  3,  1, -2,  1, -1, -2, -2,  0, -3, -1,  4, -3, -2, -1, -4},
{-2, -1,  3,  4, -3,  0,  1, -1,  0, -3, -4,  0, -3, -3, -2,  0, -1, -4, -3, -3,  4,  1, -1, -4},
{-1,  0,  0,  1, -3,  3,  4, -2,  0, -3, -3,  1, -1, -3, -1,  0, -1, -3, -2, -2,  1,  4, -1, -4},
{ 0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2,  0,  0, -2, -1, -1, -1, -1, -1, -4},
{-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4,  1}
};

int main(int argc, char **argv) {
  int max_rows = argc > 1 ? atoi(argv[1]) : 2048;
  const int penalty = argc > 2 ? atoi(argv[2]) : 10;
  if (max_rows <= 0 || max_rows % 16 != 0) {
    printf("rodinia-nw_omp: FAIL bad arguments\n");
    return 1;
  }
  max_rows = max_rows + 1;
  const int max_cols = max_rows;
  const size_t size = (size_t)max_rows * max_cols;
  // the port's (the original's) sequences and reference matrix
  std::vector<int> referrence(size), input_itemsets(size, 0);
  srand(7);
  for (int i = 1; i < max_rows; i++) input_itemsets[i * max_cols] = rand() % 10 + 1;
  for (int j = 1; j < max_cols; j++) input_itemsets[j] = rand() % 10 + 1;
  for (int i = 1; i < max_cols; i++)
    for (int j = 1; j < max_rows; j++)
      referrence[i * max_cols + j] = blosum62[input_itemsets[i * max_cols]][input_itemsets[j]];
  for (int i = 1; i < max_rows; i++) input_itemsets[i * max_cols] = -i * penalty;
  for (int j = 1; j < max_cols; j++) input_itemsets[j] = -j * penalty;

  // the score matrix, copied in before the timing as the port's device buffer
  int *matrix = (int *)malloc(sizeof(int) * size);
  memcpy(matrix, input_itemsets.data(), sizeof(int) * size);
  const int *ref = referrence.data();
  const int block_width = (max_cols - 1) / BLOCK_SIZE;

  auto t0 = std::chrono::steady_clock::now();
  for (int d = 0; d < 2 * block_width - 1; d++) {  // tile (by, bx) with by + bx == d
    const int lo = d < block_width ? 0 : d - block_width + 1, hi = d < block_width ? d : block_width - 1;
#pragma omp parallel for
    for (int bx = lo; bx <= hi; bx++) {
      const int by = d - bx;
      for (int i = by * BLOCK_SIZE + 1; i <= (by + 1) * BLOCK_SIZE; i++)
        for (int j = bx * BLOCK_SIZE + 1; j <= (bx + 1) * BLOCK_SIZE; j++)
          matrix[i * max_cols + j] = maximum(matrix[(i - 1) * max_cols + j - 1] + ref[i * max_cols + j],
                                             matrix[i * max_cols + j - 1] - penalty,
                                             matrix[(i - 1) * max_cols + j] - penalty);
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());

  // the port's check: the same recurrence on the host, row by row
  std::vector<int> score(input_itemsets);
  for (int i = 1; i < max_rows; i++)
    for (int j = 1; j < max_cols; j++)
      score[i * max_cols + j] = maximum(score[(i - 1) * max_cols + j - 1] + ref[i * max_cols + j],
                                        score[i * max_cols + j - 1] - penalty,
                                        score[(i - 1) * max_cols + j] - penalty);
  size_t bad = 0;
  for (size_t k = 0; k < size; k++)
    if (score[k] != matrix[k]) {
      if (!bad) printf("score[%zu][%zu] = %d (OpenMP) != %d (host)\n", k / max_cols, k % max_cols, matrix[k], score[k]);
      bad++;
    }
  printf("score[%d][%d] = %d\n", max_rows - 1, max_cols - 1, matrix[size - 1]);
  if (bad) {
    printf("rodinia-nw_omp: FAIL %zu scores differ from the host's\n", bad);
    return 1;
  }
  printf("rodinia-nw_omp: PASS\n");
  return 0;
}
