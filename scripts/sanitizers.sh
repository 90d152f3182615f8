#!/usr/bin/env bash
# sanitizers.sh — the runtime and its tests under the sanitizers (CI runs it after the tests):
#
#   build-asan  AddressSanitizer + UndefinedBehaviorSanitizer (every finding fatal): the
#               runtime's unit tests (the compiler's too with SANITIZE_COMPILER=1) and a set of
#               e2e programs and examples on the CPU device, the concurrency test included;
#   build-tsan  ThreadSanitizer: the runtime's unit tests, the concurrency test (64 host threads)
#               and the queue/region/fiber programs.
#
# Only the runtime and the unit tests are built in build-asan / build-tsan (OFFLOAD_CXX_SANITIZE);
# the e2e programs are compiled by the ordinary driver, build/bin/offload-cxx (bootstrap.sh builds
# it), with a host-compiler wrapper that adds -fsanitize=... and links the sanitized runtime
# first (-L and -rpath before the driver's own). Prints "N passed, N failed"; exits non-zero if
# anything failed. Usage: scripts/sanitizers.sh [asan] [tsan]   (default: both)
# Logs: build-{asan,tsan}/logs/<test>.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

driver=${OFFLOAD_CXX_DRIVER:-$root/build/bin/offload-cxx}  # the driver that compiles the e2e programs
filecheck=/usr/lib/llvm-22/bin/FileCheck
[ -x "$driver" ] || { echo "sanitizers: $driver is missing: run scripts/bootstrap.sh first" >&2; exit 1; }

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(asan tsan)

passed=0
failed=0
failures=()

# UBSan and ASan abort at the first finding; LeakSanitizer is on (ASan's default).
export ASAN_OPTIONS=abort_on_error=0:halt_on_error=1:detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# check NAME COMMAND...: runs the command (a shell string) with a time limit, logs it, counts it.
check() {
  local name=$1 cmd=$2 log=$logs/$1.log start=$SECONDS
  if timeout 600 bash -c "set -o pipefail; $cmd" >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "  PASS $config/$name ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    failures+=("$config/$name")
    echo "  FAIL $config/$name ($((SECONDS - start)) s): last lines of $log:"
    tail -n 40 "$log" | sed 's/^/    /'
  fi
}

# e2e SOURCE [ARGS [CHECKFILE [PREFIX]]]: compiles SOURCE with the driver and the sanitizing
# host compiler, runs it on the CPU device and FileChecks its output (stdout and stderr).
# $E2E_ENV: more VAR=value settings for the run.
e2e() {
  local src=$1 args=${2:-} checkfile=${3:-$1} prefix=${4:-CHECK}
  local name exe
  name=$(basename "$src" .cpp)
  exe=$dir/e2e/$name
  # --cpu-image=off: the kernels run as the sanitizing host compiler built them (the CPU image,
  # compiled by clang without the sanitizer, would hide their faults); $E2E_CPU_IMAGE=1 keeps it.
  local image_flag=--cpu-image=off
  [ "${E2E_CPU_IMAGE:-0}" = 1 ] && image_flag=--cpu-image=on
  check "$name" "'$driver' -O1 -g $image_flag --host-compiler='$wrapper' '$root/$src' -o '$exe' &&
    env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=3 CONCURRENCY_TIMEOUT=300 ${E2E_ENV:-} '$exe' $args 2>&1 |
    '$filecheck' '$root/$checkfile' --check-prefix=$prefix"
}

