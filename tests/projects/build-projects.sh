#!/usr/bin/env bash
# build-projects.sh — the drop-in claim on real projects (issue 32, item 4): each open-source C++
# project below (no kernels in any of them) is configured, built and tested twice with the same
# options, once with CXX=g++ and once with CXX=offload-cxx, and the two must agree: both build,
# every test of the project's own suite passes both ways, and the same tests (ctest's, and each
# GoogleTest case) pass. Per project it prints the two build times (wall and CPU) and their ratio;
# the last line is `projects: N passed, M failed`. Exit status 0 when all agree, 1 otherwise, 77
# (ctest's SKIP_RETURN_CODE) only when the sources cannot be downloaded for want of a network.
#
#   build-projects.sh --offload-cxx PATH [--work DIR] [--jobs N] [--keep] [--max-ratio R]
#                     [PROJECT...]
#
# PROJECT: fmt, yaml-cpp, rapidjson (default: all three). --work: the scratch folder (default
# ./real-projects); --keep: keep the builds of projects that pass (those that fail are always
# kept); --max-ratio R: also fail a project whose build takes more than R times g++'s CPU time
# (not by default: on a shared 2-core machine the times move with the load; the ratio is
# reported either way). Run by ctest as `real_projects` (tests/projects/CMakeLists.txt).
#
# Sources: Debian 12's source packages (fmtlib, yaml-cpp, rapidjson), fetched with
# `apt-get source --download-only` and unpacked with dpkg-source, which applies Debian's patches
# (they build the tests against the system's GoogleTest instead of a copy the upstream tarballs
# carry, and fix g++ 12's -Werror warnings in rapidjson). They are fetched here, not in
# scripts/bootstrap.sh: this test is the only user, the download is cached in the build folder
# (WORK/sources/PACKAGE/; files put there by hand are used as they are, for a machine without a
# network), and a machine without a network then skips this one test instead of failing its
# setup. bootstrap.sh adds the deb-src entry apt needs and installs the build dependencies
# (dpkg-dev, googletest, libgtest-dev, libgmock-dev).
#
# Options are Debian's own for each package (debian/rules) with documentation, examples and
# yaml-cpp's tools off, build type None with -O1 for all (PROJECTS_OPT; Debian builds with -O2
# -g): the same options both ways. ccache is disabled (rapidjson's CMakeLists puts it in front
# of the compiler when it finds it), so both builds compile every file. The sizes: at -O2 the
# six builds took ~28 minutes of CPU time and 20 of CI's (1,180 s, 2026-12-07);
# -O1 compiles fmt's format-test in 25 s of CPU against -O2's 41 (-O0: 19), an optimising build
# still, so that the whole CI stays within its time (docs/design.md, "CI's time").
set -uo pipefail

offload_cxx=""
work=""
jobs=2
opt=${PROJECTS_OPT:--O1}  # the projects' optimisation flags, both builds
keep=0
max_ratio=""
projects=()
while [ $# -gt 0 ]; do
  case "$1" in
    --offload-cxx) offload_cxx=$2; shift 2 ;;
    --offload-cxx=*) offload_cxx=${1#*=}; shift ;;
    --work) work=$2; shift 2 ;;
    --work=*) work=${1#*=}; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    --keep) keep=1; shift ;;
    --max-ratio) max_ratio=$2; shift 2 ;;
    --max-ratio=*) max_ratio=${1#*=}; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    -*) echo "build-projects: unknown option $1" >&2; exit 2 ;;
    *) projects+=("$1"); shift ;;
  esac
