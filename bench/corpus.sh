#!/usr/bin/env bash
# bench/corpus.sh — each program of tests/corpus against its original CUDA program, on one GPU.
#   bash bench/corpus.sh build OUTDIR   (here, no GPU: builds the ports with offload-cxx for
#                                        sm_90 + host and packs them as an offload-cxx bundle
#                                        (bundle.tar.xz), builds the originals with nvcc, copies
#                                        this script; OUTDIR is what the GPU node needs, e.g.
#                                        .gpu/corpus, carried alone)
#   bash OUTDIR/corpus.sh gpu [ROUNDS]  (on the GPU node, driver only: ROUNDS rounds (7), each
#                                        running every original and its port, the order
#                                        alternating; prints a markdown table of medians)
# The gpu mode writes corpus-table.md, corpus-raw.tsv (every run's figure) and corpus-log.txt
# (every run's output) to $OUT if set, else /tmp. Environment for testing and selection:
#   CORPUS_ONLY="a b"        only these programs
#   CORPUS_SMALL=1           the ports' default (small) arguments, e.g. with OFFLOAD_DEVICE=cpu
#   CORPUS_FAKE_ORIGINAL=CMD run "CMD NAME ARGS..." instead of each original (a stub printing
#                            the original's output, e.g. bench/corpus/fake-original.sh)
#   CORPUS_TIMEOUT=S         seconds allowed to one run (180)
#   CORPUS_WORK=DIR          (build) build in DIR and keep it (DIR/bin: the ports), not in a
#                            temporary folder
#   CORPUS_EXTRA="p1 p2"     (build) more programs to put in the bundle, run on the node as
#                            /tmp/offload-cxx-corpus/bundle/run NAME after the gpu mode
#   CORPUS_EAGER=1           CUDA_MODULE_LOADING=EAGER for the originals (CUDA loads kernels
#                            lazily by default, at the first launch, inside some timed regions)
set -euo pipefail

# --- The table -----------------------------------------------------------------------------
# corpus NAME PORT_ARGS ORIGINAL_ARGS ORIGINAL_MS NOTE [key=value...]
#   ORIGINAL_MS: an awk program over the original's output that prints its time in ms (the
#     awk variable `args` holds ORIGINAL_ARGS, split(args, a) gives its words); nothing printed
#     means the time could not be read.
#   NOTE: where the two programs time different regions or take different arguments ("" if
#     they time the same thing).
#   keys: port_ms=AWK  the port's time in ms (default: the number after "time_ms:")
#         prep=SH      run in the original's build folder (a copy of tests/corpus/NAME, with
#                      $sup = bench/corpus) before `nvcc -O3 -arch=sm_90 -I. SRCS`
#         srcs=FILES   the files nvcc compiles and links, in the build folder after prep (default
#                      ./*.cu); .c and .cpp files go to the host compiler as nvcc sends them
#         setup=SH     run once on the node before the rounds ($tools, $data: folders)
#         orig_ok=AWK  prints "yes" when the original's output shows its check passed (default:
#                      it prints PASS or Passed, and neither FAIL nor Failed)
#   @DATA@ in ORIGINAL_ARGS is the node's data folder.
# The arguments: the original's default or its HeCBench Makefile `run` arguments where a run
# takes seconds at most; smaller where the two programs' host-side checks (serial, and the same
# in both) would take tens of seconds (the note says so). All of it, 2 x 7 rounds, must stay
# within about 6 minutes on the node (the table's last lines give each program's wall time).
# The sixteen Rodinia programs (rodinia-*, after the others) were sized without a GPU run (none
# was lent when they were added): each run is meant to take a few seconds, mostly host work
# (reading inputs, host checks), so 16 x 2 x 7 runs add several minutes. Run them apart from the
# others when a run must stay within one 10-minute command:
#   CORPUS_ONLY="$(cd tests/corpus && echo rodinia-*)" bash OUTDIR/corpus.sh gpu 7
names=()
declare -A P_ARGS O_ARGS O_MS NOTE PORT_MS PREP SRCS SETUP ORIG_OK
corpus() {
  local n=$1; names+=("$n"); P_ARGS[$n]=$2; O_ARGS[$n]=$3; O_MS[$n]=$4; NOTE[$n]=$5; shift 5
  PORT_MS[$n]='/^time_ms:/{print $2; exit}'; PREP[$n]=""; SRCS[$n]="./*.cu"; SETUP[$n]=""; ORIG_OK[$n]=""
  local kv; for kv in "$@"; do
    case "$kv" in
      port_ms=*) PORT_MS[$n]=${kv#port_ms=} ;;
      prep=*) PREP[$n]=${kv#prep=} ;;
      srcs=*) SRCS[$n]=${kv#srcs=} ;;
      setup=*) SETUP[$n]=${kv#setup=} ;;
      orig_ok=*) ORIG_OK[$n]=${kv#orig_ok=} ;;
      *) echo "corpus.sh: bad key '$kv' for $n" >&2; exit 2 ;;
    esac
  done
}

