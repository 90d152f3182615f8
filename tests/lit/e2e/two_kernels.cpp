// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// REQUIRES: clang-host
// RUN: %offload-cxx -O2 --host-compiler=clang++-22 %s -o %t.clang
// RUN: env OFFLOAD_DEVICE=cpu %t.clang | FileCheck %s
// CHECK: two_kernels: all checks passed
// Two kernels in one file, chained over the same arrays; a const input maps to the device only,
// and a struct and an int travel by value.
#include <offload/offload.hpp>

#include <cstdio>

constexpr int N = 1000;

struct axpy_params {
  double a;
  double b;
  int n;
};

OFFLOAD_KERNEL void iota(int (*out)[N], int start) {
  auto i = offload::global_id_x();
  if (i < N) (*out)[i] = start + int(i);
}

OFFLOAD_KERNEL void axpb(const int (*in)[N], double (*out)[N], axpy_params p) {
  auto i = offload::global_id_x();
  if (i < std::uint64_t(p.n)) (*out)[i] = p.a * (*in)[i] + p.b;
}

int main() {
  int in[N] = {};
  double out[N] = {};
  offload::launch(iota, {.workgroups = {(N + 63) / 64}, .threads = {64}}, &in, 7);
  offload::launch(axpb, {.workgroups = {(N + 127) / 128}, .threads = {128}}, &in, &out,
                  axpy_params{2.0, 0.5, N});
  for (int i = 0; i < N; ++i)
    if (in[i] != 7 + i || out[i] != 2.0 * (7 + i) + 0.5) {
      std::printf("FAIL at %d: in=%d out=%g\n", i, in[i], out[i]);
      return 1;
    }
  std::printf("two_kernels: all checks passed on %s\n", offload::last_launch_device().c_str());
}
