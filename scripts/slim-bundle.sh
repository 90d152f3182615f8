#!/usr/bin/env bash
# scripts/slim-bundle.sh — sourced by bench/gpu_session.sh and scripts/kernelfuzz-gpu.sh: makes a
# bundle's libraries fit the device machine's 64 MiB carry (session bundles only).
# The carry's limit: libLLVM needs libz3 (its SMT solver API) and, through libxml2, ICU's 30 MB
# of data, which no program here uses; in the session's bundle they are stubs that abort with
# a message if called (15 MB less after xz). Never done to a user's bundle.
stub_unused_libraries() {
  local lib=$1 src
  src=$(mktemp -d)
  if [ -f "$lib/libz3.so.4" ]; then
    nm -D --undefined-only "$lib"/*.so* 2>/dev/null | awk '$2 ~ /^Z3_/ {print $2}' | sort -u |
      awk 'BEGIN { print "#include <stdio.h>\n#include <stdlib.h>" }
           { printf "void %s(void) { fputs(\"gpu_session stub: %s called\\n\", stderr); abort(); }\n", $1, $1 }' \
      > "$src/z3.c"
    gcc -shared -fPIC -O1 -Wl,-soname,libz3.so.4 "$src/z3.c" -o "$lib/libz3.so.4"
  fi
  if [ -f "$lib/libicudata.so.72" ]; then
    echo 'const unsigned char icudt72_dat[64] = {0};' > "$src/icudata.c"
    gcc -shared -fPIC -Wl,-soname,libicudata.so.72 "$src/icudata.c" -o "$lib/libicudata.so.72"
  fi
  rm -rf "$src"
}