# rodinia [DIR/FILE...]: the prep of Rodinia 3.1's originals (tests/corpus/rodinia-*): nvcc puts
# bench/corpus/rodinia/cuda13.h (what CUDA 13 removed) before each file, and each original-FILE
# of a program of several files is copied to FILE, then moved to DIR/FILE where named (Rodinia
# includes some files by path).
rodinia() {
  export NVCC_PREPEND_FLAGS="-include $sup/rodinia/cuda13.h"
  local f; for f in original-*; do if [ -e "$f" ]; then cp "$f" "${f#original-}"; fi; done
  local p; for p in "$@"; do mkdir -p "$(dirname "$p")" && mv "$(basename "$p")" "$p"; done
}

corpus vector-add "33554432" "33554432" \
  '/^Kernel time:/{print $3}' \
  "the original (cuda-samples vectorAdd) has no timer and a fixed size: built with bench/corpus/vector-add/timed.patch, which takes the size as argv[1] and puts cudaEvents around the one launch, as the port does; one launch of 400 MB of traffic, so about 0.1 ms: the two programs' first-launch costs show" \
  'prep=patch -s original.cu < "$sup/vector-add/timed.patch" && cp "$root"/tests/corpus/matrix-mul/original-common/*.h .'

corpus stencil1d "67108864 100" "67108864 100" \
  '/^Average kernel execution time:/{print $5 * 1000}' \
  "per-kernel average over 100 launches; the original: steady_clock around the launches and cudaDeviceSynchronize (host time), the port: events (device time); 2^26 (the port's suggested GPU size) and repeat 100, not the Makefile's 2^27 and 1000 (the host's check of 2^27 takes seconds)"

corpus jacobi "256" "" \
  '/^Average execution time per iteration:/{print $6 * 1000}' \
  "ms per iteration (one jacobi_step + error read-back; both wall clock); N = 256 in both (6810 iterations): the original's '#define N 2048' is changed by sed at build time, because the port's serial host reference of 9602 steps of 2048^2 would take ~40 s per run (at N = 512, 2.5 s); at these sizes an iteration is mostly launch, memset/zeroing kernel and 4-byte read-back" \
  'port_ms=/^time_ms:/{it = $3; gsub(/[^0-9]/, "", it); if (it > 0) print $2 / it; exit}' \
  'prep=sed -i "s/^#define N 2048$/#define N 256/" original.cu && grep -q "^#define N 256$" original.cu'

corpus scan "2097152 100" "2097152 100" \
  'BEGIN{split(args, a)} /Average execution time of scan/{for (i = 2; i <= NF; i++) if ($i ~ /^\(us\)/) {t += $(i - 1); c++}} END{if (c == 40) print t * a[2] / 1000}' \
  "sum over the 40 kernels (4 types x 5 block sizes x 2 variants) of 100 launches each; the original: steady_clock per kernel (per-launch average x repeat), the port: events; 2^21 elements, not the Makefile's 2^28, which would need minutes of host work (40 inits and checks, twice in the original)"

corpus atomic-reduction "52428800 100" "52428800 100" \
  'BEGIN{split(args, a)} /average performance of reduction is/{for (i = 1; i <= NF; i++) if ($i == "GBytes/sec") bw = $(i - 1); if (bw > 0) {t += a[1] * 4.0 * a[2] / (bw * 1e6); c++}} END{if (c == 20) print t}' \
  "sum over the 20 benchmarks of 100 x (zero the sum + reduce); the original prints GB/s only (converted back: bytes x repeat / bandwidth, 6 significant digits); the original: steady_clock, cudaMemset; the port: events, a one-work-item zeroing kernel" \
  'prep=cp original-kernels.h kernels.h'

corpus matrix-rotate "5000 5" "5000 5" \
  '/^Average kernel execution time:/{print $5 * 1000}' \
  "per-kernel average; the original: steady_clock + cudaDeviceSynchronize, the port: events; repeat 5, not the Makefile's 100: both rotate serially on the host repeat times to check"

corpus bitonic-sort "22 123" "22 123" \
  '/^Total kernel execution time:/{print $5}' \
  "all 253 launches; the original: steady_clock (its first launch may load the module, CUDA loads lazily), the port: events; 2^22, not the Makefile's 2^25: both sort serially on the host to check (2^23: ~6 s each)"

