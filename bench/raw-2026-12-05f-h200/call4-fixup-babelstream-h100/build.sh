# build .gpu/y2: the PTX fix-up's programs, BabelStream (kernels, lambdas, CUDA), lambda ports
set -eu
oc=/work/main/build/bin/offload-cxx
w=/tmp/z/y2/w; rm -rf $w; mkdir -p $w; cd $w
open=/work/main/tests/kernelfuzz/open/h200-2026-12-05
for src in $open/small-*.cpp; do
  n=$(basename $src .cpp); seed=${n#small-}
  opt=$(python3 -c "print(['-O2','-O0','-O3','-O1'][$seed%4])")
  $oc $opt --offload-arch=sm_90,host --cpu-image=on -w $src -o $n
done
sed -n '/^#--- k.cpp/,$p' /work/main/tests/lit/codegen/ptxas-high-half.test | tail -n +2 > hh.cpp
$oc -O2 --offload-arch=sm_90,host hh.cpp -o ptxas-high-half
$oc -O3 --offload-arch=sm_90,host /work/main/bench/babelstream.cpp -o bk
$oc -O3 --offload-arch=sm_90,host /work/main/bench/babelstream_lambda.cpp -o bl
for p in vector-add matrix-rotate nbody; do
  $oc -O3 --offload-arch=sm_90,host /work/main/tests/corpus/$p/port.cpp -o $p
  $oc -O3 --offload-arch=sm_90,host /work/main/tests/corpus/$p/port-lambda.cpp -o $p-lambda
done
$oc bundle small-* ptxas-high-half bk bl vector-add* matrix-rotate* nbody* -o bundle > /dev/null
source <(sed -n '/^stub_unused_libraries()/,/^}/p' /work/main/bench/gpu_session.sh)
stub_unused_libraries bundle/lib
cp /tmp/z/bs/bs-cuda bundle/
mkdir -p /work/main/.gpu/y2 && tar -cf - bundle | xz -T2 -6 > /work/main/.gpu/y2/bundle.tar.xz
cp $open/small-*.cpu.txt /work/main/.gpu/y2/
du -sh /work/main/.gpu/y2
