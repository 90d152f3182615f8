#!/usr/bin/env bash
# bootstrap.sh — the README's first command: installs what offload-cxx needs on Debian 12 (LLVM
# 22's clang, lld, libclang-cpp and offload runtime; CMake, Ninja, ccache, GoogleTest; Open MPI
# for examples/mpi; dpkg-dev, googletest and GoogleMock, and Debian's deb-src entry, for the
# real_projects test), builds offload-cxx, compiles examples/fill.cpp with it and runs it (on the
# GPU if there is one, else on the CPU device). Safe to run again: it installs only what is
# missing. OFFLOAD_CXX_BUILD_DIR: where to build (default ./build; CI builds outside the source
# tree, so that the suite is proven to run from any build directory).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

packages=(clang-22 lld-22 llvm-22 llvm-22-dev llvm-22-tools libclang-cpp22-dev libclang-22-dev
          liboffload-22 liboffload-22-dev libomp-22-dev cmake ninja-build ccache g++ libgtest-dev
          python3 libboost-context-dev libclang-rt-22-dev openmpi-bin libopenmpi-dev
          patchelf file dpkg-dev googletest libgmock-dev procps)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "ok installed" >/dev/null || missing+=("$p")
done
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
# Debian's source packages (deb-src), from which the real_projects test fetches fmt, yaml-cpp
# and rapidjson with `apt-get source` (tests/projects/build-projects.sh): an entry for bookworm
# main on the mirror the machine's own `deb` entry for bookworm uses (apt's index names it, so
# the index is read first), and the index updated again when the entry is new.
src_list=/etc/apt/sources.list.d/offload-cxx-src.sources
if [ ${#missing[@]} -gt 0 ] || ! compgen -G '/var/lib/apt/lists/*_dists_bookworm_main_source_Sources*' >/dev/null; then
  $sudo apt-get update -qq
fi
mirror=$(apt-get indextargets --format '$(REPO_URI)' 'Target-Of: deb' 'Release: bookworm' \
           'Component: main' 'Identifier: Packages' | sed -n 1p)  # (sed reads it all: no SIGPIPE for pipefail)
if [ -z "$mirror" ]; then
  echo "bootstrap: warning: no deb entry for Debian bookworm main in apt's sources, so no deb-src" \
       "entry was added; the real_projects test will fail until one is there" >&2
else
  src_entry="Types: deb-src
URIs: ${mirror%/}
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
  if [ "$(cat "$src_list" 2>/dev/null)" != "$src_entry" ]; then
    echo "bootstrap: adding a deb-src entry for bookworm main ($src_list)"
    printf '%s\n' "$src_entry" | $sudo tee "$src_list" >/dev/null
    $sudo apt-get update -qq
  fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${OFFLOAD_CXX_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build"

mkdir -p "$build/examples"
"$build/bin/offload-cxx" -O2 examples/fill.cpp -o "$build/examples/fill"
"$build/examples/fill"
