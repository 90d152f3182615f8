// Port of NVIDIA cuda-samples Samples/0_Introduction/vectorAdd/vectorAdd.cu to offload-cxx
// (see SOURCE.md), the kernel written as a lambda (offload::queue::parallel_for, issue 33; the
// OFFLOAD_KERNEL version is port.cpp). Element-wise C = A + B (streaming).
// usage: vector-add [numElements]
#include <offload/offload.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
    // The original's size, 50000, is the default (SMALL); e.g. 100000000 for a GPU run
    int numElements = argc > 1 ? atoi(argv[1]) : 50000;
    if (numElements <= 0) {
        printf("vector-add: FAIL bad arguments\n");
        return 1;
    }
    printf("[Vector addition of %d elements]\n", numElements);

    std::vector<float> h_A(numElements), h_B(numElements), h_C(numElements);

    // Initialize the host input vectors
    for (int i = 0; i < numElements; ++i) {
        h_A[i] = rand() / (float)RAND_MAX;
        h_B[i] = rand() / (float)RAND_MAX;
    }

    offload::buffer<float> d_A(numElements), d_B(numElements), d_C(numElements);

    printf("Copy input data from the host memory to the CUDA device\n");
    d_A.copy_from(h_A);
    d_B.copy_from(h_B);

    // The Vector Add kernel, as a lambda over the elements (the device picks the workgroups)
    printf("CUDA kernel launch over %d elements\n", numElements);
    offload::queue q;
    const offload::device_ptr<float> A = d_A.data(), B = d_B.data(), C = d_C.data();
    auto start = q.record();
    q.parallel_for(offload::range{numElements}, [=](std::size_t i) { C[i] = A[i] + B[i] + 0.0f; });
    auto end = q.record();
    q.wait();  // errors of the launch are offload::error exceptions (cudaGetLastError)
    printf("time_ms: %f\n", offload::elapsed_ms(start, end));

    printf("Copy output data from the CUDA device to the host memory\n");
    d_C.copy_to(h_C);

    // Verify that the result vector is correct
    for (int i = 0; i < numElements; ++i) {
        if (fabs(h_A[i] + h_B[i] - h_C[i]) > 1e-5) {
            printf("vector-add: FAIL Result verification failed at element %d!\n", i);
            return 1;
        }
    }
    printf("vector-add: PASS\n");
    return 0;
}
