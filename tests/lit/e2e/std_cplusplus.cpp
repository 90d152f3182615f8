// Past C++20, g++ and clang disagree on __cplusplus (g++ 12's -std=c++23 is 202100L, clang
// 22's 202302L); every clang compile of a kernel file is told g++'s value, so that a type chosen
// by it has one layout on the host and in the kernel (fourteenth adversarial pass: a 16-byte
// struct parameter was read as 32 bytes, a wrong result without a word).
// RUN: %offload-cxx -std=c++23 %s -o %t23 && %t23 | FileCheck %s
// RUN: %offload-cxx -std=gnu++2b %s -o %t2b && %t2b | FileCheck %s
// RUN: %offload-cxx -std=c++20 %s -o %t20 && %t20 | FileCheck %s
// CHECK: kernel saw the host's __cplusplus
// CHECK: width 7
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>

#if __cplusplus >= 202302L
using index_t = std::int64_t;
#else
using index_t = std::int32_t;
#endif
struct range2 {
  index_t lo, hi;
};

OFFLOAD_KERNEL void version(long *out) { *out = __cplusplus; }
OFFLOAD_KERNEL void width(long *out, range2 r) { *out = long(r.hi - r.lo); }

int main() {
  long seen = 0, out = -1;
  offload::launch(version, {}, &seen);
  if (seen != __cplusplus) {
    std::printf("kernel saw %ld, host %ld\n", seen, long(__cplusplus));
    return 1;
  }
  std::printf("kernel saw the host's __cplusplus\n");
  offload::launch(width, {}, &out, range2{3, 10});
  std::printf("width %ld\n", out);
  return out == 7 ? 0 : 1;
}
