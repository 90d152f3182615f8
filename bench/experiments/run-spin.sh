#!/usr/bin/env bash
# Runs offload-cxx's BabelStream with and without the spinning primary context (on the GPU node).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)   # .gpu/bench
gpu=$(cd "$here/.." && pwd)
eval "$(bash "$gpu/gpu-runtime-env" "$gpu/debs")"
export LD_LIBRARY_PATH=$gpu/lib:$LD_LIBRARY_PATH
for rep in 1 2; do
  echo "== default (libomptarget: BLOCKING_SYNC), run $rep"; "$here/babelstream" 27 100 10000 | grep -vE "^#|h2d|d2h"
  echo "== spinning primary context, run $rep"; LD_PRELOAD=$here/spin_context.so "$here/babelstream" 27 100 10000 2>&1 | grep -vE "^#|h2d|d2h"
done
