#!/usr/bin/env bash
# bench/run.sh — the performance harness. Two halves:
#   bash bench/run.sh build      (here: builds bench/babelstream.cpp with offload-cxx for sm_90, the
#                                 CUDA reference with nvcc, times both builds, measures the CPU
#                                 device's triad against g++ -O3 -fopenmp; stages into .gpu/bench
#                                 the program as an offload-cxx bundle; carry .gpu alone)
#   bash .gpu/bench/run.sh gpu   (on the GPU node: runs both, prints one table of ratios)
# Every figure is BabelStream's best-of-N bandwidth or a median of many timed runs.
# OFFLOAD_CXX: the driver (default: build/bin/offload-cxx of this checkout; the lit test passes
# the build tree's own, wherever it is).
set -euo pipefail
mode=${1:?usage: run.sh build|gpu|ci|program OUT}
here=$(cd "$(dirname "$0")" && pwd)
oc=${OFFLOAD_CXX:-$(cd "$here/.." && pwd)/build/bin/offload-cxx}
cuda=${CUDA_PATH:-/usr/local/cuda}
# program OUT: the measured program — BabelStream with cudaMemcpy linked in, for transfers
# compared in one process (bench/cuda/cudart_copies.cpp). Used by build and by
# scripts/stage-gpu-run.sh.
if [ "$mode" = program ]; then
  root=$(cd "$here/.." && pwd)
  prog=${2:?usage: run.sh program OUT}
  g++ -O2 -c -I"$cuda/include" "$here/cuda/cudart_copies.cpp" -o "$prog.cudart_copies.o"
  "$oc" -O3 --offload-arch=${OFFLOAD_GPU_ARCH:-sm_90},host -DBENCH_CUDART_REFERENCE \
    "$root/bench/babelstream.cpp" "$prog.cudart_copies.o" -o "$prog" -L"$cuda/lib64" -lcudart_static -ldl -lrt
  rm -f "$prog.cudart_copies.o"
  exit 0
fi
if [ "$mode" = build ] || [ "$mode" = ci ]; then
  root=$(cd "$here/.." && pwd)
  out=${BENCH_OUT:-$root/.gpu/bench}
  mkdir -p "$out"
  arch=sm_90; [ "$mode" = ci ] && arch=host
  # Build times: median of 5 full builds each (ccache is not involved: neither tool uses it).
  median5() { sort -n | sed -n 3p; }
  build_offload=$(for k in 1 2 3 4 5; do s=$(date +%s.%N); "$oc" -O3 --offload-arch=$arch,host "$root/bench/babelstream.cpp" -o "$out/babelstream"; awk -v a="$(date +%s.%N)" -v b="$s" "BEGIN{print a - b}"; done | median5)
  if [ "$mode" = ci ]; then
    # Tiny sizes on the CPU device, so that the benchmark cannot rot.
    "$out/babelstream" 16 3 50
    # The same kernels written as lambdas (offload::parallel_for / parallel_reduce, issue 33).
    "$oc" -O3 --offload-arch=$arch,host "$root/bench/babelstream_lambda.cpp" -o "$out/babelstream_lambda"
    "$out/babelstream_lambda" 16 3
    g++ -O3 -fopenmp "$root/bench/cpu_triad_omp.cpp" -o "$out/cpu_triad_omp" && "$out/cpu_triad_omp" 16 3
    exit 0
  fi
  bash "$here/run.sh" program "$out/babelstream"  # the measured program (its build is not timed)
  build_nvcc=$(for k in 1 2 3 4 5; do s=$(date +%s.%N); /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 "$root/bench/cuda/babelstream.cu" -o "$out/babelstream-cuda"; awk -v a="$(date +%s.%N)" -v b="$s" "BEGIN{print a - b}"; done | median5)
  echo "build_offload $build_offload s" > "$out/host-results.txt"
  echo "build_nvcc $build_nvcc s" >> "$out/host-results.txt"
  g++ -O3 -fopenmp "$root/bench/cpu_triad_omp.cpp" -o "$out/cpu_triad_omp"
  "$out/cpu_triad_omp" 25 20 >> "$out/host-results.txt"
  # The CPU device as a machine without a GPU builds for it (--offload-arch=host: with its CPU
  # image, docs/design.md), against the same loop under g++ -O3 -fopenmp.
  "$oc" -O3 --offload-arch=host "$root/bench/babelstream.cpp" -o "$out/babelstream-cpu"
  OFFLOAD_DEVICE=cpu "$out/babelstream-cpu" 25 20 200 | awk '/^triad /{print "triad_cpu_device", $2, "GB/s"}' >> "$out/host-results.txt"
  rm -f "$out/babelstream-cpu"
  # The GPU node runs the program from a bundle (offload-cxx bundle), packed to fit the carry.
  rm -rf "$out/bundle-work" && mkdir -p "$out/bundle-work"
  "$oc" bundle "$out/babelstream" -o "$out/bundle-work/bundle" >/dev/null
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
# Rounds: the two programs alternate (offload-cxx, CUDA, offload-cxx, ...), so that drift of the
# machine over the run reaches both; each ratio in the table is the median of the rounds' ratios.
rounds=${BENCH_ROUNDS:-5}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rd=/tmp/offload-cxx-bench/rounds && mkdir -p "$rd"
for r in $(seq 1 "$rounds"); do
  "$b/run" babelstream 27 100 10000 > "$rd/offload-$r.txt"
  "$here/babelstream-cuda" 27 100 10000 > "$rd/cuda-$r.txt"
