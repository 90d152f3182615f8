#!/usr/bin/env bash
# stage-gpu-run.sh — build what a GPU node runs, as one offload-cxx bundle, into .gpu/ (ignored by
# git; name it in the device tool's `carry`): the examples, the end-to-end tests and the
# bad-input suite's run cases for sm_90 + the CPU device, bundled with `offload-cxx bundle` (the
# programs, every library they need, a launcher) and packed as .gpu/bundle.tar.xz to fit the
# carry limit. Then, on the node:  bash .gpu/run-all.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${OFFLOAD_GPU_ARCH:-sm_90}
out=$root/.gpu
build=${OFFLOAD_CXX_BUILD_DIR:-$root/build}  # the build tree (bootstrap.sh's)
work=$build/gpu-stage
rm -rf "$work" && mkdir -p "$work/bin" "$out"
cmake --build "$build" >/dev/null
oc=$build/bin/offload-cxx
export OFFLOAD_CXX=$oc  # for bench/run.sh
for src in "$root"/examples/fill.cpp "$root"/examples/guide/*.cpp "$root"/examples/device/*.cpp "$root"/tests/lit/codegen/Inputs/*.cpp "$root"/tests/lit/e2e/*.cpp "$root"/tests/lit/codegen/*.cpp "$root"/tests/bad-inputs/run_cases.cpp; do
  name=$(basename "$src" .cpp)
  # A test that names its own architecture (host only: a GPU build refuses it) is not staged.
  grep -q -- "RUN: %offload-cxx --offload-arch=host" "$src" && continue
  "$oc" -O2 --offload-arch="$arch",host "$src" -o "$work/bin/$name"
done
for port in "$root"/tests/corpus/*/port.cpp; do  # the corpus of foreign programs (issue 15)
  "$oc" -O2 --offload-arch="$arch",host "$port" -o "$work/bin/corpus-$(basename "$(dirname "$port")")"
done
for src in "$root"/examples/multi-gpu/*.cpp; do  # names shared with examples/device
  "$oc" -O2 --offload-arch="$arch",host "$src" -o "$work/bin/multi-gpu-$(basename "$src" .cpp)"
done
# The benchmark, as bench/run.sh builds it (bench/run.sh gpu finds it in this bundle).
OFFLOAD_GPU_ARCH=$arch bash "$root/bench/run.sh" program "$work/bin/babelstream"
# Programs of several files: compiled with -c, then linked.
link_example() {  # name, sources...
  local name=$1; shift; local objs=()
  for src in "$@"; do
    "$oc" -c -O2 --offload-arch="$arch",host "$src" -o "$work/obj.$(basename "$src" .cpp).o"
    objs+=("$work/obj.$(basename "$src" .cpp).o")
  done
  "$oc" -O2 "${objs[@]}" -o "$work/bin/$name"
}
link_example data-model "$root"/examples/data-model/{main,field,stats}.cpp
link_example multi_tu "$root"/tests/lit/e2e/Inputs/multi/{main,a,b,saxpy,library}.cpp
link_example cross_file "$root"/tests/lit/e2e/Inputs/cross_file/{main,kernels,helper}.cpp
# A program with no code for the node's GPU (falls back to the CPU device, or errors when
# offload is mandatory).
"$oc" -O2 --offload-arch=gfx90a,host "$root/tests/lit/e2e/runtime_errors.cpp" -o "$work/bin/runtime_errors_amd"
"$oc" bundle "$work"/bin/* -o "$work/bundle"
tar -C "$work" -cf - bundle | xz -T2 -4 > "$out/bundle.tar.xz"
cp "$root/scripts/run-all-on-gpu.sh" "$out/run-all.sh"
cp "$root/tests/bad-inputs/bad_inputs.py" "$out/bad_inputs.py"
cp "$root/tests/bad-inputs/run_cases.cpp" "$out/run_cases.cpp"
du -sh "$out" | cut -f1 | xargs echo "staged in .gpu:"
