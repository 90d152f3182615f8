#!/usr/bin/env bash
# bench/cpu_device/run.sh — the CPU device's barrier kernels (issue 17) against the same
# algorithms written with OpenMP (g++ -O3 -fopenmp), on this machine: builds both, runs them
# alternately ROUNDS times (each run prints the median of 7 timed repetitions per kernel), and
# prints a Markdown table of the medians over the rounds and their ratio (OpenMP time / CPU-
# device time: above 1, the CPU device is faster). `run.sh ci` runs tiny sizes once (no timing).
#   OFFLOAD_CXX=build/bin/offload-cxx ROUNDS=5 FLAGS="-O3" bash bench/cpu_device/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cxx=${OFFLOAD_CXX:-$here/../../build/bin/offload-cxx}
out=${BENCH_OUT:-$(mktemp -d)}
flags=${FLAGS:--O3}
"$cxx" $flags --offload-arch=host "$here/kernels.cpp" -o "$out/kernels"
g++ $flags -fopenmp "$here/openmp.cpp" -o "$out/openmp"
if [[ ${1:-} == ci ]]; then
  OFFLOAD_DEVICE=cpu "$out/kernels" 1 small
  "$out/openmp" 1 small
  echo "these figures are not a measurement"
  exit 0
fi
rounds=${ROUNDS:-5}
for ((r = 0; r < rounds; ++r)); do
  OFFLOAD_DEVICE=cpu "$out/kernels" > "$out/kernels.$r"
  "$out/openmp" > "$out/openmp.$r"
done
python3 - "$out" "$rounds" "$flags" <<'PY'
import statistics, sys
out, rounds, flags = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def read(name):
    runs = {}
    for r in range(rounds):
        for line in open(f"{out}/{name}.{r}"):
            parts = line.split()
            if len(parts) >= 3 and parts[2] == "ms":
                if "WRONG" in line:
                    sys.exit(f"{name}: {parts[0]} gave a wrong result")
                runs.setdefault(parts[0], []).append(float(parts[1]))
    return {k: statistics.median(v) for k, v in runs.items()}
dev, omp = read("kernels"), read("openmp")
print(f"| kernel ({flags}, {rounds} alternating rounds) | CPU device (ms) | OpenMP (ms) | ratio |")
print("|---|---|---|---|")
for k in dev:
    print(f"| {k} | {dev[k]:.2f} | {omp[k]:.2f} | {omp[k] / dev[k]:.2f} |")
PY