done
for prog in offload cuda; do  # every round's raw output, in one file each
  for r in $(seq 1 "$rounds"); do echo "# round $r"; cat "$rd/$prog-$r.txt"; done > "$log/$prog-rounds.txt"
done
cat "$rd/offload-1.txt" "$rd/cuda-1.txt"
python3 - "$rd" "$rounds" "$here/host-results.txt" <<'PY' | tee "$log/table.md"
import statistics, sys
def read(p):
    d = {}
    for line in open(p):
        parts = line.split()
        if len(parts) >= 2 and not line.startswith("#"):
            d[parts[0]] = float(parts[1])
    return d
rounds_dir, rounds = sys.argv[1], int(sys.argv[2])
O = [read(f"{rounds_dir}/offload-{r}.txt") for r in range(1, rounds + 1)]
C = [read(f"{rounds_dir}/cuda-{r}.txt") for r in range(1, rounds + 1)]
h = read(sys.argv[3])
# Transfers against cudaMemcpy in the same process, interleaved (bench/cuda/cudart_copies.cpp).
same = lambda k: (lambda o, c: o.get(k + "_cudart_same_process", c[k]))
measures = [  # name, offload key, reference (o, c) -> value, target, higher is better
    ("copy (GB/s)", "copy", lambda o, c: c["copy"], ">= 0.98", True),
    ("mul (GB/s)", "mul", lambda o, c: c["mul"], ">= 0.98", True),
    ("add (GB/s)", "add", lambda o, c: c["add"], ">= 0.98", True),
    ("triad (GB/s)", "triad", lambda o, c: c["triad"], ">= 0.98", True),
    ("nstream (GB/s)", "nstream", lambda o, c: c["nstream"], ">= 0.98", True),
    ("dot (GB/s)", "dot", lambda o, c: c["dot"], ">= 0.95", True),
    ("triad / measured copy ceiling (cudaMemcpy D2D, GB/s)", "triad", lambda o, c: c["copy_ceiling"], ">= 0.92", True),
    ("empty launch + wait (us)", "launch_wait", lambda o, c: c["launch_wait"], "<= 1.2", False),
    ("1,000 queued launches then one wait (us each)", "launch_queued", lambda o, c: c["launch_queued"], "<= 1.1", False),
    ("1 GiB host->device, pageable, vs cudaMemcpy in the same process (GB/s)", "h2d_pageable", same("h2d_pageable"), ">= 0.9", True),
    ("1 GiB device->host, pageable, vs cudaMemcpy in the same process (GB/s)", "d2h_pageable", same("d2h_pageable"), ">= 0.9", True),
]
print(f"{rounds} rounds; values are medians over rounds, ratio is the median of the rounds' ratios")
print("| measure | offload-cxx | reference | ratio | rounds' ratios | target | met |")
print("|---|---|---|---|---|---|---|")
def row(name, ov, rv, ratios, target, higher):
    ratio = statistics.median(ratios)
    met = ratio >= float(target.split()[1]) if higher else ratio <= float(target.split()[1])
    spread = " ".join(f"{x:.2f}" for x in ratios)
    print(f"| {name} | {ov:.2f} | {rv:.2f} | {ratio:.3f} | {spread} | {target} | {'yes' if met else 'NO'} |")
for name, key, ref, target, higher in measures:
    ovs = [o[key] for o in O]
    rvs = [ref(o, c) for o, c in zip(O, C)]
    row(name, statistics.median(ovs), statistics.median(rvs), [a / b for a, b in zip(ovs, rvs)], target, higher)
row("build time (s), CPU machine, median of 5", h["build_offload"], h["build_nvcc"], [h["build_offload"] / h["build_nvcc"]], "<= 1.5", False)
row("CPU device triad vs g++ -O3 -fopenmp, 2^25, CPU machine (GB/s)", h["triad_cpu_device"], h["triad_cpu_omp"], [h["triad_cpu_device"] / h["triad_cpu_omp"]], ">= 0.8", True)
med = lambda k: statistics.median(c[k] for c in C)
if all("launch_enqueue_only" in o for o in O + C):
    mo = statistics.median(o["launch_enqueue_only"] for o in O)
    print(f"| 1,000 launches, the caller's side only (us each; not a target) | {mo:.2f} | {med('launch_enqueue_only'):.2f} | | | | |")
print(f"| pageable host->device / device->host, the CUDA program (another process) (GB/s) | | {med('h2d_pageable'):.1f} / {med('d2h_pageable'):.1f} | | | | |")
print(f"| pinned host->device / device->host, CUDA only (GB/s) | | {med('h2d_pinned'):.1f} / {med('d2h_pinned'):.1f} | | | | |")
PY
