// Malformed C++ gets clang's own diagnostic with file:line, and no output.
// RUN: rm -f %t
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t
#include <offload/offload.hpp>

int main() {
  int x = ;
}
// CHECK: syntax_error.cpp:8:11: error: expected expression
