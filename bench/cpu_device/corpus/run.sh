#!/usr/bin/env bash
# bench/cpu_device/corpus/run.sh — the corpus ports (tests/corpus/NAME/port.cpp, issue 17) on the
# CPU device against the same algorithms written with OpenMP on the host (NAME_omp.cpp here,
# g++ -O3 -fopenmp), on this machine: builds both, runs them alternately ROUNDS times with the
# same arguments (OFFLOAD_DEVICE=cpu for the port), and prints a Markdown table of the medians of
# their `time_ms:` lines and the ratio OpenMP time / CPU-device time (above 1, the CPU device is
# faster). Each NAME_omp.cpp says what its time covers (the same work as the port's time_ms).
# A run that does not end with "NAME: PASS" shows as FAIL in the table.
#   OFFLOAD_CXX=build/bin/offload-cxx ROUNDS=5 bash bench/cpu_device/corpus/run.sh [NAME...]
# THREADS="1 2 16" runs every case at each count (OFFLOAD_CPU_THREADS for the port,
# OMP_NUM_THREADS for OpenMP; default: neither set) and prints one table per count.
# For a machine that cannot build (the GPU node):
#   bash run.sh stage DIR      here: DIR/NAME.port (built --offload-arch=host) to bundle with
#                              `offload-cxx bundle`, DIR/NAME.omp (linked statically) and this
#                              script as DIR/run.sh
#   PREBUILT=LAUNCHER bash DIR/run.sh   on the node: runs `LAUNCHER NAME.port` (a bundle's `run`)
#                              and DIR/NAME.omp; nothing is built
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../../..
cxx=${OFFLOAD_CXX:-$root/build/bin/offload-cxx}
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"
rounds=${ROUNDS:-5}
stage=""
if [[ ${1:-} == stage ]]; then stage=${2:?run.sh stage DIR}; mkdir -p "$stage"; shift 2; fi

# NAME|arguments (the port's own), chosen so that the CPU device takes about 50-500 ms on the
# 2-core machine of issue 17 (the time_ms figure; the whole run, with setup and the host check,
# takes longer).
cases=(
  "stencil1d|16777216 10"                          # 16M ints, time_ms: one of 10 passes
  "matrix-mul|-wA=512 -hA=512 -wB=512 -hB=512 -iter=16" # time_ms: one of 16 products
  "scan|1000000 1"                                 # 1M elements, 5 N x 4 types x 2 kernels, total
  "bincount|400000 2"                               # 400K floats, 11 cases, sum of averages
  "atomic-reduction|4194304 2"                     # 16 MiB, 20 benchmarks x 2 runs, total
  "softmax|8192 784 1 2"                           # warp-per-row kernel, time_ms: one of 2 runs
  "nbody|4096 4"                                   # 4096 particles, total of 4 steps
  "vector-add|16777216"                            # 16M floats, one launch (C first touched)
  "simple-spmv|1048576 4096 2"                     # 3 kernels x 6 workgroup sizes, sum of averages
  "matrix-rotate|8000 3"                           # 8000 x 8000, time_ms: one of 3 rotations
  "bfs|2000000"                                    # 2M nodes, 1-8 edges each, all levels
  "bitonic-sort|19"                                # 2**19 ints, all 190 stages
  "jacobi|32"                                      # 32 x 32, the loop to convergence (fibers: 128 took 44 s)
  "rodinia-pathfinder|500000 100 20"               # 500000 x 100, all 99 rows (5 launches)
  "rodinia-hotspot|1024 2 40"                      # 1024 x 1024, 40 steps (20 launches)
  "rodinia-srad-v2|1024 1024 0 127 0 127 0.5 10"   # 1024 x 1024, 10 iterations (port: with copies)
  "rodinia-nw|4096 10"                             # 4096 x 4096 scores, 511 tile diagonals
  "rodinia-lud|2048"                               # 2048 x 2048, 128 steps (port: with copies)
  "rodinia-hotspot3d|512 8 40"                     # 512 x 512 x 8, 40 steps
)
if (($# > 0)); then  # only the names given
  keep=()
  for c in "${cases[@]}"; do
    for n in "$@"; do [[ ${c%%|*} == "$n" ]] && keep+=("$c"); done
  done
  cases=("${keep[@]}")
fi

if [ -z "${PREBUILT:-}" ]; then
  dest=${stage:-$out}
  for c in "${cases[@]}"; do
    name=${c%%|*}
    "$cxx" -O3 --offload-arch=host "$root/tests/corpus/$name/port.cpp" -o "$dest/$name.port" || exit 1
    # staged: linked statically (the node may lack libgomp), run from beside this script there
    g++ -O3 -fopenmp ${stage:+-static} "$here/${name}_omp.cpp" -o "$dest/$name.omp" || exit 1
  done
  if [ -n "$stage" ]; then cp "$0" "$stage/run.sh"; echo "staged in $stage"; exit 0; fi
fi
# one program's run: the prebuilt one through its launcher, or the one just built
program() {
  local p=$1; shift
  if [ -z "${PREBUILT:-}" ]; then "$out/$p" "$@"
  elif [[ $p == *.omp ]]; then "$here/$p" "$@"
  else "$PREBUILT" "$p" "$@"; fi
}

for t in ${THREADS:-default}; do
  for ((r = 0; r < rounds; ++r)); do
    for c in "${cases[@]}"; do
      name=${c%%|*} args=${c#*|}
      if [ "$t" = default ]; then unset OFFLOAD_CPU_THREADS OMP_NUM_THREADS
      else export OFFLOAD_CPU_THREADS=$t OMP_NUM_THREADS=$t; fi
      # shellcheck disable=SC2086
      OFFLOAD_DEVICE=cpu program "$name.port" $args > "$out/$name.port.$t.$r" 2>&1
      # shellcheck disable=SC2086
      program "$name.omp" $args > "$out/$name.omp.$t.$r" 2>&1
    done
  done
done
unset OFFLOAD_CPU_THREADS OMP_NUM_THREADS

for t in ${THREADS:-default}; do
python3 - "$out" "$rounds" "$t" "${cases[@]}" <<'PY'
import re, statistics, sys
out, rounds, threads, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
def median(name, kind):
    times = []
    for r in range(rounds):
        text = open(f"{out}/{name}.{kind}.{threads}.{r}").read()
        passed = f"{name}: PASS" if kind == "port" else f"{name}_omp: PASS"
        m = re.search(r"^time_ms: ([0-9.]+)", text, re.M)
        if passed not in text or not m:
            return None
        times.append(float(m.group(1)))
    return statistics.median(times)
if threads != "default":
    print(f"\n{threads} thread(s): OFFLOAD_CPU_THREADS={threads}, OMP_NUM_THREADS={threads}\n")
print(f"| program | args | CPU device median ms | OpenMP median ms | ratio (OpenMP/CPU device) |")
print("|---|---|---|---|---|")
for c in cases:
    name, args = c.split("|", 1)
    dev, omp = median(name, "port"), median(name, "omp")
    fmt = lambda t: "FAIL" if t is None else f"{t:.2f}"
    ratio = f"{omp / dev:.2f}" if dev and omp else "-"
    print(f"| {name} | `{args}` | {fmt(dev)} | {fmt(omp)} | {ratio} |")
ratios = [omp / dev for c in cases for name in [c.split("|", 1)[0]]
          for dev, omp in [(median(name, "port"), median(name, "omp"))] if dev and omp]
if ratios:
    print(f"\ngeometric mean of the ratios: {statistics.geometric_mean(ratios):.2f} ({len(ratios)} programs)")
print(f"\n({rounds} alternating rounds; outputs in {out})")
PY
done
