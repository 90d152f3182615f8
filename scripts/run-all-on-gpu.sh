#!/usr/bin/env bash
# run-all-on-gpu.sh — runs on the GPU node (copied to .gpu/run-all.sh by stage-gpu-run.sh):
# unpacks the LLVM 22 runtime, runs every staged program on the GPU with OFFLOAD_INFO=-1, then
# again forced onto the CPU device, and prints "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
eval "$(bash "$here/gpu-runtime-env" "$here/debs")"
export LD_LIBRARY_PATH=$here/lib:$LD_LIBRARY_PATH
log=${OUT:-/tmp}/gpu-run.log
: > "$log"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee -a "$log"
passed=0 failed=0
for prog in "$here"/bin/*; do
  name=$(basename "$prog")
  for mode in gpu cpu; do
    if [ $mode = cpu ]; then export OFFLOAD_DEVICE=cpu; else unset OFFLOAD_DEVICE; fi
    echo "=== $name ($mode)" >> "$log"
    if OFFLOAD_INFO=-1 timeout 120 "$prog" >> "$log" 2>&1; then
      passed=$((passed+1)); echo "PASS $name ($mode)"
    else
      failed=$((failed+1)); echo "FAIL $name ($mode)"
    fi
  done
done
unset OFFLOAD_DEVICE
echo "--- data-model with a 1 GiB field on the GPU, copies of the field under OFFLOAD_INFO:"
OFFLOAD_INFO=-1 "$here/bin/data-model" 27 > "${OUT:-/tmp}/data-model-info.log" 2>&1; echo "exit $?"
grep -E "all checks|FAIL|error" "${OUT:-/tmp}/data-model-info.log"
echo "launches: $(grep -a -c 'launching kernel' "${OUT:-/tmp}/data-model-info.log"), copies of 1 GiB (size 1073741824): $(grep -a 'Copying data' "${OUT:-/tmp}/data-model-info.log" | grep -a -c 'Size=1073741824')"
grep -a -E "launching kernel|Size=1073741824" "${OUT:-/tmp}/data-model-info.log" | grep -a -E "launching|Copying|Removing" | cut -c1-170 | head -24
echo "--- data-model, 1 GiB, on the CPU device of the GPU node:"
( export OFFLOAD_DEVICE=cpu; /usr/bin/time -f "%e s" "$here/bin/data-model" 27 2>&1 | tail -2 )
echo "--- runtime_errors on the GPU:"
sed -n '/=== runtime_errors (gpu)/,/=== runtime_errors (cpu)/p' "$log" | grep -v omptarget | head -12
unset OFFLOAD_DEVICE
echo "--- mandatory offload with the GPU present:"
OMP_TARGET_OFFLOAD=mandatory "$here/bin/runtime_errors" mandatory 2>&1 | tail -2
echo "--- OFFLOAD_INFO of fill on the GPU:"
sed -n '/=== fill (gpu)/,/=== fill (cpu)/p' "$log" | head -60
echo "$passed passed, $failed failed"
