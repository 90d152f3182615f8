#!/bin/bash
# One file's compile, `offload-cxx -O2 -c F` against `g++ -O2 -c F` with the flags offload-cxx
# gives g++ (-std=c++20, offload's include folder) — issue 18, item 6. The two commands take
# turns, ROUNDS (default 5) rounds; prints each file's medians (s) and their ratio.
#   bash bench/build_one.sh [FILE...]   (default: a kernel file, BabelStream, a file without kernels)
# BEFORE=<another offload-cxx> adds its times as a third command in each round (before/after).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${OFFLOAD_CXX_BIN:-$root/build/bin}
rounds=${ROUNDS:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
inc="-I$root/include -I$root/examples/cmake-project/include"
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$root/examples/fill.cpp" "$root/bench/babelstream.cpp" "$root/examples/cmake-project/src/checks.cpp")
now() { date +%s.%N; }
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
before=${BEFORE:-}
printf '%-28s %10s %10s %7s' file offload-cxx g++ ratio
[ -z "$before" ] || printf ' %10s %7s' before ratio
echo
# Warm: offload-cxx's precompiled headers are built once per set of flags (OffloadPch.h).
for f in "${files[@]}"; do "$bin/offload-cxx" -O2 $inc -c "$f" -o "$out/a.o"; done
for f in "${files[@]}"; do
  : > "$out/o"; : > "$out/g"; : > "$out/b"
  for ((k = 0; k < rounds; k++)); do
    s=$(now); "$bin/offload-cxx" -O2 $inc -c "$f" -o "$out/a.o"; e=$(now)
    echo "$e - $s" | bc >> "$out/o"
    s=$(now); g++ -O2 -std=c++20 $inc -c "$f" -o "$out/b.o"; e=$(now)
    echo "$e - $s" | bc >> "$out/g"
    if [ -n "$before" ]; then
      s=$(now); "$before" -O2 $inc -c "$f" -o "$out/c.o"; e=$(now)
      echo "$e - $s" | bc >> "$out/b"
    fi
  done
  o=$(median < "$out/o"); g=$(median < "$out/g")
  printf '%-28s %10.3f %10.3f %7.2f' "$(basename "$f")" "$o" "$g" "$(echo "$o / $g" | bc -l)"
  if [ -n "$before" ]; then
    b=$(median < "$out/b")
    printf ' %10.3f %7.2f' "$b" "$(echo "$b / $g" | bc -l)"
  fi
  echo
done
