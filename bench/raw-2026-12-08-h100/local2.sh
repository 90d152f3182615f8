#!/bin/bash
# quiet 2-core A/B after the index-store fix: bundled old (0aa6907) vs new (ad6fb13's build)
R=/work/main/.gpu/s17/pk/bundle/run; W=/work/main/.gpu/s17/work
for t in 1 2; do for r in 1 2 3; do
  for n in stencil histogram softmax axpydot scan; do
    echo "T $t $n r$r | old: $(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t $R nu-$n.old 2>&1 | tr '\n' ' ') | new: $(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t $R nu-$n.new 2>&1 | tr '\n' ' ') | omp: $(OMP_NUM_THREADS=$t $W/nu-$n.omp 2>&1 | tr '\n' ' ')"
  done
  echo "T $t dot r$r | old: $(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t $R dot.old) | new: $(OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=$t $R dot.new)"
done; done
