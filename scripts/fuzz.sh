#!/usr/bin/env bash
# fuzz.sh — builds the libFuzzer targets of tests/fuzz (clang++-22, -fsanitize=fuzzer,address,
# undefined; in build-fuzz) and runs each for FUZZ_SECONDS seconds (default 30) from the seed
# corpus in tests/fuzz/corpus/<target>. New inputs go to build-fuzz/corpus/<target> (the tree's
# corpus is only read); a crash, a sanitizer finding or a failed round-trip check stops the run,
# leaves the input in build-fuzz/artifacts/ and makes this script fail.
# Usage: scripts/fuzz.sh [target...]   (targets: manifest device-image object; default all)
# Reproduce a finding: build-fuzz/bin/fuzz-<target> build-fuzz/artifacts/<target>-crash-...
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${FUZZ_SECONDS:-30}
dir=$root/build-fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(manifest device-image object)

start=$SECONDS
mkdir -p "$dir"
if ! { cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DCMAKE_CXX_COMPILER=clang++-22 -DOFFLOAD_CXX_BUILD_TESTS=OFF -DOFFLOAD_CXX_FUZZ=ON \
         >"$dir/configure.log" 2>&1 &&
       cmake --build "$dir" --target "${targets[@]/#/fuzz-}" >"$dir/build.log" 2>&1; }; then
  tail -n 40 "$dir/configure.log" "$dir/build.log" 2>/dev/null
  echo "fuzz: the build failed"
  exit 1
fi
echo "fuzz: built in $((SECONDS - start)) s"

failed=0
for t in "${targets[@]}"; do
  mkdir -p "$dir/corpus/$t" "$dir/artifacts"
  log=$dir/fuzz-$t.log
  if "$dir/bin/fuzz-$t" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
       -rss_limit_mb=2048 -artifact_prefix="$dir/artifacts/$t-" \
       "$dir/corpus/$t" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    echo "fuzz: $t: ok, ${runs:-?} inputs in $seconds s (${cov:-cov: ?}, corpus $(ls "$dir/corpus/$t" | wc -l) new)"
  else
    failed=$((failed + 1))
    echo "fuzz: $t: FAILED; last lines of $log:"
    tail -n 60 "$log" | sed 's/^/    /'
  fi
done
[ "$failed" -eq 0 ] || exit 1