corpus bfs "1000000" "@DATA@/bfs-1000000.txt" \
  '/^Total kernel execution time :/{print $6 / 1000}' \
  "the port generates its graph (1M nodes, the size of Rodinia's graph1MW_6); the original reads the same graph, written in Rodinia's format by bench/corpus/bfs/graphgen.c; both sum per-level times (2 kernels a level), the original steady_clock around cudaDeviceSynchronize, the port events; a few ms at most" \
  'prep=cp "$sup/bfs/util.h" .' \
  'setup="$tools/graphgen" 1000000 "$data/bfs-1000000.txt"'

corpus nbody "6000 10" "6000 10" \
  '/^# Total Time \(s\)/{print $NF * 1000}' \
  "the original: steady_clock over all steps, including each step's 4-byte energy read-back and host loop; the port: the sum of each step's events around its 3 kernels; 6000 particles, not the Makefile's 16000: both check with a serial host simulation (O(n^2) a step)" \
  'prep=cp original-kernels.hpp GSimulationKernels.hpp && cp "$sup"/nbody/*.hpp "$sup/nbody/main.cu" .'

# Added with tests/corpus/*/SOURCE.md's "Bench:" and "Original time:" lines.
corpus bincount "10000000 10" "10000000 10" \
  '/^Average execution time of bincount kernel:/{t += $7; c++} END{if (c == 11) print t / 1000}' \
  "sum of the 11 per-kernel averages (6 bin counts with global atomics, 5 with shared atomics); both steady_clock around 10 launches and a wait; repeat 10, not the Makefile's 100: both programs' host references loop repeat times over the input for each bin count" \
  'prep=cp original-reference.h reference.h'

corpus simple-spmv "2684354 4096 100" "2684354 4096 100" \
  '/^Average dense, sparse, and vector sparse kernel execution time \(ms\):/{for (i = NF - 2; i <= NF; i++) {t += $i; c++}} END{if (c == 18) print t}' \
  "sum of the 18 per-kernel averages (dense, CSR, vector CSR x 6 workgroup sizes); both steady_clock; 4096 rows at the Makefile's density (16% non-zeros), not its 10240: both build the dense matrix on the host; the original prints error rates, no PASS: checked here as the port checks (every rate <= 1e-5)" \
  'prep=cp original-utils.cpp utils.cu && cp original-mv.h mv.h' \
  'orig_ok=/^Error rate:/{for (i = 3; i <= NF; i++) {if (!($i <= 1e-5)) bad++}; c++} END{print (c == 6 && !bad) ? "yes" : "no"}'

corpus softmax "100000 784 1 100" "100000 784 1 100" \
  '/^Average kernel execution time:/{print $5; exit}' \
  "implementation 1 (softMax2, a warp per slice); both steady_clock around 100 launches (per-launch average)"

corpus matrix-mul "-wA=1024 -hA=1024 -wB=1024 -hB=1024 -iter=300" "-wA=1024 -hA=1024 -wB=1024 -hB=1024" \
  '/^Performance=/{for (i = 1; i < NF; i++) if ($i == "Time=") {print $(i + 1); exit}}' \
  "per-launch average over 300 launches (events in both); the original's 300 is fixed, the port takes -iter=300; the original prints the time with 3 decimals (ms); built with cuda-samples' Common headers (tests/corpus/matrix-mul/original-common)" \
  'prep=cp "$root"/tests/corpus/matrix-mul/original-common/*.h .'

# Rodinia 3.1 (tests/corpus/rodinia-*, from yuhc/gpu-rodinia at 31d0ebf5, the suite as released).
# Where an original prints no time, its original.cu has timing lines marked "[offload-cxx corpus]";
# where it reads input files, setup= writes the data its port generates (bench/corpus/rodinia/inputs.c).
corpus rodinia-gaussian "1024" "-s 1024 -q" \
  '/^Time for CUDA kernels:/{print $5 * 1000}' \
  "the 2 x 1023 launches of the forward elimination, each followed by a device synchronize (the original's cudaThreadSynchronize); both gettimeofday" \
  'prep=rodinia && sed -i "/clockRate\|deviceOverlap/d" original.cu' \
  'orig_ok=/^Time for CUDA kernels:/{t = 1} END{print t ? "yes" : "no"}'

