#!/usr/bin/env bash
# stage-gpu-run.sh — build what a GPU node runs into .gpu/ (ignored by git; name it in the device
# tool's `carry`): the examples and end-to-end tests for sm_90 + the CPU device, the runtime
# library, and the LLVM 22 runtime packages (.gpu/debs) with shared/tools/gpu-runtime-env.
# Then, on the node:  bash .gpu/run-all.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${OFFLOAD_GPU_ARCH:-sm_90}
out=$root/.gpu
mkdir -p "$out/bin" "$out/lib" "$out/debs"
cmake --build "$root/build" >/dev/null
cp "$root/build/lib/liboffload-cxx-rt.so" "$out/lib/"
cp -L /usr/lib/x86_64-linux-gnu/libboost_context.so.1.74.0 "$out/lib/"
for src in "$root"/examples/fill.cpp "$root"/examples/guide/*.cpp "$root"/examples/device/*.cpp "$root"/tests/lit/codegen/Inputs/*.cpp "$root"/tests/lit/e2e/*.cpp "$root"/tests/lit/codegen/*.cpp; do
  name=$(basename "$src" .cpp)
  "$root/build/bin/offload-cxx" -O2 --offload-arch="$arch",host "$src" -o "$out/bin/$name"
done
# Programs of several files: compiled with -c, then linked.
link_example() {  # name, sources...
  local name=$1; shift; local objs=()
  for src in "$@"; do
    "$root/build/bin/offload-cxx" -c -O2 --offload-arch="$arch",host "$src" -o "$out/obj.$(basename "$src" .cpp).o"
    objs+=("$out/obj.$(basename "$src" .cpp).o")
  done
  "$root/build/bin/offload-cxx" -O2 "${objs[@]}" -o "$out/bin/$name"
  rm -f "${objs[@]}"
}
link_example data-model "$root"/examples/data-model/{main,field,stats}.cpp
link_example multi_tu "$root"/tests/lit/e2e/Inputs/multi/{main,a,b,saxpy,library}.cpp
shared=$root/../shared/tools
[ -n "$(ls "$out/debs" 2>/dev/null)" ] || bash "$shared/gpu-runtime-debs" "$out/debs" >/dev/null
cp "$shared/gpu-runtime-env" "$out/gpu-runtime-env"
cp "$root/scripts/run-all-on-gpu.sh" "$out/run-all.sh"
du -sh "$out" | cut -f1 | xargs echo "staged in .gpu:"
