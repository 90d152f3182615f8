#!/bin/bash
# Session 17 on the GPU node's CPU: old and new compilers' programs (one bundle, one runtime) and
# OpenMP twins, alternately. PART=newuser|corpus|dot; THREADS; ROUNDS. One line per run.
here=$(cd "$(dirname "$0")" && pwd)
b=/tmp/s17ab
if [ ! -d $b ]; then mkdir -p $b && xz -dc "$here/pack.tar.xz" | tar -C $b -xf -; fi
nproc; lscpu | grep "Model name"
run() { timeout 120 "$@" 2>&1 | tr '\n' ' ' | tail -c 400; }
corpus_args() { sed -n "s/^  \"$1|\([^\"]*\)\".*/\1/p" $b/corpus-run.sh; }
for part in ${PART:-newuser dot corpus}; do
 for t in ${THREADS:-1 2 16}; do
  export OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t OMP_NUM_THREADS=$t
  for r in $(seq ${ROUNDS:-3}); do
   case $part in
    newuser) for n in stencil histogram softmax axpydot scan; do
        echo "T $t $n r$r | old: $(run $b/bundle/run nu-$n.old) | new: $(run $b/bundle/run nu-$n.new) | omp: $(run $b/omp/nu-$n.omp)"; done;;
    dot) echo "T $t dot r$r | old: $(run $b/bundle/run dot.old) | new: $(run $b/bundle/run dot.new)";;
    corpus) for n in $(sed -n 's/^  "\([a-z0-9-]*\)|.*/\1/p' $b/corpus-run.sh); do a=$(corpus_args $n)
        echo "T $t $n r$r | old: $(run $b/bundle/run $n.old $a | grep -o 'time_ms: [0-9.]*\|PASS\|FAIL' | tr '\n' ' ') | new: $(run $b/bundle/run $n.new $a | grep -o 'time_ms: [0-9.]*\|PASS\|FAIL' | tr '\n' ' ') | omp: $(run $b/omp/$n.omp $a | grep -o 'time_ms: [0-9.]*\|PASS\|FAIL' | tr '\n' ' ')"; done;;
   esac
  done
 done
done