corpus rodinia-hotspot "1024 2 1000" "1024 2 1000 @DATA@/hotspot-temp-1024 @DATA@/hotspot-power-1024 /dev/null" \
  '/^Kernel time:/{print $3}' \
  "the 500 launches (2 steps each) and a synchronize; both gettimeofday, the original's timing lines added (it prints no time); its input files hold the data the port generates; 1024, Rodinia's largest input: at 2048 its explicit scheme is unstable (NaN on the host as on the H200, 2026-12-05)" \
  'prep=rodinia' \
  'setup="$tools/rodinia-inputs" hotspot 1024 "$data/hotspot-temp-1024" "$data/hotspot-power-1024"' \
  'orig_ok=/^Kernel time:/{t = 1} END{print t ? "yes" : "no"}'

corpus rodinia-pathfinder "1000000 200 20" "1000000 200 20" \
  '/^Kernel time:/{print $3}' \
  "the 10 launches (20 rows each) and a synchronize; both gettimeofday, the original's timing lines added (it prints no time); BENCH_PRINT (printing the whole grid) undefined by sed at build time" \
  'prep=rodinia && sed -i "s|^#define BENCH_PRINT|// #define BENCH_PRINT|" original.cu' \
  'orig_ok=/^Kernel time:/{t = 1} END{print t ? "yes" : "no"}'

corpus rodinia-nw "8192 10" "8192 10" \
  '/^Kernel time:/{print $3}' \
  "the 1023 launches (one per diagonal of 16x16 tiles) and a synchronize; both gettimeofday, the original's timing lines added (it prints no time); 8192, not the run script's 2048 (a few ms)" \
  'prep=rodinia' 'srcs=./original.cu' \
  'orig_ok=/^Kernel time:/{t = 1} END{print t ? "yes" : "no"}'

corpus rodinia-srad-v2 "4096 4096 0 127 0 127 0.5 10" "4096 4096 0 127 0 127 0.5 10" \
  '/^Main loop time:/{print $4}' \
  "the 10 iterations of the main loop (host sum over the region of interest, image copied in, 2 launches, image copied back: 64 MiB each way); both gettimeofday, the original's timing lines added (it prints no time)" \
  'prep=rodinia' 'srcs=./original.cu' \
  'orig_ok=/^Main loop time:/{t = 1} END{print t ? "yes" : "no"}'

corpus rodinia-backprop "1048560" "1048560" \
  '/^Training time:/{print $3}' \
  "from the first copy to the device to the last copy back (2 launches, 71 MiB of weights copied in twice and back once, the host's part between them); both gettimeofday, the original's timing lines added (it prints no time); 1048560 inputs (65535 workgroups in y, the most a grid allows), not the run script's 65536" \
  'prep=rodinia' 'srcs=./original.cu ./backprop.c ./facetrain.c ./imagenet.c' \
  'orig_ok=/^Training time:/{t = 1} END{print t ? "yes" : "no"}'

corpus rodinia-lud "4096" "-s 4096" \
  '/^Time consumed\(ms\):/{print $3}' \
  "the original's own stopwatch: copy in, 3 x 255 + 1 launches, copy back (gettimeofday in both); the original without -v (its O(n^3) host check prints no verdict): checked by its time line and no 'dismatch' line" \
  'prep=rodinia' 'srcs=./original.cu ./lud_kernel.cu ./common.c' \
  'orig_ok=/^Time consumed/{t = 1} /dismatch/{bad = 1} END{print (t && !bad) ? "yes" : "no"}'

corpus rodinia-nn "4000000 5 30 90" "@DATA@/nn-filelist -r 5 -lat 30 -lng 90" \
  '/^Device time:/{print $3}' \
  "copy in (32 MB), one launch, synchronize, copy back; both gettimeofday, the original's timing lines added (it prints no time); the original reads the 4,000,000 records the port generates (written by rodinia-inputs) and prints no PASS: checked by its time and its 5 results" \
  'prep=rodinia' \
  'setup="$tools/rodinia-inputs" nn 4000000 4 "$data"' \
  'orig_ok=/Distance=/{c++} /^Device time:/{t = 1} END{print (t && c == 5) ? "yes" : "no"}'

corpus rodinia-hotspot3d "1024 8 100" "1024 8 100 @DATA@/hotspot3d-power-1024 @DATA@/hotspot3d-temp-1024 /dev/null" \
  '/^Kernel time:/{print $3}' \
  "the 100 launches and a synchronize (the original's own get_time(), printed with more digits by one added line); the original reads the input the port generates (written by rodinia-inputs) and prints no PASS: checked by its Accuracy (RMS difference from its host reference) below 1e-2" \
  'prep=rodinia' 'srcs=./original.cu' \
  'setup="$tools/rodinia-inputs" hotspot3d 1024 8 "$data/hotspot3d-power-1024" "$data/hotspot3d-temp-1024"' \
  'orig_ok=/^Accuracy:/{a = $2; seen = 1} END{print (seen && a + 0 < 1e-2) ? "yes" : "no"}'

