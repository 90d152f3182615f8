#!/bin/bash
# ptxas experiment: 14 fuzz programs x ptxas variants, against the CPU device's output
set -u
cd "$(dirname "$0")"; here=$(pwd)
tar xJf bundle.tar.xz -C /tmp && b=/tmp/bundle
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
for v in O3 O2 O1 noconst noexp rw; do
  agree=0; differ=0; list=
  for c in small-*.cpu.txt; do
    n=${c%.cpu.txt}
    timeout 60 $b/run $n-$v > $OUT/$n-$v.txt 2>&1
    if cmp -s $OUT/$n-$v.txt $c; then agree=$((agree+1)); else differ=$((differ+1)); list="$list $n"; fi
  done
  echo "$v: agree $agree differ $differ:$list" | tee -a $OUT/summary.txt
done
$b/k20013-nvcc > $OUT/k20013-nvcc.txt 2>&1
grep out small-20013.cpu.txt | cmp -s - $OUT/k20013-nvcc.txt && echo "nvcc k20013: agrees with CPU" | tee -a $OUT/summary.txt || echo "nvcc k20013: DIFFERS from CPU" | tee -a $OUT/summary.txt
head -3 $OUT/k20013-nvcc.txt | tee -a $OUT/summary.txt
(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump) >> $OUT/summary.txt 2>&1
/usr/local/cuda/bin/cuobjdump -sass $b/k20013-nvcc > $OUT/k20013-nvcc.sass 2>&1
/usr/local/cuda/bin/ptxas --version >> $OUT/summary.txt 2>&1
tar -C $OUT -czf $OUT/outputs.tgz --exclude outputs.tgz . && find $OUT -name 'small-*.txt' -delete
