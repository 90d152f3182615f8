#!/bin/bash
# Session 16, issue 31: the new user's five programs on this node's CPU, 1, 2 and 16 threads:
# before (session 15's compiler and runtime: old/), after (this session's: the bundle), and the
# OpenMP twins, alternately, ROUNDS rounds. Prints one line per run; medians made at home.
here=$(cd "$(dirname "$0")" && pwd)
b=/tmp/s16ab
rm -rf "$b" && mkdir -p "$b" && xz -dc "$here/pack.tar.xz" | tar -C "$b" -xf -
mkdir -p "$b/old/lib"
for f in "$b"/bundle/lib/*; do ln -sf "$f" "$b/old/lib/"; done
cp --remove-destination "$b"/old/rt/*.so "$b/old/lib/"
nproc; lscpu | grep "Model name"
for t in ${THREADS:-1 2 16}; do
  for n in stencil histogram softmax axpydot scan; do
    for r in $(seq ${ROUNDS:-3}); do
      o=$(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t timeout 60 "$b/old/bin/$n.old" 2>&1 | tr '\n' ' ')
      w=$(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t timeout 60 "$b/bundle/run" nu-$n.port 2>&1 | tr '\n' ' ')
      m=$(OMP_NUM_THREADS=$t timeout 60 "$b/omp/nu-$n.omp" 2>&1 | tr '\n' ' ')
      echo "threads $t $n round $r | before: $o | after: $w | omp: $m"
    done
  done
done
