// Port of HeCBench src/atomicReduction-cuda (reduction.cu + kernels.h) to offload-cxx
// (see SOURCE.md). Grid-stride partial sums of an int array, combined with one atomic add per
// work-item; five variants (1, 2, 4, 8, 16 elements per iteration) for four block sizes.
// usage: atomic-reduction [arrayLength] [repeat]
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

// ---- kernels.h ----
OFFLOAD_KERNEL void atomic_reduction(offload::device_ptr<int> in, offload::device_ptr<int> out, int arrayLength) {
  int sum=0;
  int idx = offload::block_id_x()*offload::block_dim_x()+offload::thread_id_x();
  for(int i= idx;i<arrayLength;i+=offload::block_dim_x()*offload::grid_dim_x()) {
    sum+=in[i];
  }
  offload::atomic_add(&out[0],sum);
}

OFFLOAD_KERNEL void atomic_reduction_v2(offload::device_ptr<int> in, offload::device_ptr<int> out, int arrayLength) {
  int sum=0;
  int idx = offload::block_id_x()*offload::block_dim_x()+offload::thread_id_x();
  for(int i= idx*2;i<arrayLength;i+=offload::block_dim_x()*offload::grid_dim_x()*2) {
    sum+=in[i] + in[i+1];
  }
  offload::atomic_add(&out[0],sum);
}

OFFLOAD_KERNEL void atomic_reduction_v4(offload::device_ptr<int> in, offload::device_ptr<int> out, int arrayLength) {
  int sum=0;
  int idx = offload::block_id_x()*offload::block_dim_x()+offload::thread_id_x();
  for(int i= idx*4;i<arrayLength;i+=offload::block_dim_x()*offload::grid_dim_x()*4) {
    sum+=in[i] + in[i+1] + in[i+2] + in[i+3];
  }
  offload::atomic_add(&out[0],sum);
}

OFFLOAD_KERNEL void atomic_reduction_v8(offload::device_ptr<int> in, offload::device_ptr<int> out, int arrayLength) {
  int sum=0;
  int idx = offload::block_id_x()*offload::block_dim_x()+offload::thread_id_x();
  for(int i= idx*8;i<arrayLength;i+=offload::block_dim_x()*offload::grid_dim_x()*8) {
    sum+=in[i] + in[i+1] + in[i+2] + in[i+3] +in[i+4] +in[i+5] +in[i+6] +in[i+7];
  }
  offload::atomic_add(&out[0],sum);
}

OFFLOAD_KERNEL void atomic_reduction_v16(offload::device_ptr<int> in, offload::device_ptr<int> out, int arrayLength) {
  int sum=0;
  int idx = offload::block_id_x()*offload::block_dim_x()+offload::thread_id_x();
  for(int i= idx*16;i<arrayLength;i+=offload::block_dim_x()*offload::grid_dim_x()*16) {
    sum+=in[i] + in[i+1] + in[i+2] + in[i+3] +in[i+4] +in[i+5] +in[i+6] +in[i+7]
      +in[i+8] +in[i+9] +in[i+10] +in[i+11] +in[i+12] +in[i+13] +in[i+14] +in[i+15] ;
  }
  offload::atomic_add(&out[0],sum);
}

// ---- reduction.cu ----

int main(int argc, char** argv)
{
  int arrayLength = 1 << 20;  // SMALL (the original's default, 52428800, for a GPU run)
  int block_sizes[] = {128, 256, 512, 1024};
  int N = 2;                  // the original's default: 100

  if (argc > 1) arrayLength=atoi(argv[1]);
  if (argc > 2) N=atoi(argv[2]);
  if (arrayLength <= 0 || arrayLength % 16 != 0 || N <= 0) {
    std::cout << "atomic-reduction: FAIL arrayLength must be a positive multiple of 16" << std::endl;
    return 1;
  }

  std::cout << "Array size: " << arrayLength*sizeof(int)/1024.0/1024.0 << " MB"<<std::endl;
  std::cout << "Repeat the kernel execution: " << N << " times" << std::endl;

  std::vector<int> array(arrayLength);
  int checksum =0;  // the host computation
  for(int i=0;i<arrayLength;i++) {
    array[i]=rand()%2;
    checksum+=array[i];
  }

  offload::buffer<int> in(arrayLength), out(1);
  in.copy_from(array);

  offload::queue q;
  // warmup
  for(int i=0;i<N;i++) {
    q.fill(out, 0);
    q.launch(atomic_reduction, {.workgroups = {2048}, .threads = {256}}, in.data(), out.data(), arrayLength);
  }
  q.wait();

  float GB=(float)arrayLength*sizeof(int)*N;
  int sum;
  double times, total_ms = 0;
  int failures = 0;

#define benchmark(kernel_name, grid_size) \
    { \
    auto t1 = q.record(); \
    for(int i=0;i<N;i++) { \
      q.fill(out, 0); \
      q.launch(kernel_name, {.workgroups = {grid_size}, .threads = {block_size}}, in.data(), out.data(), arrayLength); \
    } \
    auto t2 = q.record(); \
    q.wait(); \
    times = offload::elapsed_ms(t1, t2) * 1e-3; \
    total_ms += offload::elapsed_ms(t1, t2); \
    std::cout << #kernel_name << ": Thread block size: " <<  block_size << ", "; \
    std::cout << "The average performance of reduction is "<< 1.0E-09 * GB/times<<" GBytes/sec"<<std::endl; \
    std::vector<int> sum_v(1); \
    out.copy_to(sum_v); \
    sum = sum_v[0]; \
    if(sum==checksum) \
      std::cout<<"VERIFICATION: PASS"<<std::endl; \
    else { \
      std::cout<<"VERIFICATION: FAIL!! " << sum << " != " << checksum << std::endl; \
      ++failures; \
    } \
    }

  for (size_t k = 0; k < sizeof(block_sizes) / sizeof(int); k++) {
    int block_size = block_sizes[k];
    int blocks=std::min((arrayLength+block_size-1)/block_size,2048);
    benchmark(atomic_reduction, blocks);
    benchmark(atomic_reduction_v2, blocks/2);
    benchmark(atomic_reduction_v4, blocks/4);
    benchmark(atomic_reduction_v8, blocks/8);
    benchmark(atomic_reduction_v16, blocks/16);
  }

  std::printf("time_ms: %f (all 20 benchmarks, %d runs each)\n", total_ms, N);
  if (failures) {
    std::printf("atomic-reduction: FAIL %d of 20 sums differ from the host's\n", failures);
    return 1;
  }
  std::printf("atomic-reduction: PASS\n");
  return 0;
}
