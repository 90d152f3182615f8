// Port of NVIDIA cuda-samples Samples/0_Introduction/matrixMul/matrixMul.cu to offload-cxx
// (see SOURCE.md). Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved. BSD-3-Clause:
// the original's licence text is at the top of original.cu and applies to this port.
//
// Matrix multiplication C = A * B, tiled in shared memory (BLOCK_SIZE x BLOCK_SIZE tiles of A
// and B per workgroup, one element of C per work-item).
// usage: matrix-mul [-wA=WidthA] [-hA=HeightA] [-wB=WidthB] [-hB=HeightB] [-iter=N]
//        (default: the original's -wA=320 -hA=320 -wB=640 -hB=320, with -iter=2, SMALL for the
//         CPU device, where the original has 300 iterations, fixed; for a GPU run:
//         -wA=1024 -hA=1024 -wB=1024 -hB=1024 -iter=300)
#include <offload/offload.hpp>

// System includes
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

/**
 * Matrix multiplication (CUDA Kernel) on the device: C = A * B
 * wA is A's width and wB is B's width
 */
template <int BLOCK_SIZE>
OFFLOAD_KERNEL void MatrixMulCUDA(offload::device_ptr<float> C, offload::device_ptr<float> A,
                                  offload::device_ptr<float> B, int wA, int wB)
{
    // Block index
    int bx = offload::block_id_x();
    int by = offload::block_id_y();

    // Thread index
    int tx = offload::thread_id_x();
    int ty = offload::thread_id_y();

    // Index of the first sub-matrix of A processed by the block
    int aBegin = wA * BLOCK_SIZE * by;

    // Index of the last sub-matrix of A processed by the block
    int aEnd = aBegin + wA - 1;

    // Step size used to iterate through the sub-matrices of A
    int aStep = BLOCK_SIZE;

    // Index of the first sub-matrix of B processed by the block
    int bBegin = BLOCK_SIZE * bx;

    // Step size used to iterate through the sub-matrices of B
    int bStep = BLOCK_SIZE * wB;

    // Csub is used to store the element of the block sub-matrix
    // that is computed by the thread
    float Csub = 0;

    // Loop over all the sub-matrices of A and B
    // required to compute the block sub-matrix
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        // Declaration of the shared memory array As used to
        // store the sub-matrix of A
        auto &As = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});

        // Declaration of the shared memory array Bs used to
        // store the sub-matrix of B
        auto &Bs = offload::shared<float[BLOCK_SIZE][BLOCK_SIZE]>([] {});

        // Load the matrices from device memory
        // to shared memory; each thread loads
        // one element of each matrix
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];

        // Synchronize to make sure the matrices are loaded
        offload::barrier();

        // Multiply the two matrices together;
        // each thread computes one element
        // of the block sub-matrix
#pragma unroll

        for (int k = 0; k < BLOCK_SIZE; ++k) {
            Csub += As[ty][k] * Bs[k][tx];
        }

        // Synchronize to make sure that the preceding
        // computation is done before loading two new
        // sub-matrices of A and B in the next iteration
        offload::barrier();
    }

    // Write the block sub-matrix to device memory;
    // each thread writes one element
    int c               = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

void ConstantInit(float *data, int size, float val)
{
    for (int i = 0; i < size; ++i) {
        data[i] = val;
    }
}

// Added (see SOURCE.md): small integers, so that every product and sum is exact in float and
// the device result must equal the host's bit for bit.
void IntegerInit(float *data, int size, unsigned int seed)
{
    srand(seed);
    for (int i = 0; i < size; ++i) {
        data[i] = static_cast<float>(rand() % 9 - 4);
    }
}

/**
 * Run a simple test of matrix multiplication using CUDA
 */
