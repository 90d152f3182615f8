// The algorithm of tests/corpus/rodinia-hotspot/port.cpp (Rodinia's hotspot: a 2-D thermal
// stencil, sim_time steps), written with OpenMP on the host: each step a `parallel for` over the
// rows of the grid, two grids swapped. The port's pyramid (several steps per launch in 16x16
// tiles) has no use on the host: pyramid_height is checked as the port checks it and otherwise
// ignored. time_ms: all sim_time steps, as the port's (its launches and a wait; the copies are
// outside, as in the port).
// Derived from Rodinia 3.1 (see tests/corpus/rodinia-hotspot/SOURCE.md); Rodinia's licence,
// tests/corpus/RODINIA-LICENSE.
// usage: rodinia-hotspot_omp [grid_rows/grid_cols] [pyramid_height] [sim_time]
//        g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#define BLOCK_SIZE 16
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5

static float t_chip = 0.0005;
static float chip_height = 0.016;
static float chip_width = 0.016;

// the port's input generator
static void generate_input(float *temp, float *power, int grid_rows, int grid_cols) {
  unsigned s = 12345u;
  for (int i = 0; i < grid_rows * grid_cols; i++) {
    s = s * 1103515245u + 12345u;
    temp[i] = 323.0f + (float)((s >> 8) % 2000) / 100.0f;   // 323 .. 343 K
    s = s * 1103515245u + 12345u;
    power[i] = (float)((s >> 8) % 1000) * 1.0e-6f;           // 0 .. 1 mW a cell
  }
}

struct Coeffs { float step_div_Cap, Rx_1, Ry_1, Rz_1; };

// the port's constants, computed as it does (float, the `2.0 *` terms in double)
static Coeffs coefficients(int row, int col) {
  float grid_height = chip_height / row;
  float grid_width = chip_width / col;
  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
  float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
  float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
  float Rz = t_chip / (K_SI * grid_height * grid_width);
  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float step = PRECISION / max_slope;
  return {step / Cap, 1 / Rx, 1 / Ry, 1 / Rz};
}

// the port's reference: the same steps one cell at a time (neighbours outside the grid are the
// cell itself)
static void reference(std::vector<float> &temp, const std::vector<float> &power, int row, int col,
                      int total_iterations) {
  Coeffs k = coefficients(row, col);
  float amb = 80.0;
  std::vector<float> next(temp.size());
  for (int it = 0; it < total_iterations; it++) {
    for (int r = 0; r < row; r++)
      for (int c = 0; c < col; c++) {
        int N = r > 0 ? r - 1 : r, S = r < row - 1 ? r + 1 : r;
        int W = c > 0 ? c - 1 : c, E = c < col - 1 ? c + 1 : c;
        float t0 = temp[r * col + c];
        next[r * col + c] = t0 + k.step_div_Cap * (power[r * col + c] +
            (temp[S * col + c] + temp[N * col + c] - 2.0 * t0) * k.Ry_1 +
            (temp[r * col + E] + temp[r * col + W] - 2.0 * t0) * k.Rx_1 +
            (amb - t0) * k.Rz_1);
      }
    temp.swap(next);
  }
}

int main(int argc, char **argv) {
  const int grid = argc > 1 ? atoi(argv[1]) : 512;
  const int pyramid_height = argc > 2 ? atoi(argv[2]) : 2;
  const int total_iterations = argc > 3 ? atoi(argv[3]) : 60;
  if (grid <= 0 || pyramid_height <= 0 || pyramid_height >= BLOCK_SIZE / 2 || total_iterations <= 0) {
    printf("rodinia-hotspot_omp: FAIL bad arguments\n");
    return 1;
  }
  const int rows = grid, cols = grid, size = rows * cols;
  float *temp0 = (float *)malloc(size * sizeof(float)), *power = (float *)malloc(size * sizeof(float));
  generate_input(temp0, power, rows, cols);
  // the initial temperatures copied in, the other grid untouched, as the port's device buffers
  float *src = (float *)malloc(size * sizeof(float)), *dst = (float *)malloc(size * sizeof(float));
  memcpy(src, temp0, size * sizeof(float));

  const Coeffs k = coefficients(rows, cols);
  const float amb = 80.0;
  auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < total_iterations; it++) {
#pragma omp parallel for
    for (int r = 0; r < rows; r++) {
      const int N = r > 0 ? r - 1 : r, S = r < rows - 1 ? r + 1 : r;
      for (int c = 0; c < cols; c++) {
        const int W = c > 0 ? c - 1 : c, E = c < cols - 1 ? c + 1 : c;
        const float t = src[r * cols + c];
        dst[r * cols + c] = t + k.step_div_Cap * (power[r * cols + c] +
            (src[S * cols + c] + src[N * cols + c] - 2.0 * t) * k.Ry_1 +
            (src[r * cols + E] + src[r * cols + W] - 2.0 * t) * k.Rx_1 +
            (amb - t) * k.Rz_1);
      }
    }
    std::swap(src, dst);
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
  const float *out = src;

  // the port's check
  std::vector<float> ref(temp0, temp0 + size), pw(power, power + size);
  reference(ref, pw, rows, cols, total_iterations);
  double maxerr = 0, change = 0;
  int worst = 0;
  for (int i = 0; i < size; i++) {
    double e = fabs((double)out[i] - ref[i]);
    if (!(e <= maxerr)) { maxerr = e; worst = i; }
    change = fmax(change, fabs((double)ref[i] - temp0[i]));
  }
  printf("max |OpenMP - host| = %g K (cell %d: %f vs %f); largest change of a cell %g K\n", maxerr,
         worst, out[worst], ref[worst], change);
  if (!(maxerr <= 1e-3)) {
    printf("rodinia-hotspot_omp: FAIL the temperatures differ from the host's\n");
    return 1;
  }
  printf("rodinia-hotspot_omp: PASS\n");
  return 0;
}
