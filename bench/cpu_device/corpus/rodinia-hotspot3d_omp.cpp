// The algorithm of tests/corpus/rodinia-hotspot3d/port.cpp (Rodinia's hotspot3D: a 7-point 3-D
// thermal stencil, one pass over the grid per step, two grids swapped), written with OpenMP on
// the host: each step a `parallel for` over the (layer, row) pairs (collapse(2)), each row done
// serially. time_ms: all the steps, as the port's (its launches and a wait; the copies are
// outside, as in the port).
// Derived from Rodinia 3.1 (see tests/corpus/rodinia-hotspot3d/SOURCE.md); Rodinia's licence,
// tests/corpus/RODINIA-LICENSE.
// usage: rodinia-hotspot3d_omp [rows/cols (multiple of 64)] [layers] [iterations]
//        g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5

static float t_chip = 0.0005;
static float chip_height = 0.016;
static float chip_width = 0.016;
static float amb_temp = 80.0;

// the port's input generator
static void generate_input(float *power, float *temp, int grid_rows, int grid_cols, int layers) {
  for (long c = 0; c < (long)grid_rows * grid_cols * layers; c++) {
    unsigned h = (unsigned)c * 2654435761u;
    h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    temp[c] = 323.0f + (float)(h % 2000u) / 100.0f;           // 323 .. 343 K
    power[c] = (float)((h >> 11) % 1000u) * 1.0e-6f;           // 0 .. 1 mW a cell
  }
}

// the port's (the original's) host reference, serial; the last step ends in tOut after an odd
// number of steps, in tIn after an even number
static void computeTempCPU(float *pIn, float *tIn, float *tOut, int nx, int ny, int nz, float Cap,
                           float Rx, float Ry, float Rz, float dt, int numiter) {
  float ce, cw, cn, cs, ct, cb, cc;
  float stepDivCap = dt / Cap;
  ce = cw = stepDivCap / Rx;
  cn = cs = stepDivCap / Ry;
  ct = cb = stepDivCap / Rz;
  cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);
  int i = 0;
  do {
    for (int z = 0; z < nz; z++)
      for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
          int c = x + y * nx + z * nx * ny;
          int w = (x == 0) ? c : c - 1;
          int e = (x == nx - 1) ? c : c + 1;
          int n = (y == 0) ? c : c - nx;
          int s = (y == ny - 1) ? c : c + nx;
          int b = (z == 0) ? c : c - nx * ny;
          int t = (z == nz - 1) ? c : c + nx * ny;
          tOut[c] = tIn[c] * cc + tIn[n] * cn + tIn[s] * cs + tIn[e] * ce + tIn[w] * cw + tIn[t] * ct +
                    tIn[b] * cb + (dt / Cap) * pIn[c] + ct * amb_temp;
        }
    float *temp = tIn;
    tIn = tOut;
    tOut = temp;
    i++;
  } while (i < numiter);
}

int main(int argc, char **argv) {
  const int iterations = argc > 3 ? atoi(argv[3]) : 100;
  const int numCols = argc > 1 ? atoi(argv[1]) : 256;
  const int numRows = numCols;
  const int layers = argc > 2 ? atoi(argv[2]) : 8;
  if (numCols <= 0 || numCols % 64 != 0 || layers < 2 || iterations <= 0) {
    printf("rodinia-hotspot3d_omp: FAIL bad arguments (rows/cols a multiple of 64, 2 layers or more)\n");
    return 1;
  }
  float dx = chip_height / numRows;
  float dy = chip_width / numCols;
  float dz = t_chip / layers;
  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * dx * dy;
  float Rx = dy / (2.0 * K_SI * t_chip * dx);
  float Ry = dx / (2.0 * K_SI * t_chip * dy);
  float Rz = dz / (K_SI * dx * dy);
  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float dt = PRECISION / max_slope;

  const int nx = numCols, ny = numRows, nz = layers;
  const size_t size = (size_t)nx * ny * nz;
  float *powerIn = (float *)calloc(size, sizeof(float));
  float *tempIn = (float *)calloc(size, sizeof(float));
  float *tempCopy = (float *)malloc(size * sizeof(float));
  float *answer = (float *)calloc(size, sizeof(float));
  generate_input(powerIn, tempIn, numRows, numCols, layers);
  memcpy(tempCopy, tempIn, size * sizeof(float));

  // the port's coefficients
  float ce, cw, cn, cs, ct, cb, cc;
  const float stepDivCap = dt / Cap;
  ce = cw = stepDivCap / Rx;
  cn = cs = stepDivCap / Ry;
  ct = cb = stepDivCap / Rz;
  cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);
  // the temperatures and powers copied in, the output grid untouched, as the port's buffers
  float *p = (float *)malloc(size * sizeof(float)), *tIn = (float *)malloc(size * sizeof(float));
  float *tOut = (float *)malloc(size * sizeof(float));
  memcpy(p, powerIn, size * sizeof(float));
  memcpy(tIn, tempIn, size * sizeof(float));

  const int xy = nx * ny;
  auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < iterations; ++it) {
#pragma omp parallel for collapse(2)
    for (int z = 0; z < nz; z++)
      for (int y = 0; y < ny; y++) {
        const int row = y * nx + z * xy;
        const int n = y == 0 ? 0 : -nx, s = y == ny - 1 ? 0 : nx;
        const int b = z == 0 ? 0 : -xy, t = z == nz - 1 ? 0 : xy;
        for (int x = 0; x < nx; x++) {
          const int c = row + x;
          const int w = x == 0 ? c : c - 1, e = x == nx - 1 ? c : c + 1;
          tOut[c] = tIn[c] * cc + tIn[c + n] * cn + tIn[c + s] * cs + tIn[e] * ce + tIn[w] * cw +
                    tIn[c + t] * ct + tIn[c + b] * cb + stepDivCap * p[c] + ct * amb_temp;
        }
      }
    std::swap(tIn, tOut);
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
  const float *out = tIn;  // the last step's grid, after the last swap

  computeTempCPU(powerIn, tempCopy, answer, nx, ny, nz, Cap, Rx, Ry, Rz, dt, iterations);
  const float *result = iterations % 2 ? answer : tempCopy;
  // the port's check: the RMS difference (Accuracy) and the largest, at most 5e-3 K
  float err = 0.0;
  double worst = 0, change = 0;
  for (size_t c = 0; c < size; c++) {
    err += (out[c] - result[c]) * (out[c] - result[c]);
    worst = fmax(worst, fabs((double)out[c] - result[c]));
    change = fmax(change, fabs((double)result[c] - tempIn[c]));
  }
  printf("Accuracy: %e\n", (float)sqrt(err / size));
  printf("max |OpenMP - host| = %g K; largest change of a cell %g K\n", worst, change);
  if (!(worst <= 5e-3)) {
    printf("rodinia-hotspot3d_omp: FAIL the temperatures differ from the host's\n");
    return 1;
  }
  printf("rodinia-hotspot3d_omp: PASS\n");
  return 0;
}
