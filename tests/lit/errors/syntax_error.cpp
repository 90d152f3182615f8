// Malformed C++ is reported once, by the host compiler (g++), with file:line, and no output;
// clang's report of the same error (it parses the file to find the kernels) is not repeated.
// RUN: rm -f %t
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t
#include <offload/offload.hpp>

int main() {
  int x = ;
}
// CHECK: syntax_error.cpp:9:11: error: expected primary-expression
// CHECK-NOT: error:
// CHECK-NOT: errors generated
