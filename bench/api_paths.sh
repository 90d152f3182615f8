#!/usr/bin/env bash
# bench/api_paths.sh — every public way to launch, copy and wait, offload-cxx against CUDA
# (bench/api_paths.cpp and its twin bench/cuda/api_paths.cu; issue 30, item 1).
#
#   bash bench/api_paths.sh build DIR      here: builds DIR/api_paths (offload-cxx, sm_90 + the
#                                          CPU device), DIR/api_paths_cuda (nvcc) and
#                                          DIR/api_paths-bundle.tar.xz (the offload-cxx program
#                                          as a bundle, for a node that has only the GPU driver)
#   bash bench/api_paths.sh run DIR [LOG]  on the GPU node: runs the two programs in alternating
#                                          rounds (offload-cxx, CUDA, offload-cxx, ...) and prints
#                                          the table; raw rounds and the table go to LOG (default
#                                          $OUT, else DIR)
#   bash bench/api_paths.sh cpu DIR        the offload-cxx program on the CPU device, scaled down
#                                          (a check that it runs, where there is no GPU)
#   bash bench/api_paths.sh table RUNDIR N the table of rounds 1..N saved in RUNDIR
#                                          (offload-R.txt, cuda-R.txt)
#
# On the device machine (DIR ignored by git, e.g. .gpu/api_paths, named in the run's carry):
#   bash bench/api_paths.sh build .gpu/api_paths
#   run: bash bench/api_paths.sh run .gpu/api_paths       carry: [".gpu/api_paths"]
#
# Environment: API_PATHS_ROUNDS (5), API_PATHS_SCALE (1: repetition counts, bench/api_paths.cpp),
# API_PATHS_BUNDLE (run: another bundle.tar.xz whose bundle/bin holds api_paths),
# OFFLOAD_CXX (default: build/bin/offload-cxx of this checkout), NVCC (default
# $CUDA_PATH/bin/nvcc, /usr/local/cuda), OFFLOAD_GPU_ARCH (sm_90: both builds).
# Every value is a median of many repetitions within a run; the table gives the median over the
# rounds of each program, and the median of the rounds' ratios offload-cxx / CUDA (time per
# operation: below 1 is faster than CUDA).
set -euo pipefail
usage="usage: api_paths.sh build DIR | run DIR [LOG] | cpu DIR | table RUNDIR ROUNDS"
mode=${1:?$usage}
here=$(cd "$(dirname "$0")" && pwd)

table() {  # RUNDIR ROUNDS
  python3 - "$1" "$2" <<'PY'
import statistics, sys
rundir, rounds = sys.argv[1], int(sys.argv[2])
def read(path):
    rows, notes = {}, []
    for line in open(path):
        if line.startswith("#"):
            notes.append(line.rstrip())
            continue
        parts = line.split()
        if len(parts) == 2:
            rows[parts[0]] = float(parts[1])
    return rows, notes
O = [read(f"{rundir}/offload-{r}.txt") for r in range(1, rounds + 1)]
C = [read(f"{rundir}/cuda-{r}.txt") for r in range(1, rounds + 1)]
for note in O[0][1] + C[0][1]:
    print(note)
names = list(O[0][0]) + [n for n in C[0][0] if n not in O[0][0]]
print(f"\n{rounds} rounds, alternating; us per operation; each program's value is the median over "
      "rounds, the ratio the median of the rounds' ratios (offload-cxx / CUDA: below 1 is faster)")
print("| row | offload-cxx (us) | CUDA (us) | ratio offload/CUDA | rounds' ratios |")
print("|---|---|---|---|---|")
for name in names:
    o = [rows[name] for rows, _ in O if name in rows]
    c = [rows[name] for rows, _ in C if name in rows]
    if len(o) != rounds or len(c) != rounds:
        print(f"| {name} | {statistics.median(o) if o else float('nan'):.2f} | "
              f"{statistics.median(c) if c else float('nan'):.2f} | missing in a round | |")
        continue
    ratios = [a / b for a, b in zip(o, c)]
    spread = " ".join(f"{x:.2f}" for x in ratios)
    print(f"| {name} | {statistics.median(o):.2f} | {statistics.median(c):.2f} | "
          f"{statistics.median(ratios):.3f} | {spread} |")
PY
}

