#!/usr/bin/env bash
# Ninth session, call A (issue 30): the first device use against CUDA's (first_use vs nvcc's
# fu_cuda, alternately, 7 rounds), then the corpus rows above 1.05 (streamcluster now timed with
# queue events, kmeans, nw) against nvcc, 5 rounds; the overlay (this session's streamcluster port,
# first_use, the runtime) over .gpu/s9's bundle.
set -u
TIMEFORMAT="wall %R s"
s9=$(cd "$(dirname "$0")/../s9" && pwd); d=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}; log=$out/s12-logs; rm -rf $log; mkdir -p $log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
w=/tmp/s12run; rm -rf $w; mkdir -p $w
xz -dc $s9/bundle.tar.xz | tar -C $w -xf -
xz -dc $d/overlay.tar.xz | tar -C $w/bundle -xf -
echo "first use ($(date -u +%T))"
for r in 1 2 3 4 5 6 7; do
  { time $w/bundle/run first_use; } 2>&1 | sed "s/^/ours $r: /"
  { time $d/fu_cuda; } 2>&1 | sed "s/^/cuda $r: /"
done | tee $log/first-use.txt
LD_DEBUG=statistics $w/bundle/run first_use > $log/ld-statistics.txt 2>&1
OFFLOAD_PROFILE=1 $w/bundle/run first_use > $log/first-use-profile.txt 2>&1
echo "corpus ($(date -u +%T))"
tar -C $w -cf - bundle | xz -0 -T0 > $w/bundle.tar.xz
cp $s9/originals.tar.xz $d/corpus.sh $w/
CORPUS_ONLY="rodinia-streamcluster rodinia-kmeans rodinia-nw" OUT=$log CORPUS_TIMEOUT=60 timeout 420 bash $w/corpus.sh gpu ${ROUNDS:-5} > $log/corpus-out.txt 2>&1
echo "exit $?"; tail -12 $log/corpus-out.txt
echo "done $(date -u +%T)"
