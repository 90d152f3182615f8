#!/usr/bin/env bash
# bench/gpu_session.sh — one GPU node session's runs from one carried folder (the device tool's
# carry holds 64 MiB: every program shares one offload-cxx bundle, one copy of its libraries).
#
#   bash bench/gpu_session.sh stage DIR [FUZZ_SEEDS]   here: builds and packs DIR (below)
#   bash bench/gpu_session.sh DIR PART...              on the node, PART of:
#     fuzz    the kernel fuzzer's GPU batches against their fibers' hashes (scripts/kernelfuzz-gpu.sh)
#     api     every public launch/copy/wait path against CUDA (bench/api_paths.sh), 5 rounds
#     corpus  the corpus against the nvcc originals (bench/corpus.sh gpu), CORPUS_ROUNDS (3)
#     cpudev  the corpus ports on the CPU device against their OpenMP twins at 1, 2 and 16
#             threads (bench/cpu_device/corpus/run.sh), CPUDEV_ROUNDS (3)
#     newuser the five programs a new user wrote from the guide (bench/cpu_device/newuser) on the
#             CPU device against their OpenMP twins at 1, 2 and 16 threads, CPUDEV_ROUNDS (3)
#     lambda  BabelStream written with parallel_for/parallel_reduce, with OFFLOAD_KERNEL
#             functions, and CUDA's (nvcc), alternately, LAMBDA_ROUNDS (5), 2^25 doubles
#     lambdaports  the corpus's lambda ports (vector-add, matrix-rotate, nbody) and their kernel
#             ports, alternately, 3 rounds
#     badinputs  the bad-input suite's run cases on the GPU (tests/bad-inputs, --run-only --gpu)
#     experiments  the driver-call experiments bench/experiments/{mapped_launch_sequences,
#             d2h_stream_kinds}.cu
#     checks  end-to-end tests (tests/lit/e2e) built for sm_90,host, run on the GPU
#     fuzzopen  the fuzzer's GPU regressions (tests/kernelfuzz/gpu-regressions/ptxas-13.0), built with
#             ptxas -O3 and -O0, against the CPU device's output; their SASS (cuobjdump)
# Logs and tables go to $OUT (else /tmp). Each part is bounded by PART_TIMEOUT seconds (280).
#
# stage: DIR gets bundle.tar.xz (the corpus ports, api_paths, the fuzzer's batches, the CPU
# device's ports and OpenMP twins), the corpus's originals, api_paths_cuda and the scripts.
# FUZZ_SEEDS (FIRST:END, 50 kernels each) builds the fuzzer's batches; KERNELFUZZ_WORK=DIR takes
# batches built before (kernelfuzz.py gpu-build --out DIR) instead.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# stub_unused_libraries (stage only: the copy run on the GPU node has no scripts/ beside it)
[ ! -f "$root/scripts/slim-bundle.sh" ] || source "$root/scripts/slim-bundle.sh"
if [ "${1:-}" = stage ]; then
  set -e
  dir=${2:?usage: gpu_session.sh stage DIR [FUZZ_SEEDS]}
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
  oc=${OFFLOAD_CXX:-$root/build/bin/offload-cxx}
  work=${SESSION_WORK:-$dir.work}
  mkdir -p "$work"
  fuzz=${KERNELFUZZ_WORK:-$work/kernelfuzz}
  if [ -n "${3:-}" ]; then
    python3 "$root/tests/kernelfuzz/kernelfuzz.py" gpu-build --driver "$oc" --archs sm_90,host \
      --seeds "$3" --count 50 --out "$fuzz"
  fi
  extra=()
  if [ -f "$fuzz/programs.txt" ]; then
    mkdir -p "$dir/kernelfuzz"
    while read -r n; do [ -n "$n" ] && extra+=("$fuzz/$n") && cp "$fuzz/$n.expected" "$dir/kernelfuzz/"; done < "$fuzz/programs.txt"
    cp "$fuzz/programs.txt" "$dir/kernelfuzz/"
    cp "$root/scripts/kernelfuzz-gpu.sh" "$dir/kernelfuzz/check.sh"
  fi
  [ -x "$work/api/api_paths" ] || OFFLOAD_CXX=$oc bash "$root/bench/api_paths.sh" build "$work/api"
  mkdir -p "$dir/api" && cp "$work/api/api_paths_cuda" "$dir/api/" && extra+=("$work/api/api_paths")
  cp "$root/bench/api_paths.sh" "$dir/"
  # BabelStream three ways (the lambda part): ours as lambdas and as kernels, CUDA's by nvcc.
  mkdir -p "$dir/lambda"
  "$oc" -O3 --offload-arch=sm_90,host "$root/bench/babelstream_lambda.cpp" -o "$work/babelstream_lambda"
  "$oc" -O3 --offload-arch=sm_90,host "$root/bench/babelstream.cpp" -o "$work/babelstream"
  extra+=("$work/babelstream_lambda" "$work/babelstream")
  # The corpus's lambda ports (issue 33), beside their kernel ports in the corpus part.
  for n in vector-add matrix-rotate nbody; do
    "$oc" -O3 --offload-arch=sm_90,host "$root/tests/corpus/$n/port-lambda.cpp" -o "$work/$n-lambda"
    extra+=("$work/$n-lambda")
  done
  # End-to-end tests that mean most on a GPU (part checks): each prints its verdict last.
  mkdir -p "$work/checks" && : > "$dir/checks.txt"
  for t in wide_values queue_events lambda_kernels struct_of_device_ptrs data_model copies_before_launches buffer_fill lambda_shapes; do
    "$oc" -O2 --offload-arch=sm_90,host "$root/tests/lit/e2e/$t.cpp" -o "$work/checks/$t" && extra+=("$work/checks/$t") &&
      echo "$t" >> "$dir/checks.txt"
  done
  # The bad-input suite's run cases (part badinputs): faults, intact host data, on the GPU.
  mkdir -p "$dir/badinputs" "$work/badinputs"
  "$oc" -O1 --offload-arch=sm_90,host "$root/tests/bad-inputs/run_cases.cpp" -o "$work/badinputs/run_cases"
  extra+=("$work/badinputs/run_cases")
  cp "$root/tests/bad-inputs/bad_inputs.py" "$root/tests/bad-inputs/run_cases.cpp" "$dir/badinputs/"
  # Driver-call experiments (part experiments): bench/experiments/*.cu, by nvcc.
  mkdir -p "$dir/experiments"
  for e in mapped_launch_sequences d2h_stream_kinds; do
    /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 "$root/bench/experiments/$e.cu" -o "$dir/experiments/$e" -lcuda
  done
  # The fuzzer's GPU regressions (tests/kernelfuzz/gpu-regressions/ptxas-13.0): each program as the
  # fuzzer builds it, and again with ptxas at -O0 (a difference between the two is ptxas's).
  open=$root/tests/kernelfuzz/gpu-regressions/ptxas-13.0
  mkdir -p "$dir/fuzzopen" "$work/fuzzopen"
  printf '#!/bin/sh\nfor a; do shift; [ "$a" = -O3 ] && a=-O0; set -- "$@" "$a"; done\nexec %s "$@"\n' \
    "$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)" > "$work/fuzzopen/ptxas-O0"
  chmod +x "$work/fuzzopen/ptxas-O0"
  : > "$dir/fuzzopen/programs.txt"
  for src in "$open"/small-*.cpp "$open"/k*-variables.cpp; do
    n=$(basename "$src" .cpp); seed=$(echo "$n" | grep -o '2[0-9][0-9][0-9][0-9]' | head -1)
    opt=$(python3 -c "import sys; sys.path.insert(0, '$root/tests/kernelfuzz'); import kernelfuzz; print(kernelfuzz.opt_for($seed))")
    "$oc" $opt --offload-arch=sm_90,host --cpu-image=on -w "$src" -o "$work/fuzzopen/$n"
    OFFLOAD_CXX_PTXAS=$work/fuzzopen/ptxas-O0 "$oc" $opt --offload-arch=sm_90,host --cpu-image=on -w \
      "$src" -o "$work/fuzzopen/$n-ptxO0"
    (mkdir -p "$work/fuzzopen/temps-$n" && cd "$work/fuzzopen/temps-$n" &&
      "$oc" $opt --offload-arch=sm_90,host --save-temps -w "$src" -o prog && cp prog.sm_90.cubin "$dir/fuzzopen/$n.cubin")
    OFFLOAD_DEVICE=cpu "$work/fuzzopen/$n" > "$dir/fuzzopen/$n.cpu.txt" 2>&1 || true
    extra+=("$work/fuzzopen/$n" "$work/fuzzopen/$n-ptxO0")
    echo "$n" >> "$dir/fuzzopen/programs.txt"
  done
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 "$root/bench/cuda/babelstream.cu" -o "$dir/lambda/babelstream-cuda"
  [ -d "$work/cpudev" ] || OFFLOAD_CXX=$oc bash "$root/bench/cpu_device/corpus/run.sh" stage "$work/cpudev"
  extra+=("$work/cpudev"/*.port)
  # The new user's programs (issue 31): ports bundled, OpenMP twins static, in newuser.tar.xz.
  [ -d "$work/newuser" ] || OFFLOAD_CXX=$oc bash "$root/bench/cpu_device/newuser/run.sh" stage "$work/newuser"
  extra+=("$work/newuser"/*.port)
  rm -rf "$work/newuser-pack" && mkdir -p "$work/newuser-pack/newuser"
  cp "$work/newuser"/*.omp "$work/newuser/run.sh" "$work/newuser-pack/newuser/"
  tar -C "$work/newuser-pack" -cf - newuser | xz -T2 -6 > "$dir/newuser.tar.xz"
  rm -rf "$work/cpudev-pack" && mkdir -p "$work/cpudev-pack/cpudev"
  cp "$work/cpudev"/*.omp "$root/bench/cpu_device/corpus/run.sh" "$work/cpudev-pack/cpudev/"
  tar -C "$work/cpudev-pack" -cf - cpudev | xz -T2 -6 > "$dir/cpudev.tar.xz"
  session_bundle() {  # bundle PROGRAMS... into $dir/bundle.tar.xz (slim: stub_unused_libraries)
    rm -rf "$work/bundle" && "$oc" bundle "$@" -o "$work/bundle" > /dev/null
    stub_unused_libraries "$work/bundle/lib"
    tar -C "$work" -cf - bundle | xz -T2 -6 > "$dir/bundle.tar.xz"
  }
  if [ -f "$work/corpus/originals.tar.xz" ] && [ -d "$work/corpus-work/bin" ]; then
    # built before (CORPUS_WORK=$work/corpus-work bench/corpus.sh build $work/corpus): bundled
    # again with the programs above
    cp "$work/corpus/originals.tar.xz" "$work/corpus/corpus.sh" "$dir/"
    ports=()  # the corpus's ports, less the programs of this stage built again above
    for p in "$work/corpus-work/bin/"*; do
      again=; for e in "${extra[@]}"; do [ "$(basename "$e")" = "$(basename "$p")" ] && again=1; done
      [ -n "$again" ] || ports+=("$p")
    done
    session_bundle "${ports[@]}" "${extra[@]}"
  else
    CORPUS_WORK=$work/corpus-work CORPUS_EXTRA="${extra[*]}" OFFLOAD_CXX=$oc \
      bash "$root/bench/corpus.sh" build "$dir"
    # corpus.sh packs a user's bundle: slimmed again here to fit the carry (57 MiB unslimmed)
    rm -rf "$work/bundle" && xz -dc "$dir/bundle.tar.xz" | tar -C "$work" -xf -
    stub_unused_libraries "$work/bundle/lib"
    tar -C "$work" -cf - bundle | xz -T2 -6 > "$dir/bundle.tar.xz"
  fi
  cp "$root/bench/gpu_session.sh" "$dir/gpu_session.sh"
  du -sh --apparent-size "$dir"
  exit 0
fi

dir=$(cd "${1:?usage: gpu_session.sh DIR PART...}" && pwd)
shift
log=${OUT:-/tmp}
limit=${PART_TIMEOUT:-280}
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null || true
echo "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
for part in "$@"; do
  start=$SECONDS
  echo "=== $part ($(date -u +%H:%M:%S))"
  case $part in
  fuzz)
    KERNELFUZZ_BUNDLE=$dir/bundle.tar.xz KERNELFUZZ_LOGS=/tmp/kernelfuzz-logs \
      timeout "$limit" bash "$dir/kernelfuzz/check.sh" > "$log/kernelfuzz-gpu.txt" 2>&1
    echo "exit $?"; grep -v '^$' "$log/kernelfuzz-gpu.txt" | tail -15
    ;;
  api)
    API_PATHS_BUNDLE=$dir/bundle.tar.xz timeout "$limit" bash "$dir/api_paths.sh" run "$dir/api" "$log" 2>&1 |
      grep -v '^round '
    ;;
  corpus)
    OUT=$log CORPUS_TIMEOUT=60 timeout "$limit" bash "$dir/corpus.sh" gpu "${CORPUS_ROUNDS:-3}" > "$log/corpus-out.txt" 2>&1
    echo "exit $?"; tail -45 "$log/corpus-out.txt"
    ;;
  cpudev)
    b=/tmp/offload-cxx-cpudev
    rm -rf "$b" && mkdir -p "$b" && xz -dc "$dir/bundle.tar.xz" | tar -C "$b" -xf -
    xz -dc "$dir/cpudev.tar.xz" | tar -C "$b" -xf -  # the OpenMP twins (static) and run.sh
    PREBUILT=$b/bundle/run THREADS=${CPUDEV_THREADS:-1 2 16} ROUNDS=${CPUDEV_ROUNDS:-3} BENCH_OUT=/tmp/cpudev-out \
      timeout "$limit" bash "$b/cpudev/run.sh" 2>&1 | tee "$log/cpudev-table.md"
    ;;
  newuser)
    b=/tmp/offload-cxx-newuser
    rm -rf "$b" && mkdir -p "$b" && xz -dc "$dir/bundle.tar.xz" | tar -C "$b" -xf -
    xz -dc "$dir/newuser.tar.xz" | tar -C "$b" -xf -
    PREBUILT=$b/bundle/run THREADS=${CPUDEV_THREADS:-1 2 16} ROUNDS=${CPUDEV_ROUNDS:-3} \
      timeout "$limit" bash "$b/newuser/run.sh" 2>&1 | tee "$log/newuser-table.md"
    ;;
  lambda)
    b=/tmp/offload-cxx-lambda
    rm -rf "$b" && mkdir -p "$b" && xz -dc "$dir/bundle.tar.xz" | tar -C "$b" -xf -
    for r in $(seq "${LAMBDA_ROUNDS:-5}"); do
      for p in babelstream_lambda babelstream; do
        echo "--- round $r $p"; timeout 60 "$b/bundle/run" $p 25 100 2>&1 | grep -v '^launch\|^h2d\|^d2h'
      done
      echo "--- round $r cuda"; timeout 60 "$dir/lambda/babelstream-cuda" 25 100 2>&1 | head -12
    done 2>&1 | tee "$log/lambda-babelstream.txt"
    ;;
  lambdaports)
    b=/tmp/offload-cxx-lambda
    [ -x "$b/bundle/run" ] || { rm -rf "$b" && mkdir -p "$b" && xz -dc "$dir/bundle.tar.xz" | tar -C "$b" -xf -; }
    for r in 1 2 3; do
      for n in "vector-add 33554432" "matrix-rotate 5000 5" "nbody 6000 10"; do
        set -- $n
        for p in "$1" "$1-lambda"; do
          echo "--- round $r $p $(timeout 60 "$b/bundle/run" "$p" "${@:2}" 2>&1 | grep -E 'time_ms|PASS|FAIL|rror' | tr '\n' ' ')"
        done
      done
    done 2>&1 | tee "$log/lambda-ports.txt"
    ;;
  badinputs)
    b=/tmp/offload-cxx-badinputs
    rm -rf "$b" && mkdir -p "$b" && xz -dc "$dir/bundle.tar.xz" | tar -C "$b" -xf -
    timeout "$limit" python3 "$dir/badinputs/bad_inputs.py" --run-only --bin-dir "$b/bundle/bin" \
      --launcher "$b/bundle/run" --gpu --work /tmp/offload-cxx-bi --verbose > "$log/bad-inputs-gpu.txt" 2>&1
    echo "exit $?"; grep -E "FAIL|gpu-|cpu-fault|intact|passed" "$log/bad-inputs-gpu.txt" | cut -c1-220 | tail -25
    ;;
  experiments)
    for e in mapped_launch_sequences d2h_stream_kinds; do
      echo "--- $e"; timeout 120 "$dir/experiments/$e" 2>&1 | tail -40
    done 2>&1 | tee "$log/experiments.txt"
    ;;
  checks)
    b=/tmp/offload-cxx-checks
    rm -rf "$b" && mkdir -p "$b" && xz -dc "$dir/bundle.tar.xz" | tar -C "$b" -xf -
    while read -r t; do
      echo "--- $t: $(timeout 60 "$b/bundle/run" "$t" > "$log/check-$t.txt" 2>&1; echo "exit $?, $(tail -1 "$log/check-$t.txt")")"
    done < "$dir/checks.txt"
    ;;
  fuzzopen)
    b=/tmp/offload-cxx-fuzzopen
    rm -rf "$b" && mkdir -p "$b" && xz -dc "$dir/bundle.tar.xz" | tar -C "$b" -xf -
    mkdir -p "$log/fuzzopen"
    while read -r n; do
      for v in "$n" "$n-ptxO0"; do timeout 60 "$b/bundle/run" "$v" > "$log/fuzzopen/$v.h200.txt" 2>&1; done
      if cmp -s "$log/fuzzopen/$n.h200.txt" "$dir/fuzzopen/$n.cpu.txt"; then a=same; else a=differs; fi
      if cmp -s "$log/fuzzopen/$n-ptxO0.h200.txt" "$dir/fuzzopen/$n.cpu.txt"; then o=same; else o=differs; fi
      echo "$n: ptxas -O3 $a, ptxas -O0 $o (against the CPU device)"
      cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
      [ -x "$cuobjdump" ] && "$cuobjdump" --dump-sass "$dir/fuzzopen/$n.cubin" > "$log/fuzzopen/$n.sass" 2>&1
    done < "$dir/fuzzopen/programs.txt"
    ;;
  *) echo "unknown part '$part' (fuzz, api, corpus, cpudev, lambda, lambdaports, checks, fuzzopen)" ;;
  esac
  echo "=== $part took $((SECONDS - start)) s"
done
