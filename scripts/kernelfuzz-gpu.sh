#!/usr/bin/env bash
# kernelfuzz-gpu.sh — the differential kernel fuzzer's GPU run (issue 29; tests/kernelfuzz/).
#
#   bash scripts/kernelfuzz-gpu.sh stage FIRST:END [COUNT]   # here: build, bundle into .gpu/kernelfuzz
#   bash .gpu/kernelfuzz/check.sh                            # on the GPU machine
#
# stage builds batches of generated kernels (seeds FIRST..END-1, COUNT kernels each) for sm_90
# (kernelfuzz.py gpu-build), runs each batch here as fibers on the CPU device for its reference
# hashes, and packs the programs with `offload-cxx bundle`. check runs every program on the GPU
# and compares each kernel's hash with the reference; its last line is
# `kernelfuzz gpu: N kernels agree, M differ`, and it names each kernel that differs (reduce it
# here with `kernelfuzz.py reduce`, against the GPU's hash).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
stage)
  seeds=${2:?FIRST:END}
  count=${3:-50}
  build=${OFFLOAD_CXX_BUILD_DIR:-$root/build}
  work=${KERNELFUZZ_WORK:-$build/kernelfuzz-gpu}
  out=$root/.gpu/kernelfuzz
  if [ -z "${KERNELFUZZ_PREBUILT:-}" ]; then
    rm -rf "$work"
    python3 "$root/tests/kernelfuzz/kernelfuzz.py" gpu-build --driver "$build/bin/offload-cxx" \
      --archs "${OFFLOAD_GPU_ARCH:-sm_90}" --seeds "$seeds" --count "$count" --out "$work"
  fi
  rm -rf "$out" && mkdir -p "$out"
  progs=()
  while read -r name; do [ -n "$name" ] && progs+=("$work/$name"); done < "$work/programs.txt"
  rm -rf "$work/bundle"
  "$build/bin/offload-cxx" bundle "${progs[@]}" -o "$work/bundle"
  source "$root/scripts/slim-bundle.sh"
  stub_unused_libraries "$work/bundle/lib"  # under the carry's 64 MiB (69 MB without)
  tar -C "$work" -cf - bundle | xz -T2 -6 > "$out/bundle.tar.xz"
  cp "$work"/*.expected "$work/programs.txt" "$out/"
  cp "$0" "$out/check.sh"
  du -sh "$out" | cut -f1 | xargs echo "staged in .gpu/kernelfuzz:"
  ;;
check|"")
  here=$(cd "$(dirname "$0")" && pwd)
  # KERNELFUZZ_BUNDLE: another bundle.tar.xz (a folder named bundle) holding the programs.
  bundle=${KERNELFUZZ_BUNDLE:-$here/bundle.tar.xz}
  [ -f "$bundle" ] || { echo "kernelfuzz-gpu: run 'stage' first" >&2; exit 2; }
  logs=${KERNELFUZZ_LOGS:-/tmp/kernelfuzz-logs}  # each program's output (many files)
  mkdir -p "$logs"
  dir=/tmp/kernelfuzz-gpu && rm -rf "$dir" && mkdir -p "$dir"
  xz -dc "$bundle" | tar -C "$dir" -xf -
  agree=0 differ=0
  while read -r name; do
    [ -n "$name" ] || continue
    got=$logs/$name.gpu.txt
    [ -e "$dir/bundle/bin/$name" ] || continue  # not staged in this bundle
    if ! OMP_TARGET_OFFLOAD=mandatory timeout 300 "$dir/bundle/run" "$name" > "$got" 2> "$logs/$name.gpu.err"; then
      echo "$name: the run failed (exit $?): $(tail -c 300 "$logs/$name.gpu.err")"
    fi
    while read -r kernel hash; do
      if grep -qx "$kernel $hash" "$got"; then agree=$((agree+1)); else
        differ=$((differ+1)); echo "DIFFERS $kernel: expected $hash, got '$(grep "^$kernel " "$got" | cut -d' ' -f2)'"
      fi
    done < "$here/$name.expected"
  done < "$here/programs.txt"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1
  echo "kernelfuzz gpu: $agree kernels agree, $differ differ"
  [ "$differ" = 0 ]
  ;;
*) echo "usage: $0 stage FIRST:END [COUNT] | check" >&2; exit 2 ;;
esac
