#!/bin/bash
# Twelfth session: the corpus and a few e2e programs built for sm_90,host with the device PCH.
set -e
root=/work/main; oc=/tmp/build2/bin/offload-cxx; w=/tmp/build2/gpu-s12
rm -rf $w && mkdir -p $w/bin
for port in $root/tests/corpus/*/port.cpp; do
  nice -n 5 $oc -O2 --offload-arch=sm_90,host $port -o $w/bin/corpus-$(basename $(dirname $port))
done
for t in wide_values lambda_kernels warp_reduce_exact barrier_loops index_vector_loads data_model; do
  nice -n 5 $oc -O2 --offload-arch=sm_90,host $root/tests/lit/e2e/$t.cpp -o $w/bin/$t
done
$oc bundle $w/bin/* -o $w/bundle
tar -C $w -cf - bundle | xz -T2 -4 > $root/.gpu/s12/bundle.tar.xz
du -sh $root/.gpu/s12/bundle.tar.xz
