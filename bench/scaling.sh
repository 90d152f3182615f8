#!/usr/bin/env bash
# bench/scaling.sh — strong scaling of examples/multi-gpu (BabelStream triad, row-split Jacobi
# stencil) over 1..N GPUs of one node: the same total problem on k = 1..N GPUs (devices 0..k-1),
# and efficiency = speed-up / k, speed-up = throughput on k GPUs / throughput on 1.
#   bash bench/scaling.sh gpu [N]   on a GPU node: N defaults to the GPUs nvidia-smi lists
#   bash bench/scaling.sh ci        tiny sizes on 1 and 2 queues of the CPU device, so that the
#                                   script cannot rot (tests/lit/bench/scaling.test); its figures
#                                   are not a measurement of anything
# OFFLOAD_CXX: the driver (default build/bin/offload-cxx); SCALING_OUT: where the programs and
# logs go (default /tmp/offload-cxx-scaling). Each run checks its result bitwise against one
# device and fails the script if it does not match.
set -euo pipefail
mode=${1:?usage: scaling.sh gpu [N] | ci}
root=$(cd "$(dirname "$0")/.." && pwd)
cxx=${OFFLOAD_CXX:-$root/build/bin/offload-cxx}
out=${SCALING_OUT:-/tmp/offload-cxx-scaling}
mkdir -p "$out"

case "$mode" in
  gpu)
    n=${2:-$(nvidia-smi -L | grep -c '^GPU')}
    arch=()                                   # the driver's default: this node's GPUs + host
    triad_args=(536870912 100)                # 2^29 doubles per array: 12 GiB in all
    stencil_args=(16384 16384 200 --no-host-check)
    device() { echo "$1"; }
    ;;
  ci)
    n=2
    arch=(--offload-arch=host)
    triad_args=(200000 5)
    stencil_args=(256 128 10)
    device() { echo cpu; }
    ;;
  *) echo "usage: scaling.sh gpu [N] | ci" >&2; exit 2 ;;
esac

"$cxx" -O3 "${arch[@]}" "$root/examples/multi-gpu/triad.cpp" -o "$out/triad"
"$cxx" -O3 "${arch[@]}" "$root/examples/multi-gpu/stencil.cpp" -o "$out/stencil"

# One row per program and device count, from the program's "<name> K devices: X <unit>" line.
results="$out/results.txt"
: > "$results"
for k in $(seq 1 "$n"); do
  list=$(for d in $(seq 0 $((k - 1))); do device "$d"; done | paste -sd,)
  for prog in triad stencil; do
    if [ $prog = triad ]; then args=("${triad_args[@]}"); else args=("${stencil_args[@]}"); fi
    log="$out/$prog-$k.log"
    "$out/$prog" "${args[@]}" --devices="$list" > "$log"
    grep -q "PASS on $k device" "$log" || { cat "$log" >&2; echo "scaling: $prog on $k devices failed" >&2; exit 1; }
    awk -v p=$prog -v k="$k" -v l="$list" '$1 == p && $3 ~ /^devices?:$/ { print p, k, l, $4, $5 }' "$log" >> "$results"
  done
done

[ "$mode" = ci ] && echo "# CI: the CPU device's queues on a shared runner; these figures are not a measurement"
echo "# strong scaling: triad ${triad_args[*]}, stencil ${stencil_args[*]}"
echo "| program | devices | list | throughput | speed-up | efficiency |"
echo "|---|---|---|---|---|---|"
awk '{ if ($2 == 1) base[$1] = $4
       s = $4 / base[$1]
       printf "| %s | %d | %s | %s %s | %.2f | %.2f |\n", $1, $2, $3, $4, $5, s, s / $2 }' \
  <(sort -s -k1,1r -k2,2n "$results")