int MatrixMultiply(int block_size, const offload::dim3 &dimsA, const offload::dim3 &dimsB, int nIter)
{
    // Allocate host memory for matrices A and B
    unsigned int size_A = dimsA.x * dimsA.y;
    std::vector<float> h_A(size_A);
    unsigned int size_B = dimsB.x * dimsB.y;
    std::vector<float> h_B(size_B);

    // Initialize host memory
    const float valB = 0.01f;
    ConstantInit(h_A.data(), size_A, 1.0f);
    ConstantInit(h_B.data(), size_B, valB);

    // Allocate host matrix C
    offload::dim3 dimsC(dimsB.x, dimsA.y, 1);
    std::vector<float> h_C(dimsC.x * dimsC.y);

    // Allocate device memory
    offload::buffer<float> d_A(size_A), d_B(size_B), d_C(dimsC.x * dimsC.y);

    offload::queue stream;

    // copy host memory to device
    stream.copy(d_A, std::span<const float>(h_A));
    stream.copy(d_B, std::span<const float>(h_B));

    // Setup execution parameters
    offload::dim3 threads(block_size, block_size);
    offload::dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);

    // Create and start timer
    printf("Computing result using CUDA Kernel...\n");

    // Performs warmup operation using matrixMul CUDA kernel
    if (block_size == 16) {
        stream.launch(MatrixMulCUDA<16>, {.workgroups = grid, .threads = threads},
                      d_C.data(), d_A.data(), d_B.data(), int(dimsA.x), int(dimsB.x));
    }
    else {
        stream.launch(MatrixMulCUDA<32>, {.workgroups = grid, .threads = threads},
                      d_C.data(), d_A.data(), d_B.data(), int(dimsA.x), int(dimsB.x));
    }

    printf("done\n");
    stream.wait();

    // Record the start event
    offload::event start = stream.record();

    // Execute the kernel (nIter: 300 in the original, an argument here)
    for (int j = 0; j < nIter; j++) {
        if (block_size == 16) {
            stream.launch(MatrixMulCUDA<16>, {.workgroups = grid, .threads = threads},
                          d_C.data(), d_A.data(), d_B.data(), int(dimsA.x), int(dimsB.x));
        }
        else {
            stream.launch(MatrixMulCUDA<32>, {.workgroups = grid, .threads = threads},
                          d_C.data(), d_A.data(), d_B.data(), int(dimsA.x), int(dimsB.x));
        }
    }

    // Record the stop event
    offload::event stop = stream.record();

    // Wait for the stop event to complete
    stop.wait();

    float msecTotal = offload::elapsed_ms(start, stop);

    // Compute and print the performance
    float  msecPerMatrixMul = msecTotal / nIter;
    double flopsPerMatrixMul =
        2.0 * static_cast<double>(dimsA.x) * static_cast<double>(dimsA.y) * static_cast<double>(dimsB.x);
    double gigaFlops = (flopsPerMatrixMul * 1.0e-9f) / (msecPerMatrixMul / 1000.0f);
    printf("Performance= %.2f GFlop/s, Time= %.3f msec, Size= %.0f Ops,"
           " WorkgroupSize= %u threads/block\n",
           gigaFlops,
           msecPerMatrixMul,
           flopsPerMatrixMul,
           threads.x * threads.y);
    printf("time_ms: %f (average kernel time over %d launches)\n", msecPerMatrixMul, nIter);

    // Copy result from device to host
    stream.copy(std::span<float>(h_C), d_C);
    stream.wait();

    printf("Checking computed result for correctness: ");
    bool correct = true;

    // test relative error by the formula
    //     |<x, y>_cpu - <x,y>_gpu|/<|x|, |y|>  < eps
    double eps = 1.e-6; // machine zero

    for (int i = 0; i < static_cast<int>(dimsC.x * dimsC.y); i++) {
        double abs_err    = fabs(h_C[i] - (dimsA.x * valB));
        double dot_length = dimsA.x;
        double abs_val    = fabs(h_C[i]);
        double rel_err    = abs_err / abs_val / dot_length;

        if (rel_err > eps) {
            printf("Error! Matrix[%05d]=%.8f, ref=%.8f error term is > %E\n", i, h_C[i], dimsA.x * valB, eps);
            correct = false;
        }
    }

    printf("%s\n", correct ? "Result = PASS" : "Result = FAIL");

    // Added (see SOURCE.md): constant matrices cannot tell one element of a tile from another,
    // so one more launch, untimed, multiplies matrices of distinct small integers, compared
    // exactly with the product computed on the host.
    IntegerInit(h_A.data(), size_A, 1);
    IntegerInit(h_B.data(), size_B, 2);
    stream.copy(d_A, std::span<const float>(h_A));
    stream.copy(d_B, std::span<const float>(h_B));
    if (block_size == 16) {
        stream.launch(MatrixMulCUDA<16>, {.workgroups = grid, .threads = threads},
                      d_C.data(), d_A.data(), d_B.data(), int(dimsA.x), int(dimsB.x));
    }
    else {
        stream.launch(MatrixMulCUDA<32>, {.workgroups = grid, .threads = threads},
                      d_C.data(), d_A.data(), d_B.data(), int(dimsA.x), int(dimsB.x));
    }
    stream.copy(std::span<float>(h_C), d_C);
    stream.wait();

    std::vector<float> ref(dimsC.x * dimsC.y, 0.0f);
    for (unsigned int y = 0; y < dimsA.y; y++)
        for (unsigned int k = 0; k < dimsA.x; k++) {
            const float a = h_A[y * dimsA.x + k];
            for (unsigned int x = 0; x < dimsB.x; x++)
                ref[y * dimsC.x + x] += a * h_B[k * dimsB.x + x];
        }
    unsigned int mismatches = 0, first = 0;
    for (unsigned int i = 0; i < dimsC.x * dimsC.y; i++)
        if (h_C[i] != ref[i] && mismatches++ == 0)
            first = i;
    if (mismatches > 0)
        printf("Host check: %u of %u elements differ, first C[%u][%u] = %.1f (host: %.1f)\n",
               mismatches, dimsC.x * dimsC.y, first / dimsC.x, first % dimsC.x, h_C[first], ref[first]);
    else
        printf("Host check: all %u elements equal\n", dimsC.x * dimsC.y);

    if (correct && mismatches == 0) {
        printf("matrix-mul: PASS\n");
        return EXIT_SUCCESS;
    }
    if (!correct)
        printf("matrix-mul: FAIL the result of the constant matrices differs from %f\n",
               dimsA.x * valB);
    else
        printf("matrix-mul: FAIL %u elements differ from the host product\n", mismatches);
    return EXIT_FAILURE;
}

