#!/usr/bin/env bash
# bench/cpu_device/newuser/run.sh — five programs a helper wrote from the README and the user
# guide alone (issue 31, "new programs ... by someone who has not read the code"), each with the
# same computation written with OpenMP: NAME/port.cpp (offload-cxx, the CPU device) and
# NAME/omp.cpp (g++ -O3 -fopenmp). Each prints `CHECK ok` and `NAME <ms> ms` (the median of 7
# timed repetitions, copies to and from the device included). Runs each pair alternately ROUNDS
# times (3) at each count of THREADS ("1 2"; OFFLOAD_CPU_THREADS and OMP_NUM_THREADS) and prints
# the medians and the ratio OpenMP ms / CPU-device ms (above 1: the CPU device is faster).
#   OFFLOAD_CXX=build/bin/offload-cxx THREADS="1 2 16" bash bench/cpu_device/newuser/run.sh
#   bash run.sh stage DIR           here: DIR/nu-NAME.port (--offload-arch=host), DIR/nu-NAME.omp
#                                   (static; `nu-`: the corpus has a scan and a softmax too)
#   PREBUILT=LAUNCHER bash DIR/run.sh   on a node that cannot build: runs `LAUNCHER nu-NAME.port`
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cxx=${OFFLOAD_CXX:-$here/../../../build/bin/offload-cxx}
names="stencil histogram softmax axpydot scan"
if [[ ${1:-} == stage ]]; then
  dir=${2:?run.sh stage DIR}; mkdir -p "$dir"
  for n in $names; do
    "$cxx" -O3 --offload-arch=host "$here/$n/port.cpp" -o "$dir/nu-$n.port" || exit 1
    g++ -O3 -fopenmp -static "$here/$n/omp.cpp" -o "$dir/nu-$n.omp" || exit 1
  done
  cp "$0" "$dir/run.sh"
  exit 0
fi
out=${BENCH_OUT:-$(mktemp -d)}
if [ -z "${PREBUILT:-}" ]; then
  for n in $names; do
    "$cxx" -O3 --offload-arch=host "$here/$n/port.cpp" -o "$out/nu-$n.port" || exit 1
    g++ -O3 -fopenmp "$here/$n/omp.cpp" -o "$out/nu-$n.omp" || exit 1
  done
  port() { "$out/nu-$1.port"; }
else
  port() { "$PREBUILT" "nu-$1.port"; }
fi
omp=${PREBUILT:+$here}
omp=${omp:-$out}
rounds=${ROUNDS:-3}
fail=0
for t in ${THREADS:-1 2}; do
  echo "| program ($t threads, $rounds alternating rounds) | CPU device (ms) | OpenMP (ms) | ratio |"
  echo "|---|---|---|---|"
  for n in $names; do
    dev=() ref=()
    for ((r = 0; r < rounds; ++r)); do
      o=$(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t port "$n" 2>&1)
      grep -q '^CHECK ok' <<<"$o" || { echo "$n (port, $t threads): $(tail -2 <<<"$o")"; fail=1; }
      dev+=("$(awk -v n="$n" '$1 == n && $3 == "ms" {print $2}' <<<"$o")")
      o=$(OMP_NUM_THREADS=$t "$omp/nu-$n.omp" 2>&1)
      grep -q '^CHECK ok' <<<"$o" || { echo "$n (omp, $t threads): $(tail -2 <<<"$o")"; fail=1; }
      ref+=("$(awk -v n="$n" '$1 == n && $3 == "ms" {print $2}' <<<"$o")")
    done
    python3 -c "
import statistics, sys
d = [float(x) for x in sys.argv[2].split()]; o = [float(x) for x in sys.argv[3].split()]
md, mo = statistics.median(d), statistics.median(o)
print(f'| {sys.argv[1]} | {md:.2f} | {mo:.2f} | {mo / md:.2f} |')" "$n" "${dev[*]:-nan}" "${ref[*]:-nan}"
  done
done
[ $fail = 0 ] && echo "newuser: all CHECK ok" || echo "newuser: SOME CHECKS FAILED"
exit $fail
