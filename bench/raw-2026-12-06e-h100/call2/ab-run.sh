#!/usr/bin/env bash
# Seventh session, second node call: the CPU device A/B of the corpus ports and the new user's
# programs, as built by the previous session (06a6cac, "old") and by this session's final
# compiler (uniform values hoisted only from blocks every work-item runs, "new2"), each an
# overlay of bin/ over .gpu/s9's bundle (same libraries), against the same OpenMP twins,
# alternately old, new2, old, new2, at 1 and 16 threads.
set -u
s9=$(cd "$(dirname "$0")/../s9" && pwd); d=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}; log=/tmp/s10-logs; rm -rf $log; mkdir -p $log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
lscpu | grep -E "Model name|^CPU\(s\)"
for v in old new2; do
  b=/tmp/ab-$v; rm -rf $b; mkdir -p $b
  xz -dc $s9/bundle.tar.xz | tar -C $b -xf -
  xz -dc $s9/cpudev.tar.xz | tar -C $b -xf -
  xz -dc $s9/newuser.tar.xz | tar -C $b -xf -
  xz -dc $d/$v-overlay.tar.xz | tar -C $b/bundle -xf -
done
md5sum /tmp/ab-old/bundle/bin/rodinia-nw.port /tmp/ab-new2/bundle/bin/rodinia-nw.port
for pass in 1 2; do
  [ $pass = 1 ] || [ $SECONDS -lt 330 ] || { echo "no time for pass $pass"; break; }
  for v in old new2; do
    echo "=== $v pass $pass ($(date -u +%T))"
    PREBUILT=/tmp/ab-$v/bundle/run THREADS="1 16" ROUNDS=1 BENCH_OUT=/tmp/ab-out-$v-$pass \
      timeout 170 bash /tmp/ab-$v/cpudev/run.sh > $log/cpudev-$v-$pass.md 2>&1
    grep -c "^|" $log/cpudev-$v-$pass.md
    PREBUILT=/tmp/ab-$v/bundle/run THREADS="1 16" ROUNDS=1 \
      timeout 60 bash /tmp/ab-$v/newuser/run.sh > $log/newuser-$v-$pass.md 2>&1
    grep -c "^|" $log/newuser-$v-$pass.md
  done
done
tar -C /tmp -czf $out/all.tar.gz s10-logs
echo "done $(date -u +%T)"
