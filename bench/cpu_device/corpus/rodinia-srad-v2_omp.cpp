// The algorithm of tests/corpus/rodinia-srad-v2/port.cpp (Rodinia's srad_v2: speckle-reducing
// anisotropic diffusion), written with OpenMP on the host: per iteration the statistics of the
// region of interest serially (as the port, on the host), then a `parallel for` over the rows for
// the derivatives and the diffusion coefficient, and another for the image update. time_ms: the
// whole main loop of niter iterations, as the port's; the port's copies of the image in and out
// of the device every iteration have no counterpart (the host updates the image in place).
// Derived from Rodinia 3.1 (see tests/corpus/rodinia-srad-v2/SOURCE.md); Rodinia's licence,
// tests/corpus/RODINIA-LICENSE.
// usage: rodinia-srad-v2_omp [rows] [cols] [y1] [y2] [x1] [x2] [lambda] [no. of iter]
//        g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// the port's (the original's) image
static void random_matrix(float *I, int rows, int cols) {
  srand(7);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) I[i * cols + j] = rand() / (float)RAND_MAX;
}

// the statistics of the region of interest: q0sqr (serial, as the port's host code)
static float roi_q0sqr(const float *J, int cols, int r1, int r2, int c1, int c2) {
  float sum = 0, sum2 = 0;
  int size_R = (r2 - r1 + 1) * (c2 - c1 + 1);
  for (int i = r1; i <= r2; i++)
    for (int j = c1; j <= c2; j++) {
      float tmp = J[i * cols + j];
      sum += tmp;
      sum2 += tmp * tmp;
    }
  float meanROI = sum / size_R;
  float varROI = (sum2 / size_R) - meanROI * meanROI;
  return varROI / (meanROI * meanROI);
}

// the port's check: the original's CPU path (#ifdef CPU), serial
static void reference(float *J, int rows, int cols, int r1, int r2, int c1, int c2, float lambda, int niter) {
  int size_I = rows * cols;
  std::vector<float> dN(size_I), dS(size_I), dW(size_I), dE(size_I), c(size_I);
  for (int iter = 0; iter < niter; iter++) {
    float q0sqr = roi_q0sqr(J, cols, r1, r2, c1, c2);
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) {
        int k = i * cols + j;
        float Jc = J[k];
        dN[k] = J[(i > 0 ? i - 1 : 0) * cols + j] - Jc;
        dS[k] = J[(i < rows - 1 ? i + 1 : rows - 1) * cols + j] - Jc;
        dW[k] = J[i * cols + (j > 0 ? j - 1 : 0)] - Jc;
        dE[k] = J[i * cols + (j < cols - 1 ? j + 1 : cols - 1)] - Jc;
        float G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
        float L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
        float num = (0.5 * G2) - ((1.0 / 16.0) * (L * L));
        float den = 1 + (.25 * L);
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
        c[k] = 1.0 / (1.0 + den);
        if (c[k] < 0) c[k] = 0;
        else if (c[k] > 1) c[k] = 1;
      }
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) {
        int k = i * cols + j;
        float cN = c[k], cS = c[(i < rows - 1 ? i + 1 : rows - 1) * cols + j], cW = c[k],
              cE = c[i * cols + (j < cols - 1 ? j + 1 : cols - 1)];
        float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
        J[k] = J[k] + 0.25 * lambda * D;
      }
  }
}

int main(int argc, char **argv) {
  const int rows = argc > 1 ? atoi(argv[1]) : 512;
  const int cols = argc > 2 ? atoi(argv[2]) : 512;
  if (rows <= 0 || cols <= 0 || rows % 16 != 0 || cols % 16 != 0) {
    printf("rodinia-srad-v2_omp: FAIL bad arguments\n");
    return 1;
  }
  const int r1 = argc > 3 ? atoi(argv[3]) : 0, r2 = argc > 4 ? atoi(argv[4]) : 127;
  const int c1 = argc > 5 ? atoi(argv[5]) : 0, c2 = argc > 6 ? atoi(argv[6]) : 127;
  const float lambda = argc > 7 ? atof(argv[7]) : 0.5;
  const int niter = argc > 8 ? atoi(argv[8]) : 10;
  if (r1 < 0 || c1 < 0 || r2 >= rows || c2 >= cols || r1 > r2 || c1 > c2) {
    printf("rodinia-srad-v2_omp: FAIL the speckle is outside the image\n");
    return 1;
  }
  const int size_I = rows * cols;
  std::vector<float> I(size_I), J(size_I);
  random_matrix(I.data(), rows, cols);
  for (int k = 0; k < size_I; k++) J[k] = (float)exp(I[k]);
  std::vector<float> Jref(J);
  // the port's device arrays, untouched before the loop
  float *dN = (float *)malloc(sizeof(float) * size_I), *dS = (float *)malloc(sizeof(float) * size_I);
  float *dW = (float *)malloc(sizeof(float) * size_I), *dE = (float *)malloc(sizeof(float) * size_I);
  float *c = (float *)malloc(sizeof(float) * size_I);
  float *Jp = J.data();

  auto t0 = std::chrono::steady_clock::now();
  for (int iter = 0; iter < niter; iter++) {
    const float q0sqr = roi_q0sqr(Jp, cols, r1, r2, c1, c2);
#pragma omp parallel for
    for (int i = 0; i < rows; i++) {
      const int iN = i > 0 ? i - 1 : 0, iS = i < rows - 1 ? i + 1 : rows - 1;
      for (int j = 0; j < cols; j++) {
        const int k = i * cols + j;
        const float Jc = Jp[k];
        const float n = Jp[iN * cols + j] - Jc, s = Jp[iS * cols + j] - Jc;
        const float w = Jp[i * cols + (j > 0 ? j - 1 : 0)] - Jc;
        const float e = Jp[i * cols + (j < cols - 1 ? j + 1 : cols - 1)] - Jc;
        dN[k] = n; dS[k] = s; dW[k] = w; dE[k] = e;
        float G2 = (n * n + s * s + w * w + e * e) / (Jc * Jc);
        float L = (n + s + w + e) / Jc;
        float num = (0.5 * G2) - ((1.0 / 16.0) * (L * L));
        float den = 1 + (.25 * L);
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
        float ck = 1.0 / (1.0 + den);
        c[k] = ck < 0 ? 0 : (ck > 1 ? 1 : ck);
      }
    }
#pragma omp parallel for
    for (int i = 0; i < rows; i++) {
      const int iS = i < rows - 1 ? i + 1 : rows - 1;
      for (int j = 0; j < cols; j++) {
        const int k = i * cols + j;
        const float cS = c[iS * cols + j], cE = c[i * cols + (j < cols - 1 ? j + 1 : cols - 1)];
        const float D = c[k] * dN[k] + cS * dS[k] + c[k] * dW[k] + cE * dE[k];
        Jp[k] = Jp[k] + 0.25 * lambda * D;
      }
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());

  reference(Jref.data(), rows, cols, r1, r2, c1, c2, lambda, niter);
  double maxrel = 0, change = 0;
  for (int k = 0; k < size_I; k++) {
    maxrel = fmax(maxrel, fabs((double)J[k] - Jref[k]) / fabs((double)Jref[k]));
    change = fmax(change, fabs((double)Jref[k] - exp((double)I[k])));
  }
  printf("max relative |OpenMP - host| = %g; largest change of a pixel %g\n", maxrel, change);
  if (!(maxrel <= 1e-4)) {
    printf("rodinia-srad-v2_omp: FAIL the image differs from the host's\n");
    return 1;
  }
  printf("rodinia-srad-v2_omp: PASS\n");
  return 0;
}
