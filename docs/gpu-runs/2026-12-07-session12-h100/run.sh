#!/bin/bash
# On the GPU node: each program once on CUDA device 0, its last line; then the CPU device.
cd "$(dirname "$0")" && rm -rf bundle && tar xJf bundle.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
pass=0; fail=0
for p in bundle/bin/*; do
  n=$(basename $p)
  if out=$(OFFLOAD_INFO=1 timeout 120 bundle/run $n 2>$OUT/$n.err); then
    echo "$n: $(echo "$out" | tail -1) [$(grep -o 'loaded the program.s sm_90 image' $OUT/$n.err | head -1)]"; pass=$((pass+1))
  else echo "$n: FAILED rc=$?"; tail -3 $OUT/$n.err; fail=$((fail+1)); fi
done | tee $OUT/runs.txt
grep -c FAILED $OUT/runs.txt | xargs echo "failed:"
