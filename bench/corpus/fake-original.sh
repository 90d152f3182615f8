#!/usr/bin/env bash
# bench/corpus/fake-original.sh NAME ARGS... — stands in for the original CUDA programs when
# bench/corpus.sh's gpu mode is tested on a machine without a GPU:
#   CORPUS_SMALL=1 OFFLOAD_DEVICE=cpu CORPUS_FAKE_ORIGINAL=$PWD/bench/corpus/fake-original.sh \
#     bash OUTDIR/corpus.sh gpu 2
# It prints the lines each original prints around its time, in its format, with made-up times
# (FAKE_MS, default 10: the time each original would report, in ms), so that the extraction in
# corpus.sh's table can be checked. FAKE_FAIL=NAME makes that program print FAIL;
# FAKE_GARBLE=NAME leaves its time out.
set -u
n=$1; shift
ms=${FAKE_MS:-10}
s=$(awk -v m="$ms" 'BEGIN{printf "%f", m / 1000}')
if [ "${FAKE_GARBLE:-}" = "$n" ]; then echo "something else"; echo PASS; exit 0; fi
case "$n" in
  vector-add)
    echo "[Vector addition of ${1:-50000} elements]"
    echo "Kernel time: $ms (ms)"; echo "Test PASSED"; echo Done ;;
  stencil1d|matrix-rotate)
    echo "Average kernel execution time: $s (s)"; echo PASS ;;
  jacobi)
    echo "Error after iteration 0 = 0.0312"
    echo "Average execution time per iteration: $s (s)"; echo PASS
    echo "Total elapsed time: 1.234 seconds" ;;
  scan)  # 40 kernels: each prints its per-launch average in us; the sum x repeat is FAKE_MS
    repeat=${2:-1}
    us=$(awk -v m="$ms" -v r="$repeat" 'BEGIN{printf "%f", m * 1000 / 40 / r}')
    for N in 128 256 512 1024 2048; do
      echo; echo "The number of elements to scan in a thread block: $N"
      for t in 1 2 4 8; do echo PASS; echo PASS; done
      echo; echo "The number of elements to scan in a thread block: $N"
      for t in 1 2 4 8; do
        echo "Element size in bytes is $t. Average execution time of scan (w/  bank conflicts): $us (us)"
        echo "Element size in bytes is $t. Average execution time of scan (w/o bank conflicts): $us (us). Reduce the time by 0.0%"
      done
    done ;;
  atomic-reduction)  # 20 benchmarks, each 1/20 of FAKE_MS: bandwidth = bytes x repeat / time
    len=${1:-52428800}; repeat=${2:-100}
    bw=$(awk -v l="$len" -v r="$repeat" -v m="$ms" 'BEGIN{printf "%.6g", l * 4.0 * r / (m / 20 / 1000) * 1e-9}')
    echo "Array size: 200 MB"; echo "Repeat the kernel execution: $repeat times"; echo "Device name: fake"
    for b in 128 256 512 1024; do for k in 1 2 3 4 5; do
      echo "Thread block size: $b, The average performance of reduction is $bw GBytes/sec"
      echo "VERIFICATION: PASS"; echo
    done; done ;;
  bitonic-sort)
    echo; echo "Array size: $((1 << ${1:-16})), seed: ${2:-123}"; echo "Bitonic sort (parallel).."
    echo "Total kernel execution time: $ms (ms)"; echo "Bitonic sort (serial).."; echo PASS ;;
  bfs)
    us=$(awk -v m="$ms" 'BEGIN{printf "%f", m * 1000}')
    echo "Reading File"; echo "run bfs (#nodes = 1000) on device"
    echo "Total kernel execution time : $us (us)"; echo "run bfs (#nodes = 1000) on host (cpu) "; echo Passed ;;
  nbody)
    echo "==============================="; echo " Initialize Gravity Simulation"; echo
    echo "# Total Energy        : 123.456"; echo "# Total Time (s)      : $s"
    echo "# Average Performance : 1234.5 +- 12.3"; echo "==============================="; echo; echo PASS ;;
  bincount)  # 11 per-kernel averages in us, summing to FAKE_MS
    us=$(awk -v m="$ms" 'BEGIN{printf "%f", m * 1000 / 11}')
    for k in 1 2 3 4 5 6 7 8 9 10 11; do
      echo "bincount using global atomics"; echo "Average execution time of bincount kernel: $us (us)"; echo PASS
    done ;;
  simple-spmv)  # 6 lines of 3 averages in ms, summing to FAKE_MS
    each=$(awk -v m="$ms" 'BEGIN{printf "%f", m / 18}')
    for bs in 32 64 128 256 512 1024; do
      echo; echo "Thread block size: $bs"
      echo "Average dense, sparse, and vector sparse kernel execution time (ms): $each $each $each"
      if [ "${FAKE_FAIL:-}" = "$n" ]; then echo "Error rate: 0.000000 0.5 0.000000"; else echo "Error rate: 0.000000 0.000000 0.000000"; fi
    done; exit 0 ;;
  matrix-mul)
    echo "[Matrix Multiply Using CUDA] - Starting..."; echo "MatrixA(1024,1024), MatrixB(1024,1024)"
    echo "Performance= 1234.56 GFlop/s, Time= $ms msec, Size= 2147483648 Ops, WorkgroupSize= 1024 threads/block"
    echo "Checking computed result for correctness: Result = PASS" ;;
  softmax)
    echo "Average kernel execution time: $ms (ms)"; echo PASS ;;
  rodinia-gaussian)
    echo "WG size of kernel 1 = 512, WG size of kernel 2= 4 X 4"
    printf 'Time total (including memory transfers)\t%s sec\n' "$s"; printf 'Time for CUDA kernels:\t%s sec\n' "$s" ;;
  rodinia-hotspot|rodinia-pathfinder|rodinia-nw)
    echo "Kernel time: $ms (ms)" ;;
  rodinia-hotspot3d)
    echo "Time: 0.010 (s)"; echo "Kernel time: $ms (ms)"
    if [ "${FAKE_FAIL:-}" = "$n" ]; then echo "Accuracy: 3.5e+01"; else echo "Accuracy: 2.9e-05"; fi; exit 0 ;;
  rodinia-srad-v2)
    echo "Start the SRAD main loop"; echo "Main loop time: $ms (ms)"; echo "Computation Done" ;;
  rodinia-backprop)
    echo "Performing GPU computation"; echo "Training time: $ms (ms)"; echo "Training done" ;;
  rodinia-lud)
    echo "Time consumed(ms): $ms" ;;
  rodinia-nn)
    echo "Device time: $ms (ms)"
    for k in 1 2 3 4 5; do echo "1983  4  6  0 25 WILLIAM    29.9  89.9   11  597 --> Distance=0.141421"; done ;;
  rodinia-bfs)
    echo "Start traversing the tree"; echo "Traversal time: $ms (ms)"; echo "Kernel Executed 15 times" ;;
  rodinia-lavamd|rodinia-srad-v1)
    stage=$([ "$n" = rodinia-lavamd ] && echo "GPU: KERNEL" || echo COMPUTE)
    echo "Time spent in different stages:"; echo "   0.001000000000 s,    1.000000000000 % : SETUP"
    echo " $s s,   90.000000000000 % : $stage"; echo "Total time:"; echo "0.100000000000 s" ;;
  rodinia-particlefilter)
    echo "TIME TO SEND TO GPU: 0.000123"; echo "GPU Execution: $s"; echo "XE: 48.5"; echo "YE: 72.4" ;;
  rodinia-cfd)
    echo "Starting..."; awk -v m="$ms" 'BEGIN{printf "%g seconds per iteration\n", m / 1000 / 2000}'; echo "Done..." ;;
  rodinia-streamcluster)
    echo "time = 1.234567s"; echo "time kernel = ${s}s" ;;
  rodinia-kmeans)
    echo "iterated 4 times"; echo "Clustering time: $ms (ms)" ;;
  *) echo "fake-original: no fake for $n" ;;
esac
[ "${FAKE_FAIL:-}" = "$n" ] && echo FAIL
exit 0
