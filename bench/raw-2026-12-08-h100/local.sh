#!/bin/bash
# quiet 2-core A/B: old (0aa6907) vs new on the new user's five, dot; 1 and 2 threads, 3 rounds
W=/work/main/.gpu/s17/work
for t in 1 2; do for r in 1 2 3; do
  for n in stencil histogram softmax axpydot scan; do
    o=$(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t $W/nu-$n.old 2>&1 | tr '\n' ' ')
    w=$(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t $W/nu-$n.new 2>&1 | tr '\n' ' ')
    m=$(OMP_NUM_THREADS=$t $W/nu-$n.omp 2>&1 | tr '\n' ' ')
    echo "T $t $n r$r | old: $o | new: $w | omp: $m"
  done
  echo "T $t dot r$r | old: $(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t $W/dot.old) | new: $(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t $W/dot.new)"
done; done
