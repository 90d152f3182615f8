#!/bin/bash
# Session 17 (issue 31): old (0aa6907, /tmp/ci-clone's build) and new compilers on the new user's
# five programs, the corpus's CPU ports and a dot; the OpenMP twins static. Output in work/.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$here/../..
OLD=${OLD:-/tmp/ci-clone/build/bin/offload-cxx}; NEW=${NEW:-$root/build/bin/offload-cxx}
D=$here/work; rm -rf "$D"; mkdir -p "$D"
for n in stencil histogram softmax axpydot scan; do
  $OLD -O3 --offload-arch=host $root/bench/cpu_device/newuser/$n/port.cpp -o $D/nu-$n.old || echo "FAIL old $n"
  $NEW -O3 --offload-arch=host $root/bench/cpu_device/newuser/$n/port.cpp -o $D/nu-$n.new || echo "FAIL new $n"
  g++ -O3 -fopenmp -static $root/bench/cpu_device/newuser/$n/omp.cpp -o $D/nu-$n.omp || echo "FAIL omp $n"
done
$OLD -O3 --offload-arch=host $here/dot.cpp -o $D/dot.old; $NEW -O3 --offload-arch=host $here/dot.cpp -o $D/dot.new
for name in $(sed -n 's/^  "\([a-z0-9-]*\)|.*/\1/p' $root/bench/cpu_device/corpus/run.sh); do
  $OLD -O3 --offload-arch=host $root/tests/corpus/$name/port.cpp -o $D/$name.old || echo "FAIL old $name"
  $NEW -O3 --offload-arch=host $root/tests/corpus/$name/port.cpp -o $D/$name.new || echo "FAIL new $name"
  g++ -O3 -fopenmp -static $root/bench/cpu_device/corpus/${name}_omp.cpp -o $D/$name.omp || echo "FAIL omp $name"
done
echo staged
