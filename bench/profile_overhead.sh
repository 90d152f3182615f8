#!/usr/bin/env bash
# bench/profile_overhead.sh — what profiling costs a launch (issue 19): bench/launch_overhead.cpp
# built by BASE's driver (a build without profiling, e.g. main's) and by this tree's, run on the
# CPU device (OFFLOAD_DEVICE= empty: the GPU) alternately, ROUNDS times each: BASE, profiling off, OFFLOAD_PROFILE=1,
# OFFLOAD_TRACE=FILE.json. Prints each one's median (ns per launch) over the runs.
# Usage: bench/profile_overhead.sh BASE_BUILD_DIR|BASE_DRIVER [ROUNDS=7] [LAUNCHES=20000]
# ($OFFLOAD_CXX: this tree's driver, if not build/bin/offload-cxx.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:?usage: profile_overhead.sh BASE_BUILD_DIR [ROUNDS] [LAUNCHES]}
rounds=${2:-7}
launches=${3:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base_driver=$base/bin/offload-cxx
[ -f "$base" ] && base_driver=$base
"$base_driver" -O2 "$root/bench/launch_overhead.cpp" -o "$work/base"
"${OFFLOAD_CXX:-$root/build/bin/offload-cxx}" -O2 "$root/bench/launch_overhead.cpp" -o "$work/new"
export OFFLOAD_DEVICE=${OFFLOAD_DEVICE-cpu}  # OFFLOAD_DEVICE= (empty): the default device, a GPU
for ((r = 0; r < rounds; ++r)); do
  "$work/base" "$launches" >>"$work/base.txt"
  "$work/new" "$launches" >>"$work/off.txt"
  OFFLOAD_PROFILE=1 "$work/new" "$launches" >>"$work/profile.txt" 2>/dev/null
  OFFLOAD_TRACE="$work/t.json" "$work/new" "$launches" >>"$work/trace.txt"
done
for run in base off profile trace; do
  python3 - "$run" "$work/$run.txt" <<'PY'
import re, statistics, sys
rows = [re.search(r"empty (\d+) ns, one mapped int (\d+) ns", l).groups() for l in open(sys.argv[2])]
e = statistics.median(int(a) for a, _ in rows)
m = statistics.median(int(b) for _, b in rows)
print("%-8s empty launch %5.0f ns   one mapped int %5.0f ns   (median of %d runs)" % (sys.argv[1], e, m, len(rows)))
PY
done
