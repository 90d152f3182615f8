#!/bin/bash
# Builds the three offload-cxx programs and their OpenMP twins, checks them, and times them at
# 1 and 2 threads (OFFLOAD_CPU_THREADS = OMP_NUM_THREADS), 3 alternating runs each.
# Usage: bash run.sh            (set OFFLOAD_CXX to use another driver; WARP=1 also times spmv's warp-per-row kernel)
set -euo pipefail
cd "$(dirname "$0")"
W=$PWD
OCXX=${OFFLOAD_CXX:-$W/../../../build/bin/offload-cxx}
REPS=${REPS:-3}

echo "== build (one thing at a time)"
(cd blur && g++ -O3 -fopenmp blur_omp.cpp -o blur_omp && "$OCXX" -O3 blur.cpp -o blur)
(cd spmv && g++ -O3 -fopenmp spmv_omp.cpp -o spmv_omp && "$OCXX" -O3 spmv.cpp -o spmv)
(cd kmeans && rm -rf build && mkdir build && cd build &&
   CXX="$OCXX" cmake -G Ninja .. > cmake.log && ninja -j1 kmeans)
# the OpenMP twin of kmeans straight from g++ (the CMake build also has one, compiled through offload-cxx)
(cd kmeans && g++ -O3 -fopenmp -Iinclude omp/kmeans_omp.cpp src/data.cpp -o build/kmeans_omp_gxx)

# name  folder  twin-binary  offload-binary
PROGS=("blur blur ./blur_omp ./blur"
       "spmv spmv ./spmv_omp ./spmv"
       "kmeans kmeans/build ./kmeans_omp_gxx ./kmeans")

RES=$(mktemp)
fail=0
echo "== runs"
for t in 1 2; do
  for rep in $(seq 1 "$REPS"); do
    for p in "${PROGS[@]}"; do
      set -- $p
      name=$1; dir=$2; twin=$3; off=$4
      out=$(cd "$dir" && OMP_NUM_THREADS=$t "$twin") || fail=1
      [[ $out == *"CHECK ok"* ]] || { echo "$out"; fail=1; }
      ms=$(echo "$out" | awk -v n="${name}_omp" '$1==n {print $2}')
      echo "omp $name $t $ms" >> "$RES"
      out=$(cd "$dir" && OFFLOAD_CPU_THREADS=$t "$off") || fail=1
      [[ $out == *"CHECK ok"* ]] || { echo "$out"; fail=1; }
      ms2=$(echo "$out" | awk -v n="$name" '$1==n {print $2}')
      echo "off $name $t $ms2" >> "$RES"
      printf '  threads=%d rep=%d %-7s omp %8.2f ms   offload %8.2f ms   %s\n' "$t" "$rep" "$name" "$ms" "$ms2" \
        "$(echo "$out" | grep -o 'CHECK [A-Za-z]*')"
    done
  done
done

echo "== medians of $REPS runs (each run: median of 7 repetitions)"
python3 - "$RES" <<'PY'
import sys, statistics, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    kind, name, t, ms = line.split()
    d[(kind, name, int(t))].append(float(ms))
print(f"{'program':8} {'threads':>7} {'OpenMP ms':>10} {'CPU-dev ms':>11} {'OMP/CPU-dev':>11}")
for name in ["blur", "spmv", "kmeans"]:
    for t in (1, 2):
        o = statistics.median(d[("omp", name, t)]); c = statistics.median(d[("off", name, t)])
        print(f"{name:8} {t:7d} {o:10.1f} {c:11.1f} {o / c:11.2f}")
PY
if [ "${WARP:-0}" = 1 ]; then
  echo "== spmv warp-per-row kernel (2 threads)"
  (cd spmv && OFFLOAD_CPU_THREADS=2 ./spmv --warp | grep -E "CHECK|spmv")
fi
rm -f "$RES"
[ $fail = 0 ] && echo "ALL CHECKS ok" || { echo "SOME CHECK FAILED"; exit 1; }