case "$mode" in
build)
  dir=${2:?$usage}
  root=$(cd "$here/.." && pwd)
  oc=${OFFLOAD_CXX:-$root/build/bin/offload-cxx}
  nvcc=${NVCC:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
  arch=${OFFLOAD_GPU_ARCH:-sm_90}
  mkdir -p "$dir"
  "$oc" -O2 --offload-arch="$arch",host "$root/bench/api_paths.cpp" -o "$dir/api_paths"
  "$nvcc" -O2 -arch="$arch" "$root/bench/cuda/api_paths.cu" -o "$dir/api_paths_cuda"
  # The node has only the GPU driver: the offload-cxx program travels as a bundle (the program,
  # its runtime, liboffload, libLLVM, libstdc++), packed to fit the device tool's carry.
  rm -rf "$dir/bundle-work" && mkdir -p "$dir/bundle-work"
  "$oc" bundle "$dir/api_paths" -o "$dir/bundle-work/bundle" >/dev/null
  tar -C "$dir/bundle-work" -cf - bundle | xz -T2 -4 > "$dir/api_paths-bundle.tar.xz"
  rm -rf "$dir/bundle-work"
  ls -l "$dir"
  ;;
cpu)
  dir=${2:?$usage}
  OFFLOAD_DEVICE=cpu "$dir/api_paths" "${API_PATHS_SCALE:-0.01}"
  ;;
run)
  dir=$(cd "${2:?$usage}" && pwd)
  log=${3:-${OUT:-$dir}}
  mkdir -p "$log"
  rounds=${API_PATHS_ROUNDS:-5}
  scale=${API_PATHS_SCALE:-1}
  work=$(mktemp -d /tmp/api_paths.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  # The bundle of `build`, or another offload-cxx bundle holding bin/api_paths (one carry for
  # several runs: API_PATHS_BUNDLE=.gpu/bundle.tar.xz, a tar.xz of a folder named bundle).
  bundle=${API_PATHS_BUNDLE:-$dir/api_paths-bundle.tar.xz}
  if [ -f "$bundle" ]; then
    xz -dc "$bundle" | tar -C "$work" -xf -
    offload=("$work/bundle/run" api_paths)
  else
    offload=("$dir/api_paths")  # where the program's libraries are installed
  fi
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
  # Rounds alternate the two programs, so that drift of the machine reaches both.
  for r in $(seq 1 "$rounds"); do
    if ! "${offload[@]}" "$scale" > "$work/offload-$r.txt"; then
      echo "api_paths.sh: the offload-cxx program failed in round $r; its output:"
      cat "$work/offload-$r.txt"
      exit 1
    fi
    if ! "$dir/api_paths_cuda" "$scale" > "$work/cuda-$r.txt"; then
      echo "api_paths.sh: the CUDA program failed in round $r; its output:"
      cat "$work/cuda-$r.txt"
      exit 1
    fi
    echo "round $r of $rounds done"
  done
  for prog in offload cuda; do  # every round's raw output, one file per program
    for r in $(seq 1 "$rounds"); do echo "# round $r"; cat "$work/$prog-$r.txt"; done \
      > "$log/api_paths-$prog-rounds.txt"
  done
  # The shapes offload-cxx chose for its saxpy launches (range rows: the occupancy calculator's
  # choice, which the CUDA program prints for its own kernel), from one short run.
  OFFLOAD_INFO=1 "${offload[@]}" 0.0001 2>&1 >/dev/null | grep 'launching kernel saxpy' |
    sed -E 's/^offload-cxx info: launching kernel /# offload-cxx shape: /' | sort -u || true
  table "$work" "$rounds" | tee "$log/api_paths-table.md"
  ;;
table)
  table "${2:?$usage}" "${3:?$usage}"
  ;;
*)
  echo "$usage" >&2
  exit 2
  ;;
esac