corpus rodinia-bfs "1000000" "@DATA@/bfs-1000000.txt" \
  '/^Traversal time:/{print $3}' \
  "the traversal loop (per level: a 1-byte copy in, 2 launches, a 1-byte copy back); both gettimeofday, the original's timing lines added (it prints no time); the original reads the graph the port generates (graphgen, as for bfs), writes result.txt where it runs and prints no PASS: checked by its time and its level count" \
  'prep=rodinia' 'srcs=./original.cu' \
  'setup=[ -f "$data/bfs-1000000.txt" ] || "$tools/graphgen" 1000000 "$data/bfs-1000000.txt"' \
  'orig_ok=/^Kernel Executed/{k = 1} /^Traversal time:/{t = 1} END{print (k && t) ? "yes" : "no"}'

corpus rodinia-lavamd "30" "-boxes1d 30" \
  '/: GPU: KERNEL$/{print $1 * 1000}' \
  "the original's own \"GPU: KERNEL\" stage (gettimeofday around the launch and a synchronize), printed in s with 12 decimals; its input is time-seeded random (the port's: srand(7)) and unchecked: checked by its stages" \
  'prep=rodinia kernel/kernel_gpu_cuda.cu kernel/kernel_gpu_cuda_wrapper.cu kernel/kernel_gpu_cuda_wrapper.h util/device/device.cu util/device/device.h util/num/num.c util/num/num.h util/timer/timer.c util/timer/timer.h' \
  'srcs=./main.c kernel/kernel_gpu_cuda_wrapper.cu util/device/device.cu util/num/num.c util/timer/timer.c' \
  'orig_ok=/: GPU: KERNEL$/{k = 1} /^Total time:/{t = 1} END{print (k && t) ? "yes" : "no"}'

corpus rodinia-particlefilter "-x 128 -y 128 -z 10 -np 20000" "-x 128 -y 128 -z 10 -np 20000" \
  '/^GPU Execution:/{print $3 * 1000}' \
  "the original's own \"GPU Execution\" (9 frames of 4 launches and a synchronize; gettimeofday in both, printed in s with 6 decimals); the original seeds from the clock and prints no PASS: checked by its time line" \
  'prep=rodinia' \
  'orig_ok=/^GPU Execution:/{t = 1} END{print t ? "yes" : "no"}'

corpus rodinia-srad-v1 "100 0.5 2048 2048" "100 0.5 2048 2048" \
  '/: COMPUTE$/{print $1 * 1000}' \
  "the original's own COMPUTE stage (100 iterations of prepare + 3 reduce passes + 2 x 4-byte copies back + srad + srad2; gettimeofday in both); the original's image path is replaced by sed (it reads the image the port generates, written by rodinia-inputs); it writes image_out.pgm where it runs and prints no PASS: checked by its stages" \
  'prep=rodinia && sed -i "s|\"../../../data/srad/image.pgm\"|\"/tmp/offload-cxx-corpus/data/srad-image.pgm\"|" original.cu && grep -q /tmp/offload-cxx-corpus/data/srad-image.pgm original.cu' \
  'srcs=./original.cu' \
  'setup="$tools/rodinia-inputs" srad "$data/srad-image.pgm"' \
  'orig_ok=/: COMPUTE$/{c = 1} /^Total time:/{t = 1} END{print (c && t) ? "yes" : "no"}'

corpus rodinia-cfd "384 256 2000" "@DATA@/cfd-mesh-384x256" \
  '/seconds per iteration$/{print $1 * 1000 * 2000}' \
  "2000 iterations (copy + 1 + 3 x 2 launches each) and a synchronize; the original's StopWatch (cuda-samples) per iteration, times 2000, the port's gettimeofday; the original reads the mesh the port generates (written by rodinia-inputs), writes 3 files where it runs and prints no PASS: checked by its time line and Done" \
  'prep=rodinia && cp "$root"/tests/corpus/matrix-mul/original-common/*.h .' \
  'setup="$tools/rodinia-inputs" cfd 384 256 "$data/cfd-mesh-384x256"' \
  'orig_ok=/seconds per iteration$/{t = 1} /^Done/{d = 1} END{print (t && d) ? "yes" : "no"}'

corpus rodinia-streamcluster "10 20 128 32768 32768 1000 none /dev/null 1" "10 20 128 32768 32768 1000 none /dev/null 1" \
  '/^time kernel =/{print $4 * 1000}' \
  "the sum of pgain's kernel regions (~1,600 launches, each waited for): the original's cudaEvents on stream 0, the port's events of a queue (device time in both); 32768 points of 128 dimensions, not the run script's 65536 of 256 (tens of seconds of host work per run in both); the original prints no PASS: checked by its total time line" \
  'prep=rodinia' 'srcs=./streamcluster_cuda_cpu.cpp ./original.cu ./streamcluster_header.cu' \
  'orig_ok=/^time = /{t = 1} END{print t ? "yes" : "no"}'

