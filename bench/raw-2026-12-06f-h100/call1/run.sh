#!/usr/bin/env bash
# Eighth session, node call: the CPU device A/B of the corpus ports and the new user's programs,
# as built by the previous session's final compiler (4a8a336's CPU passes: .gpu/s10ab/new2-overlay,
# "old") and by this session's (warp reductions in one exchange, the cost rule for uniform
# values: "new"), each an overlay of bin/ over .gpu/s9's bundle (same libraries), against the same
# OpenMP twins, alternately old, new, old, new, at 1 and 16 threads. Then (new only) the warp
# operations' cost per work-item and the second new user's warp-per-row SpMV against OpenMP.
set -u
s9=$(cd "$(dirname "$0")/../s9" && pwd); d=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}; log=/tmp/s11-logs; rm -rf $log; mkdir -p $log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
lscpu | grep -E "Model name|^CPU\(s\)"
for v in old new; do
  b=/tmp/ab-$v; rm -rf $b; mkdir -p $b
  xz -dc $s9/bundle.tar.xz | tar -C $b -xf -
  xz -dc $s9/cpudev.tar.xz | tar -C $b -xf -
  xz -dc $s9/newuser.tar.xz | tar -C $b -xf -
done
xz -dc $d/../s10ab/new2-overlay.tar.xz | tar -C /tmp/ab-old/bundle -xf -
xz -dc $d/new-overlay.tar.xz | tar -C /tmp/ab-new/bundle -xf -
xz -dc $d/extra-omp.tar.xz | tar -C /tmp/ab-new -xf -
md5sum /tmp/ab-old/bundle/bin/nu-softmax.port /tmp/ab-new/bundle/bin/nu-softmax.port
for pass in 1 2; do
  [ $pass = 1 ] || [ $SECONDS -lt 300 ] || { echo "no time for pass $pass"; break; }
  for v in old new; do
    echo "=== $v pass $pass ($(date -u +%T))"
    PREBUILT=/tmp/ab-$v/bundle/run THREADS="1 16" ROUNDS=1 BENCH_OUT=/tmp/ab-out-$v-$pass \
      timeout 170 bash /tmp/ab-$v/cpudev/run.sh > $log/cpudev-$v-$pass.md 2>&1
    grep -c "^|" $log/cpudev-$v-$pass.md
    PREBUILT=/tmp/ab-$v/bundle/run THREADS="1 16" ROUNDS=1 \
      timeout 60 bash /tmp/ab-$v/newuser/run.sh > $log/newuser-$v-$pass.md 2>&1
    grep -c "^|" $log/newuser-$v-$pass.md
  done
done
echo "=== warp operations and the warp-per-row SpMV ($(date -u +%T))"
for t in 1 16; do
  echo "-- threads $t" >> $log/warp.txt
  OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t timeout 60 /tmp/ab-new/bundle/run warp-ops.port >> $log/warp.txt 2>&1
  for r in 1 2 3; do
    (cd /tmp && OMP_NUM_THREADS=$t timeout 60 /tmp/ab-new/spmv.omp) >> $log/warp.txt 2>&1
    (cd /tmp && OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t timeout 120 /tmp/ab-new/bundle/run spmv-warp.port --warp) >> $log/warp.txt 2>&1
  done
done
cat $log/warp.txt
tar -C /tmp -czf $out/all.tar.gz s11-logs
echo "done $(date -u +%T)"
