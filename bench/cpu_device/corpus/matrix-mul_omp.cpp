// The algorithm of tests/corpus/matrix-mul/port.cpp (C = A * B, float), written with OpenMP on
// the host: rows of C split among threads, i-k-j loop order. Times the same work as the port's
// time_ms: one untimed warm-up product, then `iter` products, printed as the average of one.
// usage: matrix-mul_omp [-wA=WidthA] [-hA=HeightA] [-wB=WidthB] [-hB=HeightB] [-iter=N]
//        (defaults as the port's: 320 320 640 320, 2)     g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static void matmul(float *C, const float *A, const float *B, int hA, int wA, int wB) {
#pragma omp parallel for
  for (int y = 0; y < hA; y++) {
    float *c = C + (size_t)y * wB;
    for (int x = 0; x < wB; x++) c[x] = 0;
    for (int k = 0; k < wA; k++) {
      const float a = A[(size_t)y * wA + k];
      const float *b = B + (size_t)k * wB;
      for (int x = 0; x < wB; x++) c[x] += a * b[x];
    }
  }
}

static bool GetIntFlag(int argc, char **argv, const char *name, int *value) {
  size_t len = strlen(name);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    while (*arg == '-') arg++;
    if (strncmp(arg, name, len) == 0 && arg[len] == '=') {
      *value = atoi(arg + len + 1);
      return true;
    }
  }
  return false;
}

int main(int argc, char **argv) {
  int wA = 320, hA = 320, wB = 640, hB = 320, iter = 2;
  GetIntFlag(argc, argv, "wA", &wA);
  GetIntFlag(argc, argv, "hA", &hA);
  GetIntFlag(argc, argv, "wB", &wB);
  GetIntFlag(argc, argv, "hB", &hB);
  GetIntFlag(argc, argv, "iter", &iter);
  if (wA != hB || wA <= 0 || hA <= 0 || wB <= 0 || iter <= 0 || wA % 32 || hA % 32 || wB % 32) {
    printf("matrix-mul_omp: FAIL bad arguments\n");
    return 1;
  }
  std::vector<float> A((size_t)wA * hA, 1.0f), B((size_t)wB * hB, 0.01f), C((size_t)wB * hA);

  matmul(C.data(), A.data(), B.data(), hA, wA, wB);  // warm-up, as the port
  auto t0 = std::chrono::steady_clock::now();
  for (int j = 0; j < iter; j++) matmul(C.data(), A.data(), B.data(), hA, wA, wB);
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f (average over %d products)\n",
         std::chrono::duration<double, std::milli>(t1 - t0).count() / iter, iter);

  bool ok = true;  // the port's first check (constant matrices)
  for (size_t i = 0; i < C.size(); i++)
    if (std::fabs(C[i] - wA * 0.01f) / std::fabs(C[i]) / wA > 1e-6) ok = false;
  // the port's second check: small integers, exact, against a serial product
  srand(1);
  for (auto &v : A) v = static_cast<float>(rand() % 9 - 4);
  srand(2);
  for (auto &v : B) v = static_cast<float>(rand() % 9 - 4);
  matmul(C.data(), A.data(), B.data(), hA, wA, wB);
  std::vector<float> ref(C.size(), 0.0f);
  for (int y = 0; y < hA; y++)
    for (int k = 0; k < wA; k++)
      for (int x = 0; x < wB; x++) ref[(size_t)y * wB + x] += A[(size_t)y * wA + k] * B[(size_t)k * wB + x];
  if (ref != C) ok = false;
  printf("matrix-mul_omp: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