// The original's checkCmdLineFlag / getCmdLineArgumentInt (cuda-samples' helper_string.h), for
// the flags it takes: -name=value.
static bool GetIntFlag(int argc, char **argv, const char *name, unsigned int *value)
{
    size_t len = strlen(name);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        while (*arg == '-') arg++;
        if (strncmp(arg, name, len) == 0 && arg[len] == '=') {
            *value = static_cast<unsigned int>(atoi(arg + len + 1));
            return true;
        }
    }
    return false;
}

/**
 * Program main
 */
int main(int argc, char **argv)
{
    printf("[Matrix Multiply Using CUDA] - Starting...\n");

    for (int i = 1; i < argc; i++) {
        if (strstr(argv[i], "help") || strchr(argv[i], '?')) {
            printf("Usage -wA=WidthA -hA=HeightA (Width x Height of Matrix A)\n");
            printf("      -wB=WidthB -hB=HeightB (Width x Height of Matrix B)\n");
            printf("      -iter=N (timed launches; the original's 300)\n");
            printf("  Note: Outer matrix dimensions of A & B matrices"
                   " must be equal.\n");

            exit(EXIT_SUCCESS);
        }
    }

    int block_size = 32;

    offload::dim3 dimsA(5 * 2 * block_size, 5 * 2 * block_size, 1);
    offload::dim3 dimsB(5 * 4 * block_size, 5 * 2 * block_size, 1);
    unsigned int nIter = 2;  // SMALL default for the CPU device (the original: 300, fixed)

    GetIntFlag(argc, argv, "wA", &dimsA.x);  // width of Matrix A
    GetIntFlag(argc, argv, "hA", &dimsA.y);  // height of Matrix A
    GetIntFlag(argc, argv, "wB", &dimsB.x);  // width of Matrix B
    GetIntFlag(argc, argv, "hB", &dimsB.y);  // height of Matrix B
    GetIntFlag(argc, argv, "iter", &nIter);

    if (dimsA.x != dimsB.y) {
        printf("Error: outer matrix dimensions must be equal. (%d != %d)\n", dimsA.x, dimsB.y);
        printf("matrix-mul: FAIL bad arguments\n");
        exit(EXIT_FAILURE);
    }
    // The kernel has no bounds checks: as in the original, every extent must be a multiple of
    // the block size (the original would read and write out of bounds otherwise).
    if (dimsA.x == 0 || dimsA.y == 0 || dimsB.x == 0 || nIter == 0 || dimsA.x % block_size != 0 ||
        dimsA.y % block_size != 0 || dimsB.x % block_size != 0) {
        printf("matrix-mul: FAIL every extent must be a positive multiple of %d, iter positive\n",
               block_size);
        exit(EXIT_FAILURE);
    }

    printf("MatrixA(%d,%d), MatrixB(%d,%d)\n", dimsA.x, dimsA.y, dimsB.x, dimsB.y);

    int matrix_result = MatrixMultiply(block_size, dimsA, dimsB, nIter);

    exit(matrix_result);
}
