#!/usr/bin/env bash
# bench/cpu_device/corpus/run.sh — the corpus ports (tests/corpus/NAME/port.cpp, issue 17) on the
# CPU device against the same algorithms written with OpenMP on the host (NAME_omp.cpp here,
# g++ -O3 -fopenmp), on this machine: builds both, runs them alternately ROUNDS times with the
# same arguments (OFFLOAD_DEVICE=cpu for the port), and prints a Markdown table of the medians of
# their `time_ms:` lines and the ratio OpenMP time / CPU-device time (above 1, the CPU device is
# faster). Each NAME_omp.cpp says what its time covers (the same work as the port's time_ms).
# A run that does not end with "NAME: PASS" shows as FAIL in the table.
#   OFFLOAD_CXX=build/bin/offload-cxx ROUNDS=5 bash bench/cpu_device/corpus/run.sh [NAME...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../../..
cxx=${OFFLOAD_CXX:-$root/build/bin/offload-cxx}
out=${BENCH_OUT:-$(mktemp -d)}
rounds=${ROUNDS:-5}

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
)
if (($# > 0)); then  # only the names given
  keep=()
  for c in "${cases[@]}"; do
    for n in "$@"; do [[ ${c%%|*} == "$n" ]] && keep+=("$c"); done
  done
  cases=("${keep[@]}")
fi

for c in "${cases[@]}"; do
  name=${c%%|*}
  "$cxx" -O3 --offload-arch=host "$root/tests/corpus/$name/port.cpp" -o "$out/$name.port" || exit 1
  g++ -O3 -fopenmp "$here/${name}_omp.cpp" -o "$out/$name.omp" || exit 1
done

for ((r = 0; r < rounds; ++r)); do
  for c in "${cases[@]}"; do
    name=${c%%|*} args=${c#*|}
    OFFLOAD_DEVICE=cpu "$out/$name.port" $args > "$out/$name.port.$r" 2>&1
    "$out/$name.omp" $args > "$out/$name.omp.$r" 2>&1
  done
done

python3 - "$out" "$rounds" "${cases[@]}" <<'PY'
import re, statistics, sys
out, rounds, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def median(name, kind):
    times = []
    for r in range(rounds):
        text = open(f"{out}/{name}.{kind}.{r}").read()
        passed = f"{name}: PASS" if kind == "port" else f"{name}_omp: PASS"
        m = re.search(r"^time_ms: ([0-9.]+)", text, re.M)
        if passed not in text or not m:
            return None
        times.append(float(m.group(1)))
    return statistics.median(times)
print(f"| program | args | CPU device median ms | OpenMP median ms | ratio (OpenMP/CPU device) |")
print("|---|---|---|---|---|")
for c in cases:
    name, args = c.split("|", 1)
    dev, omp = median(name, "port"), median(name, "omp")
    fmt = lambda t: "FAIL" if t is None else f"{t:.2f}"
    ratio = f"{omp / dev:.2f}" if dev and omp else "-"
    print(f"| {name} | `{args}` | {fmt(dev)} | {fmt(omp)} | {ratio} |")
print(f"\n({rounds} alternating rounds; outputs in {out})")
PY
