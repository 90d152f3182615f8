#!/usr/bin/env bash
# session 11 node run: small ops (ours, CUDA's variants), perf profiles of ours, api rounds
set -u
cd "$(dirname "$0")"
here=$PWD
xz -dc bundle.tar.xz | tar -xf - ; xz -dc perf.tar.xz | tar -xf -
nvidia-smi -L > $OUT/gpu.txt; nproc >> $OUT/gpu.txt
timeout 120 ./small_ops_cuda 20000 > $OUT/small_ops_cuda.txt 2>&1
rows="queue_copy_d2h_4k buffer_copy_to_4k buffer_copy_from_4k buffer_fill_4k launch_mapped_span_4k"
cp -a bundle bundle-new && cp rt-new.so bundle-new/lib/liboffload-cxx-rt.so
for round in 1 2; do for r in $rows; do for b in bundle bundle-new; do echo -n "$b "; timeout 60 $b/run small_ops $r 50000; done; done; done > $OUT/small_ops.txt 2>&1
P="env LD_LIBRARY_PATH=$here/perf/lib $here/perf/perf"
$P --version > $OUT/perf-version.txt 2>&1
for r in queue_copy_d2h_4k buffer_fill_4k; do
  timeout 60 $P record -F 20000 -o $OUT/perf-$r.data bundle/run small_ops $r 100000 > $OUT/perf-$r.out 2>&1
  timeout 60 $P report -i $OUT/perf-$r.data --stdio --sort dso,sym 2>/dev/null | head -70 > $OUT/perf-$r.txt
  rm -f $OUT/perf-$r.data
done
API_PATHS_BUNDLE=$here/bundle.tar.xz API_PATHS_ROUNDS=3 timeout 330 bash api_paths.sh run $here $OUT/api > $OUT/api.txt 2>&1
echo done
