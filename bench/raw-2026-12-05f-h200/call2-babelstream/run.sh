#!/bin/bash
# babelstream: kernels, lambdas, CUDA; launch shapes of each
set -u
cd "$(dirname "$0")"; tar xJf bundle.tar.xz -C /tmp && b=/tmp/bundle
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
OFFLOAD_INFO=1 $b/run bk 27 3 > $OUT/bk-info.txt 2>&1
OFFLOAD_INFO=1 $b/run bl 27 3 > $OUT/bl-info.txt 2>&1
for r in 1 2 3 4 5; do
  $b/run bk 27 100 > $OUT/bk-$r.txt 2>&1
  $b/run bl 27 100 > $OUT/bl-$r.txt 2>&1
  $b/bs-cuda > $OUT/cuda-$r.txt 2>&1
done
grep -h "launching" $OUT/bk-info.txt | sort | uniq -c | head; grep -h "launching" $OUT/bl-info.txt | sort | uniq -c | head
head -20 $OUT/bk-1.txt $OUT/bl-1.txt $OUT/cuda-1.txt
