#!/usr/bin/env bash
# bench/run.sh — the performance harness. Two halves:
#   bash bench/run.sh build      (here: builds bench/babelstream.cpp with offload-cxx for sm_90, the
#                                 CUDA reference with nvcc, times both builds, measures the CPU
#                                 device's triad against g++ -O3 -fopenmp; stages into .gpu/bench
#                                 the program as an offload-cxx bundle; carry .gpu alone)
#   bash .gpu/bench/run.sh gpu   (on the GPU node: runs both, prints one table of ratios)
# Every figure is BabelStream's best-of-N bandwidth or a median of many timed runs.
set -euo pipefail
mode=${1:?usage: run.sh build|gpu|ci}
here=$(cd "$(dirname "$0")" && pwd)
if [ "$mode" = build ] || [ "$mode" = ci ]; then
  root=$(cd "$here/.." && pwd)
  out=${BENCH_OUT:-$root/.gpu/bench}
  mkdir -p "$out"
  arch=sm_90; [ "$mode" = ci ] && arch=host
  # Build times: median of 5 full builds each (ccache is not involved: neither tool uses it).
  median5() { sort -n | sed -n 3p; }
  build_offload=$(for k in 1 2 3 4 5; do s=$(date +%s.%N); "$root/build/bin/offload-cxx" -O3 --offload-arch=$arch,host "$root/bench/babelstream.cpp" -o "$out/babelstream"; awk -v a="$(date +%s.%N)" -v b="$s" "BEGIN{print a - b}"; done | median5)
  if [ "$mode" = ci ]; then
    # Tiny sizes on the CPU device, so that the benchmark cannot rot.
    "$out/babelstream" 16 3 50
    g++ -O3 -fopenmp "$root/bench/cpu_triad_omp.cpp" -o "$out/cpu_triad_omp" && "$out/cpu_triad_omp" 16 3
    exit 0
  fi
  build_nvcc=$(for k in 1 2 3 4 5; do s=$(date +%s.%N); /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 "$root/bench/cuda/babelstream.cu" -o "$out/babelstream-cuda"; awk -v a="$(date +%s.%N)" -v b="$s" "BEGIN{print a - b}"; done | median5)
  echo "build_offload $build_offload s" > "$out/host-results.txt"
  echo "build_nvcc $build_nvcc s" >> "$out/host-results.txt"
  g++ -O3 -fopenmp "$root/bench/cpu_triad_omp.cpp" -o "$out/cpu_triad_omp"
  "$out/cpu_triad_omp" 25 20 >> "$out/host-results.txt"
  # The CPU device as a machine without a GPU builds for it (--offload-arch=host: with its CPU
  # image, docs/design.md), against the same loop under g++ -O3 -fopenmp.
  "$root/build/bin/offload-cxx" -O3 --offload-arch=host "$root/bench/babelstream.cpp" -o "$out/babelstream-cpu"
  OFFLOAD_DEVICE=cpu "$out/babelstream-cpu" 25 20 200 | awk '/^triad /{print "triad_cpu_device", $2, "GB/s"}' >> "$out/host-results.txt"
  rm -f "$out/babelstream-cpu"
  # The GPU node runs the program from a bundle (offload-cxx bundle), packed to fit the carry.
  rm -rf "$out/bundle-work" && mkdir -p "$out/bundle-work"
  "$root/build/bin/offload-cxx" bundle "$out/babelstream" -o "$out/bundle-work/bundle" >/dev/null
  tar -C "$out/bundle-work" -cf - bundle | xz -T2 -4 > "$out/bundle.tar.xz"
  rm -rf "$out/bundle-work" "$out/babelstream"
  cp "$here/run.sh" "$out/run.sh"
  cat "$out/host-results.txt"
  exit 0
fi
# gpu: on the node, next to what `run.sh build` staged (.gpu/bench: bundle.tar.xz, the CUDA
# program, host-results.txt).
# The bundle is run.sh build's, or else scripts/stage-gpu-run.sh's (.gpu/bundle.tar.xz, which
# holds babelstream too), so that one carry serves both the e2e run and the benchmark.
b=/tmp/offload-cxx-bench/bundle
rm -rf /tmp/offload-cxx-bench && mkdir -p /tmp/offload-cxx-bench
bundle=$here/bundle.tar.xz; [ -f "$bundle" ] || bundle=$here/../bundle.tar.xz
xz -dc "$bundle" | tar -C /tmp/offload-cxx-bench -xf -
log=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$b/run" babelstream 27 100 10000 | tee "$log/offload.txt"
"$here/babelstream-cuda" 27 100 10000 | tee "$log/cuda.txt"
python3 - "$log/offload.txt" "$log/cuda.txt" "$here/host-results.txt" <<'PY'
import sys
def read(p):
    d = {}
    for line in open(p):
        parts = line.split()
        if len(parts) >= 2 and not line.startswith("#"):
            d[parts[0]] = float(parts[1])
    return d
o, c, h = read(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3])
rows = [("copy", o["copy"], c["copy"], ">= 0.98", True), ("mul", o["mul"], c["mul"], ">= 0.98", True),
        ("add", o["add"], c["add"], ">= 0.98", True), ("triad", o["triad"], c["triad"], ">= 0.98", True),
        ("nstream", o["nstream"], c["nstream"], ">= 0.98", True), ("dot", o["dot"], c["dot"], ">= 0.95", True),
        ("triad / copy ceiling", o["triad"], c["copy_ceiling"], ">= 0.92", True),
        ("empty launch + wait (us)", o["launch_wait"], c["launch_wait"], "<= 1.2", False),
        ("1,000 queued launches (us each)", o["launch_queued"], c["launch_queued"], "<= 1.1", False),
        ("1 GiB host->device, pageable (GB/s)", o["h2d_pageable"], c["h2d_pageable"], ">= 0.9", True),
        ("1 GiB device->host, pageable (GB/s)", o["d2h_pageable"], c["d2h_pageable"], ">= 0.9", True),
        ("build time (s)", h["build_offload"], h["build_nvcc"], "<= 1.5", False),
        ("CPU device triad vs g++ -fopenmp (GB/s)", h["triad_cpu_device"], h["triad_cpu_omp"], ">= 0.8", True)]
print("| measure | offload-cxx | reference | ratio | target | met |")
print("|---|---|---|---|---|---|")
for name, ov, rv, target, higher in rows:
    ratio = ov / rv
    met = ratio >= float(target.split()[1]) if higher else ratio <= float(target.split()[1])
    print(f"| {name} | {ov:.2f} | {rv:.2f} | {ratio:.3f} | {target} | {'yes' if met else 'NO'} |")
print(f"| pinned host->device / device->host, CUDA only (GB/s) | | {c['h2d_pinned']:.1f} / {c['d2h_pinned']:.1f} | | | |")
PY