corpus rodinia-kmeans "494020 34 5" "-o -i @DATA@/kmeans-494020" \
  '/^Clustering time:/{print $3}' \
  "cluster(): allocations, transpose, and per iteration the copies in, 1 launch, the copy back and the host's update; both gettimeofday, the original's timing lines added (it prints no time); the original reads the points the port generates (written by rodinia-inputs, the size of kdd_cup), is patched to build with CUDA 13 (texture references and a symbol name removed: bench/corpus/rodinia/kmeans-cuda12.patch) and prints no PASS: checked by its time and iteration count" \
  'prep=rodinia && patch -s -p0 < "$sup/rodinia/kmeans-cuda12.patch"' \
  'srcs=./original.cu ./kmeans.c ./cluster.c ./kmeans_clustering.c ./rmse.c ./getopt.c' \
  'setup="$tools/rodinia-inputs" kmeans 494020 34 "$data/kmeans-494020"' \
  'orig_ok=/^Clustering time:/{t = 1} /^iterated [0-9]+ times/{i = 1} END{print (t && i) ? "yes" : "no"}'

# --- Build (here) --------------------------------------------------------------------------
mode=${1:?usage: corpus.sh build OUTDIR | corpus.sh gpu [ROUNDS]}
here=$(cd "$(dirname "$0")" && pwd)
selected=("${names[@]}")
if [ -n "${CORPUS_ONLY:-}" ]; then
  selected=()
  for n in $CORPUS_ONLY; do
    if [ -n "${O_MS[$n]+set}" ]; then selected+=("$n"); else echo "corpus.sh: '$n' is not in the table, left out" >&2; fi
  done
fi

if [ "$mode" = build ]; then
  root=${CORPUS_ROOT:-$(cd "$here/.." && pwd)}  # the repository
  out=${2:?usage: corpus.sh build OUTDIR}
  mkdir -p "$out" && out=$(cd "$out" && pwd)
  oc=${OFFLOAD_CXX:-$root/build/bin/offload-cxx}  # the driver
  nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
  sup=$root/bench/corpus
  if [ -n "${CORPUS_WORK:-}" ]; then  # kept: bin/ for a bundle made with other programs
    work=$CORPUS_WORK && rm -rf "$work" && mkdir -p "$work"
  else
    work=$(mktemp -d /tmp/offload-cxx-corpus-build.XXXXXX)
    trap 'rm -rf "$work"' EXIT
  fi
  rm -rf "$out/originals" "$out/tools" "$out/bundle.tar.xz" "$out/originals.tar.xz"
  mkdir -p "$work/bin" "$work/originals" "$work/tools"
  : > "$out/build-status.txt"
  failed=0
  for n in "${selected[@]}"; do  # serially: the build machine is small
    [ -f "$root/tests/corpus/$n/port.cpp" ] || { echo "$n: no tests/corpus/$n" | tee -a "$out/build-status.txt"; failed=1; continue; }
    s=$(date +%s)
    if "$oc" -O3 --offload-arch=sm_90,host "$root/tests/corpus/$n/port.cpp" -o "$work/bin/$n" 2> "$work/$n.port.err"; then
      port=built
    else
      port=FAILED; failed=1; sed 's/^/  /' "$work/$n.port.err" | head -20
    fi
    src=$work/src-$n && mkdir -p "$src" && cp -r "$root/tests/corpus/$n"/original* "$src/" || true
    # shellcheck disable=SC2086
    if (cd "$src" && export sup && eval "${PREP[$n]:-true}" && "$nvcc" -O3 -arch=sm_90 -I. ${SRCS[$n]} -o "$work/originals/$n") 2> "$work/$n.orig.err"; then
      orig=built
    else
      orig=FAILED; failed=1; sed 's/^/  /' "$work/$n.orig.err" | head -20
    fi
    echo "$n: port $port, original $orig ($(( $(date +%s) - s )) s)" | tee -a "$out/build-status.txt"
  done
  gcc -O2 -static "$sup/bfs/graphgen.c" -o "$work/tools/graphgen"
  gcc -O2 -static "$sup/rodinia/inputs.c" -o "$work/tools/rodinia-inputs"
  # The originals (libcudart linked statically, ~1 MB each) and the tools, packed too.
  tar -C "$work" -cf - originals tools | xz -T2 -6 > "$out/originals.tar.xz"
  # The ports run from an offload-cxx bundle (the programs, every library they need, a `run`
  # launcher); xz packs its ~210 MB (libLLVM) to fit the device tool's carry.
  for extra in ${CORPUS_EXTRA:-}; do cp "$extra" "$work/bin/"; done  # more programs to bundle
  if ls "$work/bin/"* > /dev/null 2>&1; then
    "$oc" bundle "$work/bin/"* -o "$work/bundle" > /dev/null
    tar -C "$work" -cf - bundle | xz -T2 -4 > "$out/bundle.tar.xz"
  fi
  cp "$0" "$out/corpus.sh"
  du -sh --apparent-size "$out" | cut -f1 | xargs echo "staged in $out:"
  exit $failed
