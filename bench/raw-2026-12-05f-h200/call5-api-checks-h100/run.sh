#!/bin/bash
# assert on the GPU, large 2-D/3-D lambda ranges, lambda_kernels; then the API paths against CUDA
set -u
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p /tmp/gz && tar xJf $here/bundle.tar.xz -C /tmp/gz && b=/tmp/gz/bundle
for p in assert_gpu lambda_large_ranges lambda_kernels; do echo "--- $p"; timeout 60 $b/run $p 2>&1 | tail -8; echo "exit $?"; done
API_PATHS_BUNDLE=$here/bundle.tar.xz bash bench/api_paths.sh run $here $OUT 2>&1 | tail -45
