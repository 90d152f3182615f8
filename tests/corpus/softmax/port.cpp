// Port of HeCBench src/softmax-cuda/main.cu to offload-cxx (see SOURCE.md).
// Row-wise softmax: implementation 0 gives a slice to each work-item, implementation 1 a slice
// to each warp (max and sum reduced across the warp).
// usage: softmax [number of slices] [slice size] [implementation 0|1] [repeat]
//        (default 4096 784 1 2, SMALL for the CPU device; the original's GPU runs:
//         100000 784 0 100 and 100000 784 1 100)
#include <offload/offload.hpp>

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cmath>

#define BLOCK_SIZE 256

// A C model derived from the OpenCL kernel
void softMax_cpu(const int numSlice, const int sliceSize, const float* src, float* dest) {
  for (int i = 0; i < numSlice; i++) {
    float max_ = src[i * sliceSize];
    for (int j = 0; j < sliceSize; j++) {
      max_ = (max_ < src[i * sliceSize + j]) ? src[i * sliceSize + j] : max_;
    }
    float sum = 0;
    for (int j = 0; j < sliceSize; j++) {
      float e = expf(src[i * sliceSize + j] - max_);
      sum += e;
      dest[i * sliceSize + j] = e;
    }
    for (int j = 0; j < sliceSize; j++) {
      dest[i * sliceSize + j] /= sum;
    }
  }
}

OFFLOAD_KERNEL
void softMax (const int numSlice, const int sliceSize,
              offload::device_ptr<const float> src, offload::device_ptr<float> dest)
{
  int i = offload::block_id_x() * offload::block_dim_x() + offload::thread_id_x();
  if (i >= numSlice) return;
  float max_ = src[i * sliceSize];
  for (int j = 0; j < sliceSize; j++) {
    max_ = fmaxf(max_, src[i * sliceSize + j]);
  }
  float sum = 0;
  for (int j = 0; j < sliceSize; j++) {
    sum += expf(src[i * sliceSize + j] - max_);
  }
  for (int j = 0; j < sliceSize; j++) {
    dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
  }
}

OFFLOAD_KERNEL
void softMax2 (const int numSlice, const int sliceSize,
              offload::device_ptr<const float> src, offload::device_ptr<float> dest)
{
  // cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block): the warp of the device
  // (32 lanes on NVIDIA; see SOURCE.md for the CPU device's warps)
  const int warp_size = offload::warp_size();                               // warp.size()
  const int thread_rank = offload::local_linear_id() % warp_size;           // warp.thread_rank()
  const int meta_group_size = offload::workgroup_size() / warp_size;        // warp.meta_group_size()
  const int meta_group_rank = offload::local_linear_id() / warp_size;       // warp.meta_group_rank()
  int i = offload::block_id_x() * meta_group_size + meta_group_rank;
  if (i >= numSlice) return;
  float max_ = src[i * sliceSize];
  for (int j = thread_rank; j < sliceSize; j += warp_size) {
    max_ = fmaxf(max_, src[i * sliceSize + j]);
  }
  max_ = offload::warp_reduce_max(max_);  // cg::reduce(warp, max_, cg::greater<float>{})
  float sum = 0;
  for (int j = thread_rank; j < sliceSize; j += warp_size) {
    sum += expf(src[i * sliceSize + j] - max_);
  }
  sum = offload::warp_reduce_add(sum);  // cg::reduce(warp, sum, cg::plus<float>{})
  for (int j = thread_rank; j < sliceSize; j += warp_size) {
    dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
  }
}


int main(int argc, char* argv[]) {
  if (argc != 1 && argc != 5) {
    printf("Usage: %s <number of slices> <slice size> <implementations> <repeat>\n", argv[0]);
    printf("implementation 0: naive\n");
    printf("implementation 1: optimized\n");
    printf("softmax: FAIL bad arguments\n");
    return 1;
  }

  int numSlice = argc > 1 ? atoi(argv[1]) : 4096;  // SMALL; 100000 784 1 100 for a GPU run
  int sliceSize = argc > 2 ? atoi(argv[2]) : 784;
  int kernel = argc > 3 ? atoi(argv[3]) : 1;
  int repeat = argc > 4 ? atoi(argv[4]) : 2;
  int numElem = numSlice * sliceSize;
  if (numSlice <= 0 || sliceSize <= 0 || repeat <= 0) {
    printf("softmax: FAIL bad arguments\n");
    return 1;
  }

  float* input = (float*) aligned_alloc(1024, sizeof(float) * numElem);
  float* output_gpu = (float*) aligned_alloc(1024, sizeof(float) * numElem);
  float* output_cpu = (float*) aligned_alloc(1024, sizeof(float) * numElem);

  srand(2);
  for (int i = 0; i < numSlice; i++)
    for (int j = 0; j < sliceSize; j++)
      input[i*sliceSize+j] = rand() % 13;

  offload::buffer<float> d_input(numElem), d_output(numElem);
  d_input.copy_from(std::span<const float>(input, numElem));

  float time_ms = 0;
  offload::queue q;
  if (kernel == 1) {
    offload::dim3 grids ((numSlice+BLOCK_SIZE/32-1)/(BLOCK_SIZE/32));
    offload::dim3 blocks (BLOCK_SIZE);

    q.wait();
    auto start = std::chrono::steady_clock::now();

    for (int n = 0; n < repeat; n++) {
      q.launch(softMax2, {.workgroups = grids, .threads = blocks}, numSlice, sliceSize, d_input.data(), d_output.data());
    }

    q.wait();
    auto end = std::chrono::steady_clock::now();
    auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    printf("Average kernel execution time: %f (ms)\n", (time * 1e-6f) / repeat);
    time_ms = (time * 1e-6f) / repeat;
  }
  else {
    offload::dim3 grids ((numSlice+BLOCK_SIZE-1)/BLOCK_SIZE);
    offload::dim3 blocks (BLOCK_SIZE);

    q.wait();
    auto start = std::chrono::steady_clock::now();

    for (int n = 0; n < repeat; n++) {
      q.launch(softMax, {.workgroups = grids, .threads = blocks}, numSlice, sliceSize, d_input.data(), d_output.data());
    }

    q.wait();
    auto end = std::chrono::steady_clock::now();
    auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    printf("Average kernel execution time: %f (ms)\n", (time * 1e-6f) / repeat);
    time_ms = (time * 1e-6f) / repeat;
  }
  printf("time_ms: %f (average kernel execution time)\n", time_ms);

  d_output.copy_to(std::span<float>(output_gpu, numElem));

  // verification
  bool ok = true;
  softMax_cpu(numSlice, sliceSize, input, output_cpu);
  for (int i = 0; i < numElem; i++) {
    if (fabsf(output_cpu[i] - output_gpu[i]) > 1e-3) {
      printf("@index %d host: %f device: %f\n", i, output_cpu[i], output_gpu[i]);
      ok = false;
      break;
    }
  }
  printf("%s\n", ok ? "PASS" : "FAIL");

  free(input);
  free(output_cpu);
  free(output_gpu);
  if (ok)
    printf("softmax: PASS\n");
  else
    printf("softmax: FAIL the result differs from the host softmax\n");
  return ok ? 0 : 1;
}