done
[ ${#projects[@]} -gt 0 ] || projects=(fmt yaml-cpp rapidjson)
if [ -z "$offload_cxx" ] || [ ! -x "$offload_cxx" ]; then
  echo "build-projects: --offload-cxx PATH (an executable offload-cxx) is required" >&2
  exit 2
fi
offload_cxx=$(cd "$(dirname "$offload_cxx")" && pwd)/$(basename "$offload_cxx")
work=${work:-$PWD/real-projects}
mkdir -p "$work"
work=$(cd "$work" && pwd)
for tool in cmake ctest ninja g++ gcc dpkg-source apt-get; do
  command -v "$tool" >/dev/null || { echo "build-projects: $tool not found (run scripts/bootstrap.sh)" >&2; exit 1; }
done
for dir in /usr/src/googletest /usr/src/gtest; do
  [ -d "$dir" ] || { echo "build-projects: $dir missing: install googletest, libgtest-dev and libgmock-dev (scripts/bootstrap.sh does)" >&2; exit 1; }
done

# The projects: Debian source package, then the CMake options (Debian's debian/rules, less
# documentation and examples).
package_of() {
  case "$1" in
    fmt) echo fmtlib ;;
    yaml-cpp) echo yaml-cpp ;;
    rapidjson) echo rapidjson ;;
    *) return 1 ;;
  esac
}
options_of() {
  case "$1" in
    fmt) echo "-DFMT_DOC=OFF -DFMT_TEST=ON -DFMT_PEDANTIC=ON -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DBUILD_SHARED_LIBS=ON" ;;
    yaml-cpp) echo "-DYAML_CPP_BUILD_TESTS=ON -DYAML_CPP_BUILD_TOOLS=OFF -DYAML_BUILD_SHARED_LIBS=ON -Dgtest_disable_pthreads=OFF -DINSTALL_GTEST=OFF" ;;
    rapidjson) echo "-DRAPIDJSON_BUILD_DOC=OFF -DRAPIDJSON_BUILD_EXAMPLES=OFF -DRAPIDJSON_BUILD_TESTS=ON" ;;
  esac
}
# What is built and run of each project's suite (CI's time, docs/design.md): all of yaml-cpp's
# (one test program); rapidjson's unit tests, not its benchmarks (perftest); fmt's library with
# format-test (its largest suite, 2,300 lines), the os, printf-free and GoogleTest-extension
# suites and the CMake tests (find_package, add_subdirectory, static export), but not the ten
# other suites (core, printf, ranges, chrono, ostream, xchar, unicode, compile, compile-fp,
# format-impl: two thirds of fmt's build time) nor compile-error-test (20 s of configures).
# Empty: everything, as `ninja` and `ctest` alone.
targets_of() {
  case "$1" in
    fmt) echo "fmt test-main format-test os-test gtest-extra-test args-test assert-test color-test scan-test enforce-checks-test posix-mock-test" ;;
    rapidjson) echo "unittest" ;;
  esac
}
tests_of() {
  case "$1" in
    fmt) echo '^(format-test|os-test|gtest-extra-test|args-test|assert-test|color-test|scan-test|enforce-checks-test|posix-mock-test|find-package-test|add-subdirectory-test|static-export-test)$' ;;
    rapidjson) echo '^unittest$' ;;
  esac
}
for p in "${projects[@]}"; do
  package_of "$p" >/dev/null || { echo "build-projects: unknown project $p (fmt, yaml-cpp, rapidjson)" >&2; exit 2; }
done

