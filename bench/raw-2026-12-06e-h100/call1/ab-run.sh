#!/usr/bin/env bash
# Seventh-session node call: the GPU checks (sm_90,host e2e) with this session's build, then the
# CPU device A/B on the node's CPU: corpus ports and the new user's programs as built by the
# previous session's compiler (06a6cac, "old": overlay of bin/) and by this one ("new", .gpu/s9),
# over the same bundled libraries, against the same OpenMP twins, alternately old, new, old, new,
# at 1 and 16 threads.
set -u
s9=$(cd "$(dirname "$0")/../s9" && pwd); d=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}; log=/tmp/s9-logs; rm -rf $log; mkdir -p $log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
lscpu | grep -E "Model name|^CPU\(s\)"
echo "=== checks ($(date -u +%T))"
PART_TIMEOUT=120 OUT=$log bash $s9/gpu_session.sh $s9 checks > $log/checks.out 2>&1
grep -- "^---" $log/checks.out
for v in old new; do
  b=/tmp/ab-$v; rm -rf $b; mkdir -p $b
  xz -dc $s9/bundle.tar.xz | tar -C $b -xf -
  xz -dc $s9/cpudev.tar.xz | tar -C $b -xf -
  xz -dc $s9/newuser.tar.xz | tar -C $b -xf -
done
xz -dc $d/old-overlay.tar.xz | tar -C /tmp/ab-old/bundle -xf -
md5sum /tmp/ab-old/bundle/bin/rodinia-nw.port /tmp/ab-new/bundle/bin/rodinia-nw.port
for pass in 1 2; do
  [ $pass = 1 ] || [ $SECONDS -lt 330 ] || { echo "no time for pass $pass"; break; }
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
tar -C /tmp -czf $out/all.tar.gz s9-logs
echo "done $(date -u +%T)"
