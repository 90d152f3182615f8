// Port of HeCBench src/stencil1d-cuda/stencil_1d.cu to offload-cxx (see SOURCE.md).
// 1-D stencil of radius 7 over int data, staged in static shared memory.
// usage: stencil1d [length (multiple of 256)] [repeat]
#include <offload/offload.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define RADIUS 7
#define BLOCK_SIZE 256

OFFLOAD_KERNEL
void stencil_1d(offload::device_ptr<int> in, offload::device_ptr<int> out)
{
  auto &temp = offload::shared<int[BLOCK_SIZE + 2 * RADIUS]>([] {});
  int gindex = offload::thread_id_x() + offload::block_id_x() * offload::block_dim_x();
  int lindex = offload::thread_id_x() + RADIUS;

  // Read input elements into shared memory
  temp[lindex] = in[gindex];

  // At both end of a block, the sliding window moves beyond the block boundary.
  if (offload::thread_id_x() < RADIUS) {
    temp[lindex - RADIUS] = (gindex < RADIUS) ? 0 : in[gindex - RADIUS];
    temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE];
  }

  // Synchronize (ensure all the threads will be completed before continue)
  offload::barrier();

  // Apply the 1D stencil
  int result = 0;
  for (int offset = -RADIUS ; offset <= RADIUS ; offset++)
    result += temp[lindex + offset];

  // Store the result
  out[gindex] = result;
}

int main(int argc, char* argv[]) {
  const int length = argc > 1 ? atoi(argv[1]) : 1 << 16;  // SMALL; e.g. 1<<26 for a GPU run
  const int repeat = argc > 2 ? atoi(argv[2]) : 4;
  if (length <= 0 || length % BLOCK_SIZE != 0 || repeat <= 0) {
    printf("stencil1d: FAIL length must be a positive multiple of %d\n", BLOCK_SIZE);
    return 1;
  }

  std::vector<int> a(length + RADIUS), b(length);
  for (int i = 0; i < length+RADIUS; i++) a[i] = i;

  offload::buffer<int> d_a(length + RADIUS), d_b(length);
  d_a.copy_from(a);

  offload::launch_config cfg{.workgroups = {length/BLOCK_SIZE}, .threads = {BLOCK_SIZE}};

  offload::queue q;
  auto start = q.record();
  for (int i = 0; i < repeat; i++)
    q.launch(stencil_1d, cfg, d_a.data(), d_b.data());
  auto end = q.record();
  q.wait();
  printf("time_ms: %f (average kernel execution time over %d runs)\n",
         offload::elapsed_ms(start, end) / repeat, repeat);

  d_b.copy_to(b);

  // verification (the original's)
  for (int i = 0; i < 2*RADIUS; i++) {
    int s = 0;
    for (int j = i; j <= i+2*RADIUS; j++)
      s += j < RADIUS ? 0 : (a[j] - RADIUS);
    if (s != b[i]) {
      printf("stencil1d: FAIL at %d: %d (host) != %d (device)\n", i, s, b[i]);
      return 1;
    }
  }
  for (int i = 2*RADIUS; i < length; i++) {
    int s = 0;
    for (int j = i-RADIUS; j <= i+RADIUS; j++)
      s += a[j];
    if (s != b[i]) {
      printf("stencil1d: FAIL at %d: %d (host) != %d (device)\n", i, s, b[i]);
      return 1;
    }
  }
  printf("stencil1d: PASS\n");
  return 0;
}
