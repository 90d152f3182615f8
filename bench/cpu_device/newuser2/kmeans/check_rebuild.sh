#!/bin/bash
# Builds the kmeans CMake project with Ninja and with Makefiles (CXX=offload-cxx), touches each
# header and shows what rebuilds, edits a header (WG, K, version) and checks the program still
# agrees with its OpenMP twin; then restores the header. Also the find_package route (g++ + launchers).
set -eu
cd "$(dirname "$0")"
OCXX=${OFFLOAD_CXX:-$(cd "$(dirname "$0")/../../../.." && pwd)/build/bin/offload-cxx}
P=include/kmeans_params.hpp
cp $P /tmp/kmeans_params.hpp.orig
trap 'cp /tmp/kmeans_params.hpp.orig $P' EXIT
for gen in Ninja "Unix Makefiles"; do
  d="build-check-${gen// /-}"
  rm -rf "$d" && mkdir "$d"
  echo "===== $gen"
  (cd "$d" && CXX="$OCXX" cmake -G "$gen" .. > cmake.log && cmake --build . -j1 > build.log)
  for h in kmeans.hpp data.hpp kmeans_params.hpp; do
    sleep 1; touch include/$h
    echo "--- touch $h rebuilds:"
    cmake --build "$d" -j1 | grep -E "Building|Linking" | sed 's/^/    /'
  done
  echo "--- nothing touched:"; cmake --build "$d" -j1 | grep -E "Building|Linking" | sed 's/^/    /' || echo "    (nothing)"
  echo "--- edit WG=128 K=32 version=2"
  sleep 1; sed -i 's/WG = 256/WG = 128/; s/K = 64/K = 32/; s/KMEANS_VERSION = 1/KMEANS_VERSION = 2/' $P
  cmake --build "$d" -j1 | grep -E "Building|Linking" | sed 's/^/    /'
  (cd "$d" && rm -f kmeans_omp.out && ./kmeans_omp | grep CHECK && ./kmeans | grep -E "CHECK|twin")
  sleep 1; cp /tmp/kmeans_params.hpp.orig $P
  cmake --build "$d" -j1 > /dev/null
  (cd "$d" && rm -f kmeans_omp.out && ./kmeans_omp | grep CHECK && ./kmeans | grep -E "CHECK|twin")
done
echo "===== find_package(OffloadCxx) with CXX=g++ (launchers)"
d=build-check-pkg; rm -rf $d && mkdir $d
(cd $d && CXX=g++ cmake -G Ninja -DKMEANS_USE_PACKAGE=ON -DCMAKE_PREFIX_PATH="$(dirname "$(dirname "$OCXX")")" .. > cmake.log && ninja -j1 > build.log && ./kmeans_omp | grep CHECK && ./kmeans | grep -E "CHECK|twin")
sleep 1; touch include/kmeans.hpp; echo "--- touch kmeans.hpp rebuilds:"; ninja -C $d -j1 | grep -E "Building|Linking" | sed 's/^/    /'
