/* bench/corpus/rodinia/cuda13.h — what Rodinia 3.1's CUDA programs need from the CUDA runtime
   that CUDA 13 no longer declares. bench/corpus.sh's prep puts it before every file nvcc
   compiles (NVCC_PREPEND_FLAGS="-include ..."), so that the originals build as found. */
#ifndef RODINIA_CUDA13_H
#define RODINIA_CUDA13_H
/* cudaThreadSynchronize (deprecated since CUDA 4.0, removed in 13.0): the same as this. */
#define cudaThreadSynchronize cudaDeviceSynchronize
#endif