for config in "${configs[@]}"; do
  case $config in
    asan) sanitize=address,undefined ;;
    tsan) sanitize=thread ;;
    *) echo "sanitizers: unknown configuration '$config' (asan, tsan)" >&2; exit 2 ;;
  esac
  dir=$root/build-$config
  logs=$dir/logs
  start=$SECONDS
  echo "sanitizers: $config (-fsanitize=$sanitize): building in $dir"
  # The runtime and its tests (the e2e programs below use this runtime). The compiler's unit
  # tests are not built here: under ASan the compiler library was 13 of CI's minutes (2026-12-07);
  # its readers of our files run under ASan + UBSan in scripts/fuzz.sh, and SANITIZE_COMPILER=1
  # builds and runs the unit tests here too.
  targets=(offload-cxx-rt offload-cxx-runtime-tests)
  if [ "$config" = asan ] && [ "${SANITIZE_COMPILER:-0}" = 1 ]; then
    targets+=(offload-cxx-unit-tests)
  fi
  if ! { cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
           -DOFFLOAD_CXX_SANITIZE="$sanitize" >/dev/null &&
         cmake --build "$dir" --target "${targets[@]}" >"$dir/build.log" 2>&1; }; then
    tail -n 40 "$dir/build.log" 2>/dev/null
    failed=$((failed + 1))
    failures+=("$config/build")
    continue
  fi
  echo "sanitizers: $config: built in $((SECONDS - start)) s"
  mkdir -p "$logs" "$dir/e2e"

  # The host compiler for e2e programs: sanitized, and linked against this directory's runtime.
  wrapper=$dir/host-g++
  cat >"$wrapper" <<EOF
#!/bin/sh
# Made by scripts/sanitizers.sh: g++ with -fsanitize=$sanitize, linking $dir/lib's runtime.
exec g++ -fsanitize=$sanitize -fno-omit-frame-pointer -fno-sanitize-recover=all \\
  -L'$dir/lib' -Wl,-rpath,'$dir/lib' "\$@"
EOF
  chmod +x "$wrapper"

  check runtime-unit-tests "'$dir/bin/offload-cxx-runtime-tests' --gtest_brief=1"
  if [ "$config" = asan ]; then
    [ "${SANITIZE_COMPILER:-0}" != 1 ] ||
      check compiler-unit-tests "'$dir/bin/offload-cxx-unit-tests' --gtest_brief=1"
    e2e tests/lit/e2e/concurrency.cpp
    e2e tests/lit/e2e/data_model.cpp
    e2e tests/lit/e2e/atomics_warps.cpp
    e2e tests/lit/e2e/grid3d.cpp
    e2e tests/lit/e2e/two_kernels.cpp
    e2e tests/lit/e2e/runtime_errors.cpp
    e2e tests/lit/e2e/params_as_calls.cpp
    e2e tests/lit/e2e/same_results.cpp
    e2e tests/lit/e2e/struct_of_device_ptrs.cpp
    e2e tests/lit/e2e/warp_reduce_exact.cpp partial
    e2e examples/fill.cpp "" tests/lit/e2e/seed_example.test
    e2e examples/device/matmul.cpp 100 tests/lit/e2e/device_examples.test MM
    e2e examples/device/histogram.cpp "" tests/lit/e2e/device_examples.test HIST
    e2e examples/guide/regions_buffers_queues.cpp "" tests/lit/e2e/guide.test R
  else
    # With the CPU image: the runtime's workgroup-loop path under 64 host threads.
    E2E_CPU_IMAGE=1 e2e tests/lit/e2e/concurrency.cpp
    e2e tests/lit/e2e/data_model.cpp
    e2e tests/lit/e2e/same_results.cpp
    e2e examples/device/matmul.cpp 100 tests/lit/e2e/device_examples.test MM
    # Profiling: four threads launching at once record into one table and trace.
    E2E_ENV="OFFLOAD_PROFILE=1 OFFLOAD_TRACE=$dir/e2e/profile.json" \
      e2e tests/lit/e2e/profile.cpp "" tests/lit/e2e/profile.cpp OUT
  fi
  # The runtime the programs ran with was this directory's (not build/lib's).
  # (grep without -q reads all of ldd's output: with -q it may stop first and ldd die of SIGPIPE,
  # which pipefail counts as a failure — the red CI of stop 45.)
  check linked-runtime "ldd '$dir/e2e/concurrency' | grep -F '$dir/lib/liboffload-cxx-rt.so'"
  echo "sanitizers: $config: done in $((SECONDS - start)) s"
done

echo "sanitizers: $passed passed, $failed failed"
if [ "$failed" -gt 0 ]; then
  printf '  failed: %s\n' "${failures[@]}"
  exit 1
fi