fi

# --- GPU (on the node) ---------------------------------------------------------------------
[ "$mode" = gpu ] || { echo "usage: corpus.sh build OUTDIR | corpus.sh gpu [ROUNDS]" >&2; exit 2; }
rounds=${2:-7}
log=${OUT:-/tmp}
tmp=/tmp/offload-cxx-corpus
data=$tmp/data
tools=$tmp/tools
rm -rf "$tmp" && mkdir -p "$tmp" "$data"
for pack in bundle originals; do  # a missing pack leaves rows saying that the program failed
  if [ -f "$here/$pack.tar.xz" ]; then xz -dc "$here/$pack.tar.xz" | tar -C "$tmp" -xf -; else echo "corpus.sh: no $pack.tar.xz" >&2; fi
done
bundle=$tmp/bundle
raw=$log/corpus-raw.tsv
runlog=$log/corpus-log.txt
limit=${CORPUS_TIMEOUT:-180}
t_start=$(date +%s)
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
printf 'round\tprogram\twhich\torder\trc\tms\tchecked\twall_s\n' > "$raw"
: > "$runlog"
port_args() { if [ -n "${CORPUS_SMALL:-}" ]; then echo ""; else echo "${P_ARGS[$1]}"; fi; }
orig_args() { echo "${O_ARGS[$1]//@DATA@/$data}"; }

for n in "${selected[@]}"; do
  if [ -n "${SETUP[$n]}" ]; then
    (export tools data; eval "${SETUP[$n]}") || echo "$n: setup failed" >&2
  fi
done

# run ROUND NAME WHICH ORDER: one run, a line in the raw file, its output in the log.
run_one() {
  local r=$1 n=$2 which=$3 order=$4 rc=0 ms="" ok=no args out t0
  t0=$(date +%s.%N)
  out=$tmp/out.txt
  if [ "$which" = port ]; then
    args=$(port_args "$n")
    # shellcheck disable=SC2086
    timeout "$limit" "$bundle/run" "$n" $args > "$out" 2>&1 || rc=$?
    ms=$(awk "${PORT_MS[$n]}" "$out" 2>/dev/null || true)
    grep -q "^$n: PASS" "$out" && ok=yes
  else
    args=$(orig_args "$n")
    if [ -n "${CORPUS_FAKE_ORIGINAL:-}" ]; then
      # shellcheck disable=SC2086
      timeout "$limit" $CORPUS_FAKE_ORIGINAL "$n" $args > "$out" 2>&1 || rc=$?
    elif [ -x "$tmp/originals/$n" ]; then
      # shellcheck disable=SC2086
      ( [ -n "${CORPUS_EAGER:-}" ] && export CUDA_MODULE_LOADING=EAGER
        exec timeout "$limit" "$tmp/originals/$n" $args ) > "$out" 2>&1 || rc=$?
    else
      echo "no original built" > "$out"; rc=127
    fi
    ms=$(awk -v args="$args" "${O_MS[$n]}" "$out" 2>/dev/null || true)
    # The originals print PASS/Passed/VERIFICATION: PASS/Test PASSED, or FAIL/Failed.
    if [ -n "${ORIG_OK[$n]}" ]; then
      [ "$(awk "${ORIG_OK[$n]}" "$out" 2>/dev/null)" = yes ] && ok=yes
    elif grep -Eq 'PASS|Passed' "$out" && ! grep -Eq 'FAIL|Failed' "$out"; then ok=yes; fi
  fi
  local wall; wall=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{printf "%.2f", a - b}')
  ms=$(echo "$ms" | head -n 1)
  [[ "$ms" =~ ^[0-9.eE+-]+$ ]] || ms=NA
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$n" "$which" "$order" "$rc" "$ms" "$ok" "$wall" >> "$raw"
  { echo "### round $r, $n, $which (order $order, exit $rc$([ "$rc" = 124 ] && echo ": timed out"), ms $ms, checked $ok, $wall s): $args"; cat "$out"; } >> "$runlog"
}

