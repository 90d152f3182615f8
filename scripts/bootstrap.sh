#!/usr/bin/env bash
# bootstrap.sh — the README's first command: installs what offload-cxx needs on Debian 12 (LLVM
# 22's clang, lld, libclang-cpp and offload runtime; CMake, Ninja, ccache, GoogleTest; Open MPI
# for examples/mpi), builds offload-cxx, compiles examples/fill.cpp with it and runs it (on the
# GPU if there is one, else on the CPU device). Safe to run again: it installs only what is
# missing. OFFLOAD_CXX_BUILD_DIR: where to build (default ./build; CI builds outside the source
# tree, so that the suite is proven to run from any build directory).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

packages=(clang-22 lld-22 llvm-22 llvm-22-dev llvm-22-tools libclang-cpp22-dev libclang-22-dev
          liboffload-22 liboffload-22-dev libomp-22-dev cmake ninja-build ccache g++ libgtest-dev
          python3 libboost-context-dev libclang-rt-22-dev openmpi-bin libopenmpi-dev
          patchelf file)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${OFFLOAD_CXX_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build"

mkdir -p "$build/examples"
"$build/bin/offload-cxx" -O2 examples/fill.cpp -o "$build/examples/fill"
"$build/examples/fill"
