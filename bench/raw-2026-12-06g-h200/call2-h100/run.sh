#!/usr/bin/env bash
# Ninth session, call B (issue 30): streamcluster (queue events now device marks both ends:
# elapsed_ms by cuEventElapsedTime) and kmeans against nvcc, 5 rounds; kmeans' port traced
# (OFFLOAD_TRACE) to see where its extra host time goes. Overlay (this session's runtime, the
# two ports at -O3) over .gpu/s9's bundle. Then (issue 31) the staged CPU A/B, .gpu/s11ab/run2.sh.
set -u
s9=$(cd "$(dirname "$0")/../s9" && pwd); d=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}; log=$out/s13-logs; rm -rf $log; mkdir -p $log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
w=/tmp/s13run; rm -rf $w; mkdir -p $w
xz -dc $s9/bundle.tar.xz | tar -C $w -xf -
xz -dc $d/overlay.tar.xz | tar -C $w/bundle -xf -
tar -C $w -cf - bundle | xz -0 -T0 > $w/bundle.tar.xz
cp $s9/originals.tar.xz $d/corpus.sh $w/
echo "queue_events ($(date -u +%T))"
timeout 60 $w/bundle/run queue_events > $log/queue_events.txt 2>&1; echo "exit $?"; tail -3 $log/queue_events.txt
echo "corpus ($(date -u +%T))"
CORPUS_ONLY="rodinia-streamcluster rodinia-kmeans" OUT=$log CORPUS_TIMEOUT=60 timeout 200 bash $w/corpus.sh gpu ${ROUNDS:-5} > $log/corpus-out.txt 2>&1
echo "exit $?"; grep "^| rodinia" $log/corpus-table.md
echo "trace ($(date -u +%T))"
for r in 1 2; do
  OFFLOAD_TRACE=$log/kmeans-trace-$r.json timeout 60 $w/bundle/run rodinia-kmeans 494020 34 5 > $log/kmeans-traced-$r.txt 2>&1
  OFFLOAD_PROFILE=1 timeout 60 $w/bundle/run rodinia-kmeans 494020 34 5 > $log/kmeans-profile-$r.txt 2>&1
done
grep -h "time" $log/kmeans-traced-*.txt
if [ -n "${AB:-}" ]; then
  echo "A/B ($(date -u +%T))"
  OUT=$out PASSES="${AB_PASSES:-1}" timeout 200 bash $d/../s11ab/run2.sh > $log/ab-run2.txt 2>&1
  tail -12 $log/ab-run2.txt
fi
echo "done $(date -u +%T)"
