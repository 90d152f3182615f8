// The algorithm of tests/corpus/softmax/port.cpp (row-wise softmax), written with OpenMP on the
// host: rows split among threads, each row done serially (max, sum of exponentials, quotients).
// The port's two implementations (a row per work-item, a row per warp) are one natural form on
// the host; the implementation argument is accepted and ignored. time_ms: the average of
// `repeat` runs, as the port's.
// usage: softmax_omp [number of slices] [slice size] [implementation 0|1] [repeat]
//        g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

static void softMax_cpu(int numSlice, int sliceSize, const float *src, float *dest) {
  for (int i = 0; i < numSlice; i++) {
    float max_ = src[i * sliceSize];
    for (int j = 0; j < sliceSize; j++)
      max_ = (max_ < src[i * sliceSize + j]) ? src[i * sliceSize + j] : max_;
    float sum = 0;
    for (int j = 0; j < sliceSize; j++) {
      float e = expf(src[i * sliceSize + j] - max_);
      sum += e;
      dest[i * sliceSize + j] = e;
    }
    for (int j = 0; j < sliceSize; j++) dest[i * sliceSize + j] /= sum;
  }
}

int main(int argc, char *argv[]) {
  int numSlice = argc > 1 ? atoi(argv[1]) : 4096;
  int sliceSize = argc > 2 ? atoi(argv[2]) : 784;
  int repeat = argc > 4 ? atoi(argv[4]) : 2;
  int numElem = numSlice * sliceSize;
  if (numSlice <= 0 || sliceSize <= 0 || repeat <= 0) {
    printf("softmax_omp: FAIL bad arguments\n");
    return 1;
  }
  float *input = (float *)aligned_alloc(1024, sizeof(float) * numElem);
  float *output = (float *)aligned_alloc(1024, sizeof(float) * numElem);
  float *output_cpu = (float *)aligned_alloc(1024, sizeof(float) * numElem);
  srand(2);
  for (int i = 0; i < numElem; i++) input[i] = rand() % 13;
  // output is left untouched, as the port's device buffer (first written by the timed runs)

  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; r++) {
#pragma omp parallel for
    for (int i = 0; i < numSlice; i++) {
      const float *src = input + (size_t)i * sliceSize;
      float *dst = output + (size_t)i * sliceSize;
      float max_ = src[0];
      for (int j = 0; j < sliceSize; j++) max_ = fmaxf(max_, src[j]);
      float sum = 0;
      for (int j = 0; j < sliceSize; j++) sum += expf(src[j] - max_);
      for (int j = 0; j < sliceSize; j++) dst[j] = expf(src[j] - max_) / sum;
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f (average over %d runs)\n",
         std::chrono::duration<double, std::milli>(t1 - t0).count() / repeat, repeat);

  softMax_cpu(numSlice, sliceSize, input, output_cpu);
  bool ok = true;
  for (int i = 0; i < numElem; i++)
    if (fabsf(output_cpu[i] - output[i]) > 1e-3) { ok = false; break; }
  printf("softmax_omp: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
