#!/usr/bin/env bash
# Same-node A/B of the CPU device: the corpus ports as built by the previous session (old: commit
# b6b5095, RESULTS twenty-fifth entry) and by this one (new), each against the same OpenMP twins,
# alternately (old, new, old, new), 1 and 16 threads, 2 rounds each.
set -u
d=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}; log=/tmp/ab-logs; rm -rf $log; mkdir -p $log
lscpu | grep -E "Model name|^CPU\(s\)"
for v in old new; do
  b=/tmp/ab-$v; rm -rf $b; mkdir -p $b
  xz -dc $d/new/bundle.tar.xz | tar -C $b -xf -; xz -dc $d/$v/cpudev.tar.xz | tar -C $b -xf -
done
# old: the previous session's ports and runtime over the same libraries
xz -dc $d/old/overlay.tar.xz | tar -C /tmp/ab-old/bundle -xf -
md5sum /tmp/ab-old/bundle/lib/liboffload-cxx-rt.so /tmp/ab-new/bundle/lib/liboffload-cxx-rt.so
for pass in 1 2; do
  for v in old new; do
    echo "=== $v pass $pass ($(date -u +%T))"
    PREBUILT=/tmp/ab-$v/bundle/run THREADS="1 16" ROUNDS=1 BENCH_OUT=/tmp/ab-out-$v-$pass \
      timeout 150 bash /tmp/ab-$v/cpudev/run.sh > $log/$v-$pass.md 2>&1
    grep -c "^|" $log/$v-$pass.md
  done
done
tar -C /tmp -czf $out/all.tar.gz ab-logs
echo "done $(date -u +%T)"