for r in $(seq 1 "$rounds"); do
  for n in "${selected[@]}"; do
    if [ $((r % 2)) = 1 ]; then run_one "$r" "$n" original 1; run_one "$r" "$n" port 2
    else run_one "$r" "$n" port 1; run_one "$r" "$n" original 2; fi
  done
  echo "round $r of $rounds done ($(( $(date +%s) - t_start )) s)" >&2
done

# The table: medians over the rounds where both ran, checked, and printed a time; the ratio is
# the median of those rounds' ratios (port / original: below 1, the port is faster).
table=$log/corpus-table.md
{
  echo "$rounds rounds (original and port alternating first); ms are medians over the rounds where both programs passed and printed a time; the ratio is the median of those rounds' port/original ratios (< 1: the port is faster)."
  echo
  echo "| program | args | original median ms | port median ms | ratio port/original | rounds |"
  echo "|---|---|---|---|---|---|"
  for n in "${selected[@]}"; do
    pa=$(port_args "$n"); oa=$(orig_args "$n"); oa=${oa//$data/DATA}
    if [ "$pa" = "$oa" ]; then a="$pa"; else a="port: ${pa:-(defaults)}; original: ${oa:-(none)}"; fi
    awk -F'\t' -v n="$n" -v a="$a" -v R="$rounds" '
      function median(v, k,   i, j, t) {  # sorts v[1..k]
        for (i = 2; i <= k; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
        return (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
      }
      NR > 1 && $2 == n {
        if ($3 == "port") { pms[$1] = $6; pok[$1] = ($5 == 0 && $7 == "yes" && $6 != "NA") }
        else { oms[$1] = $6; ook[$1] = ($5 == 0 && $7 == "yes" && $6 != "NA"); ochk[$1] = $7; orc[$1] = $5 }
        if ($3 == "port" && $5 != 0) pfail++
        if ($3 == "port" && $5 == 124) ptimeout++
        wall[$3] += $8
        if ($3 == "port" && $7 != "yes") pnopass++
        if ($3 == "port" && $6 == "NA") pnotime++
        if ($3 == "original" && $6 == "NA") onotime++
        if ($3 == "original" && ($5 != 0 || $7 != "yes")) ofail++
      }
      END {
        k = 0
        for (r = 1; r <= R; r++) if (pok[r] && ook[r] && oms[r] > 0) { k++; o[k] = oms[r]; p[k] = pms[r]; q[k] = pms[r] / oms[r] }
        why = ""
        if (pnopass) why = why sprintf("port did not print PASS in %d of %d rounds (exit status not 0 in %d, timed out in %d); ", pnopass, R, pfail + 0, ptimeout + 0)
        if (pnotime) why = why sprintf("port time unreadable in %d; ", pnotime)
        if (ofail) why = why sprintf("original failed or did not print PASS in %d; ", ofail)
        if (onotime) why = why sprintf("original time unreadable in %d; ", onotime)
        sub(/; $/, "", why)
        if (k == 0) printf "| %s | %s | - | - | - (%s) | 0 |\n", n, a, (why == "" ? "no run" : why)
        else {
          mo = median(o, k); mp = median(p, k); mq = median(q, k)
          printf "| %s | %s | %.4g | %.4g | %.3f%s | %d |\n", n, a, mo, mp, mq, (why == "" ? "" : " (" why ")"), k
          printf "%s\t%.6g\n", n, mq >> rf
        }
        printf "* %s: %.1f s original, %.1f s port, all rounds together\n", n, wall["original"], wall["port"] >> wf
      }' rf="$tmp/ratios.tsv" wf="$tmp/walls.txt" "$raw"
  done
  touch "$tmp/ratios.tsv"
  awk -F'\t' '$2 > 0 {s += log($2); k++} END {if (k) printf "\nGeometric mean of the ratios (%d programs): %.3f\n", k, exp(s / k); else print "\nNo ratios."}' "$tmp/ratios.tsv"
  echo
  echo "Notes (where the two programs time different regions or take different arguments):"
  echo
  for n in "${selected[@]}"; do [ -n "${NOTE[$n]}" ] && echo "* **$n**: ${NOTE[$n]}"; done
  echo
  echo "Wall time of each program's runs (to trim the sizes):"
  echo
  cat "$tmp/walls.txt" 2>/dev/null || true
  echo
  echo "Total time of the gpu mode: $(( $(date +%s) - t_start )) s. Raw figures: corpus-raw.tsv; outputs: corpus-log.txt."
} > "$table"
cat "$table"
