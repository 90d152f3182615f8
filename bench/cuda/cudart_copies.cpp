// bench/cuda/cudart_copies.cpp — cudaMemcpy, called from the offload-cxx BabelStream program
// itself (built with -DBENCH_CUDART_REFERENCE), so that pageable transfers are compared in one
// process, interleaved, on the same host memory and device buffer: pageable copies depend on
// where the process's memory and threads land (NUMA), which differs between two processes run
// back to back (bench/NOTES.md). Host-only C++: g++ with CUDA's headers, linked with
// libcudart_static. The device buffer is offload-cxx's (omp_target_alloc in the device's primary
// context, which the CUDA runtime uses too).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>

extern "C" int bench_cudart_memcpy(void *dst, const void *src, std::size_t bytes, int to_device) {
  cudaError_t e = cudaMemcpy(dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
  if (e != cudaSuccess)
    std::fprintf(stderr, "cudaMemcpy: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
