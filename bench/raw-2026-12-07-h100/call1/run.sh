#!/bin/bash
# Tenth session, call 1 (issue 30, H200): kmeans with the port's runtime start where the
# original calls cudaSetDevice(1) (rodinia-kmeans-select) against the original and the port as
# it is; the first device calls (first_use, select/noselect) against CUDA's; streamcluster;
# queue_events; api_paths whole (5 rounds). Runtime: lazy primary context.
set -u
d=$(cd "$(dirname "$0")" && pwd); log=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "=== corpus ($(date -u +%T))"
OUT=$log CORPUS_ONLY="rodinia-kmeans rodinia-streamcluster" CORPUS_TIMEOUT=60 timeout 200 bash $d/corpus.sh gpu 5 > $log/corpus-out.txt 2>&1
echo "exit $?"; tail -12 $log/corpus-out.txt
t=/tmp/offload-cxx-corpus; B=$t/bundle/run
echo "=== first use ($(date -u +%T))"
for r in 1 2 3 4 5 6 7; do
  echo "ours select $r: $($B first_use 2>&1)"
  echo "cuda select $r: $($d/first_use_cuda 2>&1)"
  echo "ours noselect $r: $($B first_use noselect 2>&1)"
  echo "cuda noselect $r: $($d/first_use_cuda noselect 2>&1)"
done | tee $log/first-use.txt
echo "=== kmeans ($(date -u +%T))"
for r in 1 2 3 4 5 6 7; do
  echo "original $r: $(timeout 60 $t/originals/rodinia-kmeans -o -i $t/data/kmeans-494020 2>&1 | grep -E 'Clustering|iterated' | tr '\n' ' ')"
  echo "select $r: $(timeout 60 $B rodinia-kmeans-select 494020 34 5 2>&1 | grep -E 'time_ms|iterated|PASS|rror' | tr '\n' ' ')"
  echo "port $r: $(timeout 60 $B rodinia-kmeans 494020 34 5 2>&1 | grep -E 'time_ms|iterated|PASS|rror' | tr '\n' ' ')"
done | tee $log/kmeans.txt
echo "=== queue_events ($(date -u +%T))"
timeout 60 $B queue_events > $log/queue_events.txt 2>&1; echo "exit $?"; tail -2 $log/queue_events.txt
[ -n "${API:-}" ] && { echo "=== api ($(date -u +%T))"
API_PATHS_BUNDLE=$d/bundle.tar.xz timeout 280 bash $d/api_paths.sh run $d/api $log 2>&1 | grep -v '^round '; }
echo "=== end ($(date -u +%T))"