# --- sources -------------------------------------------------------------------------------
# apt-get source's failure is a skip only when it is the network's (no route, no name
# resolution, refused or timed-out connection); anything else (no deb-src entry, no Sources
# index, an unknown package) is a setup error and fails the test.
network_error='Could not resolve|Temporary failure resolving|Network is unreachable|Could not connect|Connection (failed|refused|timed out)|Unable to connect|No route to host|Cannot initiate the connection'
fetch() {  # package -> prints the .dsc; returns 77 for a network failure, 1 otherwise
  local pkg=$1 dir=$work/sources/$1 dsc
  dsc=$(ls "$dir"/*.dsc 2>/dev/null | head -1)
  if [ -z "$dsc" ]; then
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    chmod 755 "$dir.tmp"  # readable by apt's _apt user, so apt need not warn about root
    if ! (cd "$dir.tmp" && apt-get source --download-only "$pkg") >"$dir.log" 2>&1; then
      if grep -qE "$network_error" "$dir.log"; then
        echo "build-projects: SKIP: cannot download Debian source package $pkg (no network):" >&2
        grep -oE "($network_error).*" "$dir.log" | sort -u | head -3 | sed "s/^/  /" >&2
        return 77
      fi
      echo "build-projects: apt-get source --download-only $pkg failed (not a network error):" >&2
      tail -5 "$dir.log" >&2
      if grep -qE "deb-src|Unable to find a source package" "$dir.log"; then
        echo "build-projects: apt needs Debian's deb-src entry and its index: run scripts/bootstrap.sh" >&2
      fi
      return 1
    fi
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
    dsc=$(ls "$dir"/*.dsc 2>/dev/null | head -1)
    [ -n "$dsc" ] || { echo "build-projects: apt-get source $pkg left no .dsc in $dir" >&2; return 1; }
  fi
  echo "$dsc"
}

# --- one build -------------------------------------------------------------------------------
# configure + build + ctest with one compiler; writes $out/{configure,build,test}.log,
# $out/time (wall user sys of the build), $out/ctest-passed, $out/ctest-other, $out/gtest-ok,
# $out/gtest-failed. Returns 0 when configure, build and every test succeeded.
build_with() {  # project src cxx out
  local project=$1 src=$2 cxx=$3 out=$4 b=$4/build rc
  mkdir -p "$out"
  : >"$out/ctest-passed"; : >"$out/ctest-other"; : >"$out/gtest-ok"; : >"$out/gtest-failed"
  echo "0 0 0" >"$out/time"
  echo configure >"$out/stage"  # how far it got: configure, build, test
  # shellcheck disable=SC2046
  if ! env -u CXXFLAGS -u CFLAGS -u CPPFLAGS -u LDFLAGS CXX="$cxx" CC=gcc CCACHE_DISABLE=1 \
        cmake -S "$src" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="$opt" \
        -DCMAKE_C_FLAGS="$opt" $(options_of "$project") >"$out/configure.log" 2>&1; then
    echo "  $(basename "$out"): configure FAILED ($out/configure.log):"
    grep -E -m5 'Error|error' "$out/configure.log" | sed 's/^/    /'
    return 1
  fi
  echo build >"$out/stage"
  local TIMEFORMAT='%R %U %S'
  # shellcheck disable=SC2046
  { time CCACHE_DISABLE=1 ninja -C "$b" -j"$jobs" -k 0 $(targets_of "$project") >"$out/build.log" 2>&1; } 2>"$out/time"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "  $(basename "$out"): build FAILED, $(grep -c '^FAILED: ' "$out/build.log") commands ($out/build.log); the first:"
    awk '/^FAILED: /{n++} n==1' "$out/build.log" | grep -v '^\[' | head -12 | cut -c1-400 | sed 's/^/    /'
    return 1
  fi
  echo test >"$out/stage"
  # -V: GoogleTest's own lines ([       OK ] Suite.Case) for the comparison case by case.
  local only; only=$(tests_of "$project")
  ctest --test-dir "$b" -j"$jobs" -V --timeout 600 ${only:+-R "$only"} >"$out/test.log" 2>&1
  rc=$?
  # ctest's per-test lines: "  3/20 Test  #3: name ........   Passed    0.01 sec"
  grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$out/test.log" | sed -E 's/^.*Test +#[0-9]+: ([^ ]+) .*$/\1 &/' |
    awk '/ Passed /{print $1 > "'"$out/ctest-passed"'"; next} {print $1 > "'"$out/ctest-other"'"}'
  grep -oE '\[ +OK \] [^ ]+' "$out/test.log" | awk '{print $NF}' | sort >"$out/gtest-ok"
  grep -oE '\[  FAILED  \] [A-Za-z_][^ ]*' "$out/test.log" | awk '{print $NF}' | sort -u >"$out/gtest-failed"
  sort -o "$out/ctest-passed" "$out/ctest-passed"; sort -o "$out/ctest-other" "$out/ctest-other"
  if [ "$rc" -ne 0 ] || [ -s "$out/ctest-other" ] || [ ! -s "$out/ctest-passed" ]; then
    echo "  $(basename "$out"): tests FAILED ($out/test.log): $(wc -l <"$out/ctest-passed") passed," \
         "not passed: $(tr '\n' ' ' <"$out/ctest-other")$(sed 's/^/gtest:/' "$out/gtest-failed" | tr '\n' ' ')"
    return 1
  fi
  return 0
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

# --- the projects ------------------------------------------------------------------------------
passed=0; failed=0; summary=()
start_all=$(date +%s)
echo "build-projects: offload-cxx $offload_cxx; g++ $(g++ -dumpfullversion); $(nproc) cores, -j$jobs, $opt; work $work"
echo "build-projects: load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for project in "${projects[@]}"; do
  pkg=$(package_of "$project")
  dsc=$(fetch "$pkg"); rc=$?
  [ "$rc" -eq 77 ] && exit 77
  if [ "$rc" -ne 0 ]; then failed=$((failed + 1)); echo "$project: FAILED (no sources)"; continue; fi
  version=$(basename "$dsc" .dsc); version=${version#*_}
  dir=$work/$project
  rm -rf "$dir" && mkdir -p "$dir"
  if ! dpkg-source --no-check --no-copy -x "$dsc" "$dir/src" >"$dir/unpack.log" 2>&1; then
    echo "$project: FAILED: dpkg-source -x $dsc ($dir/unpack.log)"; tail -3 "$dir/unpack.log"
    failed=$((failed + 1)); continue
  fi
  echo "$project ($pkg $version): options $(options_of "$project")"
  ok=1
  build_with "$project" "$dir/src" g++ "$dir/g++" || ok=0
  build_with "$project" "$dir/src" "$offload_cxx" "$dir/offload-cxx" || ok=0
  read -r gw gu gs <"$dir/g++/time"; read -r ow ou os <"$dir/offload-cxx/time"
  gc=$(awk -v u="$gu" -v s="$gs" 'BEGIN { printf "%.1f", u + s }')
  oc=$(awk -v u="$ou" -v s="$os" 'BEGIN { printf "%.1f", u + s }')
  nct=$(wc -l <"$dir/g++/ctest-passed"); ngt=$(wc -l <"$dir/g++/gtest-ok")
  # The same tests pass both ways: ctest's and GoogleTest's, name by name (compared when both
  # builds got as far as their tests).
  if [ "$(cat "$dir/g++/stage")" != test ] || [ "$(cat "$dir/offload-cxx/stage")" != test ]; then
    echo "  tests not compared: a build did not get as far as its tests"
  else
    if ! diff -u "$dir/g++/ctest-passed" "$dir/offload-cxx/ctest-passed" >"$dir/ctest.diff"; then
      echo "  ctest's passing tests differ (g++ -, offload-cxx +):"
      sed -n '3,$p' "$dir/ctest.diff" | grep '^[-+]' | head -20 | sed 's/^/    /'
      ok=0
    fi
    if ! diff -u "$dir/g++/gtest-ok" "$dir/offload-cxx/gtest-ok" >"$dir/gtest.diff"; then
      echo "  GoogleTest's passing cases differ (g++ -, offload-cxx +):"
      sed -n '3,$p' "$dir/gtest.diff" | grep '^[-+]' | head -20 | sed 's/^/    /'
      ok=0
    fi
  fi
  line=$(printf '%s %s: build g++ %.1f s (CPU %s s), offload-cxx %.1f s (CPU %s s), ratio %s (CPU %s); tests passing: %s ctest, %s GoogleTest cases' \
         "$project" "$version" "$gw" "$gc" "$ow" "$oc" "$(ratio "$ow" "$gw")" "$(ratio "$oc" "$gc")" "$nct" "$ngt")
  if [ -n "$max_ratio" ] && awk -v a="$oc" -v b="$gc" -v m="$max_ratio" 'BEGIN { exit !(b > 0 && a / b > m) }'; then
    echo "  CPU time ratio $(ratio "$oc" "$gc") is over --max-ratio $max_ratio"
    ok=0
  fi
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1)); echo "  $line: ok"; summary+=("$line: ok")
    [ "$keep" -eq 1 ] || rm -rf "$dir/g++/build" "$dir/offload-cxx/build" "$dir/src"
  else
    failed=$((failed + 1)); echo "  $line: FAILED (kept in $dir)"; summary+=("$line: FAILED")
  fi
done
echo "build-projects: load after: $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - start_all )) s in all"
printf '%s\n' "${summary[@]}" >"$work/summary.txt"
echo "projects: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
