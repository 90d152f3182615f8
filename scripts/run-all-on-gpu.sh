#!/usr/bin/env bash
# run-all-on-gpu.sh — runs on the GPU node (copied to .gpu/run-all.sh by stage-gpu-run.sh):
# unpacks the bundle made by `offload-cxx bundle`, lists the devices, runs every program on the
# GPU with OFFLOAD_INFO=-1 and again forced onto the CPU device, runs the bad-input suite's run
# cases on the GPU, and compute-sanitizer's memcheck over the end-to-end programs. Prints
# "N passed, N failed". Logs go to $OUT.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
logs=${OUT:-/tmp}
b=/tmp/offload-cxx-bundle/bundle
rm -rf /tmp/offload-cxx-bundle && mkdir -p /tmp/offload-cxx-bundle
xz -dc "$here/bundle.tar.xz" | tar -C /tmp/offload-cxx-bundle -xf -
log=$logs/gpu-run.log
: > "$log"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee -a "$log"
echo "--- $b/devices fill:"
"$b/devices" fill
echo "--- $b/devices runtime_errors_amd:"
"$b/devices" runtime_errors_amd | tail -4
passed=0 failed=0
for prog in "$b"/bin/*; do
  name=$(basename "$prog")
  case $name in run_cases|babelstream|cpu_faults) continue ;; esac  # run by bad_inputs.py, bench/run.sh, below
  for mode in gpu cpu; do
    if [ $mode = cpu ]; then export OFFLOAD_DEVICE=cpu; else unset OFFLOAD_DEVICE; fi
    echo "=== $name ($mode)" >> "$log"
    if CONCURRENCY_TIMEOUT=60 OFFLOAD_INFO=-1 timeout 120 "$b/run" "$name" >> "$log" 2>&1; then
      passed=$((passed+1)); echo "PASS $name ($mode)"
    else
      failed=$((failed+1)); echo "FAIL $name ($mode)"
    fi
  done
done
unset OFFLOAD_DEVICE
echo "--- kernel faults on the CPU device of a GPU machine (cpu_faults ends on an uncaught one: exit 1):"
OFFLOAD_DEVICE=cpu timeout 120 "$b/run" cpu_faults > "$logs/cpu_faults.log" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q "after the faults: all checks passed" "$logs/cpu_faults.log"; then
  passed=$((passed+1)); echo "PASS cpu_faults (cpu)"
else
  failed=$((failed+1)); echo "FAIL cpu_faults (cpu, exit $rc)"
fi
grep -E "^(read|stack):" "$logs/cpu_faults.log" | cut -c1-200
echo "--- NVIDIA GPUs driven through LLVM's offload API (OFFLOAD_GPU_BACKEND=liboffload):"
for mode in liboffload; do
  for name in fill data_model concurrency data-model dot; do
    [ -x "$b/bin/$name" ] || continue
    if OFFLOAD_GPU_BACKEND=$mode CONCURRENCY_TIMEOUT=60 timeout 120 "$b/run" "$name" >> "$logs/backend-$mode.log" 2>&1; then
      passed=$((passed+1)); echo "PASS $name (gpu, OFFLOAD_GPU_BACKEND=$mode)"
    else
      failed=$((failed+1)); echo "FAIL $name (gpu, OFFLOAD_GPU_BACKEND=$mode)"
    fi
  done
done
echo "--- a queue fault on liboffload's path:"
OFFLOAD_GPU_BACKEND=liboffload "$b/run" run_cases gpu-queue-fault 2>&1 | tail -1 | cut -c1-200
echo "--- a program without code for this GPU, mandatory offload:"
OMP_TARGET_OFFLOAD=mandatory "$b/run" runtime_errors_amd mandatory 2>&1 | tail -1
OFFLOAD_INFO=1 "$b/run" runtime_errors_amd > "$logs/amd-fallback.log" 2>&1; grep -m1 "no GPU of this machine" "$logs/amd-fallback.log"
echo "--- bad-input suite, run cases, on the GPU:"
if python3 "$here/bad_inputs.py" --run-only --bin-dir "$b/bin" --launcher "$b/run" --gpu --work /tmp/bi --verbose > "$logs/bad-inputs-gpu.log" 2>&1; then
  passed=$((passed+1)); echo "PASS bad-inputs (gpu)"
else
  failed=$((failed+1)); echo "FAIL bad-inputs (gpu)"
fi
grep -E "gpu-|device-fault|out-of-device|summary|passed," "$logs/bad-inputs-gpu.log" | cut -c1-230
echo "--- compute-sanitizer memcheck over the end-to-end programs:"
cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
if [ -n "$cs" ]; then
  for name in fill fill_types two_kernels grid3d data_model atomics_warps concurrency data-model multi_tu dot histogram matmul stencil; do
    [ -x "$b/bin/$name" ] || continue
    if timeout 300 "$cs" --tool memcheck --report-api-errors no --error-exitcode 9 "$b/run" "$name" > "$logs/memcheck-$name.log" 2>&1; then
      passed=$((passed+1)); echo "PASS memcheck $name: $(grep -a 'ERROR SUMMARY' "$logs/memcheck-$name.log" | tail -1)"
    else
      failed=$((failed+1)); echo "FAIL memcheck $name (exit $?): $(grep -a 'ERROR SUMMARY' "$logs/memcheck-$name.log" | tail -1)"
    fi
  done
else
  echo "compute-sanitizer not found"
fi
echo "--- OFFLOAD_INFO's map lines name the kernels' parameters (launch_site, params_as_calls):"
sed -n '/=== params_as_calls (gpu)/,/=== params_as_calls (cpu)/p' "$log" | grep -m4 "Name="
echo "--- OFFLOAD_INFO of launch_site on the GPU (each launch names its own line):"
sed -n '/=== launch_site (gpu)/,/=== launch_site (cpu)/p' "$log" | grep -E "launching kernel|launched at" | head -6
echo "--- OFFLOAD_INFO of fill on the GPU:"
sed -n '/=== fill (gpu)/,/=== fill (cpu)/p' "$log" | head -20
echo "$passed passed, $failed failed"
