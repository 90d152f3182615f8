// Port of HeCBench src/matrix-rotate-cuda/main.cu to offload-cxx (see SOURCE.md), the kernel
// written as a lambda (offload::queue::parallel_for, issue 33; the OFFLOAD_KERNEL version is
// port.cpp).
// In-place rotation of an n x n matrix, one work-item per layer (strided, irregular accesses).
// usage: matrix-rotate [n] [repeat]
#include <offload/offload.hpp>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <vector>

void rotate_matrix_serial(float *matrix, int n) {

  for (int layer = 0; layer < n / 2; ++layer) {
    int first = layer;
    int last = n - 1 - layer;
    for(int i = first; i < last; ++i) {
      int offset = i - first;
        float top = matrix[first*n+i]; // save top
        // left -> top
        matrix[first*n+i] = matrix[(last-offset)*n+first];

        // bottom -> left
        matrix[(last-offset)*n+first] = matrix[last*n+(last-offset)];

        // right -> bottom
        matrix[last*n+(last-offset)] = matrix[i*n+last];

        // top -> right
        matrix[i*n+last] = top; // right <- saved top
    }
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1000;       // SMALL; e.g. 8000 for a GPU run
  const int repeat = argc > 2 ? atoi(argv[2]) : 3;      // odd: the result is not the input
  if (n <= 0 || repeat <= 0) {
    printf("matrix-rotate: FAIL bad arguments\n");
    return 1;
  }

  std::vector<float> serial_res(std::size_t(n) * n), parallel_res(std::size_t(n) * n);

  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      serial_res[i*n+j] = parallel_res[i*n+j] = i*n+j;

  for (int i = 0; i < repeat; i++) {
    rotate_matrix_serial(serial_res.data(), n);
  }

  offload::buffer<float> d_parallel_res(std::size_t(n) * n);
  d_parallel_res.copy_from(parallel_res);

  offload::queue q;
  auto start = q.record();
  const offload::device_ptr<float> matrix = d_parallel_res.data();
  for (int i = 0; i < repeat; i++) {
    q.parallel_for(offload::range{n / 2}, [=](std::size_t l) {
      const int layer = int(l);
      int first = layer;
      int last = n - 1 - layer;
      for (int i = first; i < last; ++i) {
        int offset = i - first;
        float top = matrix[first*n+i]; // save top
        // left -> top
        matrix[first*n+i] = matrix[(last-offset)*n+first];
        // bottom -> left
        matrix[(last-offset)*n+first] = matrix[last*n+(last-offset)];
        // right -> bottom
        matrix[last*n+(last-offset)] = matrix[i*n+last];
        // top -> right
        matrix[i*n+last] = top; // right <- saved top
      }
    });
  }
  auto end = q.record();
  q.wait();
  printf("time_ms: %f (average kernel execution time over %d runs)\n",
         offload::elapsed_ms(start, end) / repeat, repeat);

  d_parallel_res.copy_to(parallel_res);

  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (serial_res[i*n+j] != parallel_res[i*n+j]) {
        printf("matrix-rotate: FAIL at (%d, %d): %g (host) != %g (device)\n", i, j,
               serial_res[i*n+j], parallel_res[i*n+j]);
        return 1;
      }
    }
  }

  printf("matrix-rotate: PASS\n");
  return 0;
}
