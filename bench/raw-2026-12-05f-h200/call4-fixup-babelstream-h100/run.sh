#!/bin/bash
# the PTX fix-up on the GPU; BabelStream kernels / lambdas / CUDA; lambda ports
set -u
cd "$(dirname "$0")"; tar xJf bundle.tar.xz -C /tmp && b=/tmp/bundle
mkdir -p $OUT/o
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/o/gpu.txt 2>&1
agree=0; differ=0
for c in small-*.cpu.txt; do n=${c%.cpu.txt}
  timeout 60 $b/run $n > $OUT/o/$n.txt 2>&1
  if cmp -s $OUT/o/$n.txt $c; then agree=$((agree+1)); else differ=$((differ+1)); echo "differs: $n"; fi
done
echo "fix-up programs: agree $agree differ $differ" | tee $OUT/o/summary.txt
$b/run ptxas-high-half | tee -a $OUT/o/summary.txt
OFFLOAD_INFO=1 $b/run bl 27 2 2>&1 | grep launching | sort | uniq -c >> $OUT/o/summary.txt
for r in 1 2 3 4 5; do
  $b/run bk 27 100 > $OUT/o/bk-$r.txt 2>&1; $b/run bl 27 100 > $OUT/o/bl-$r.txt 2>&1; $b/bs-cuda > $OUT/o/cuda-$r.txt 2>&1
done
for r in 1 2 3; do
  for n in "vector-add 33554432" "matrix-rotate 5000 5" "nbody 6000 10"; do set -- $n
    for p in "$1" "$1-lambda"; do echo "--- round $r $p $(timeout 60 $b/run $p "${@:2}" 2>&1 | grep -E 'time_ms|PASS|FAIL|rror' | tr '\n' ' ')"; done
  done
done > $OUT/o/lambda-ports.txt 2>&1
python3 - $OUT/o <<'PY' | tee -a $OUT/o/summary.txt
import sys, glob, statistics, re
d = sys.argv[1]
def table(prefix):
    vals = {}
    for f in sorted(glob.glob(f"{d}/{prefix}-*.txt")):
        for l in open(f):
            m = re.match(r"(copy|mul|add|triad|nstream|dot) ([0-9.]+) GB/s", l)
            if m: vals.setdefault(m.group(1), []).append(float(m.group(2)))
    return {k: statistics.median(v) for k, v in vals.items()}
k, l, c = table("bk"), table("bl"), table("cuda")
for n in ["copy", "mul", "add", "triad", "nstream", "dot"]:
    print(f"{n}: kernels {k.get(n,0):.1f} lambdas {l.get(n,0):.1f} cuda {c.get(n,0):.1f} GB/s; lambdas/cuda {l.get(n,0)/c.get(n,1):.3f} kernels/cuda {k.get(n,0)/c.get(n,1):.3f}")
PY
cat $OUT/o/lambda-ports.txt
(which g++ gcc ld clang; g++ --version | head -1; nproc) >> $OUT/o/summary.txt 2>&1
tar -C $OUT -czf $OUT/y2.tgz o && rm -rf $OUT/o
