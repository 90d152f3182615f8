// A lambda over a range2d or range3d takes as many indices as the range has dimensions: a lambda
// of one index is one static assertion saying so (it was a hundred lines of overload notes).
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
// RUN: not %offload-cxx %s -o %t -DTHREE 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: not test -e %t
// CHECK: lambda_arity.cpp:[[#@LINE+13]]:{{.*}}required from here
// CHECK: error: static assertion failed: offload::parallel_for: a lambda over a range2d takes two indices (x, y), std::size_t or auto, and is not mutable
// CHECK-NOT: note: candidate
// THREE: error: static assertion failed: offload::parallel_for: a lambda over a range3d takes three indices (x, y, z)
#include <offload/offload.hpp>

#include <span>
#include <vector>

int main() {
  std::vector<float> v(64);
  std::span<float> s(v);
#ifndef THREE
  offload::parallel_for(offload::range2d{8, 8}, [=](std::size_t i) { s[i] = 1; });
#else
  offload::parallel_for(offload::range3d{4, 4, 4}, [=](std::size_t i, std::size_t j) { s[i + j] = 1; });
#endif
}
