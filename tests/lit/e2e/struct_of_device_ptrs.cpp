// A struct that holds offload::device_ptr members (a struct of device arrays, as CUDA programs
// pass them) is a kernel parameter, by value or through a mapped pointer: a device address
// travels as it is. It was refused as "a raw pointer member". (Found by a new user's port.)
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: struct_of_device_ptrs: all checks passed
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

struct arrays {
  offload::device_ptr<const double> x;
  offload::device_ptr<double> y;
  std::uint64_t n;
};

OFFLOAD_KERNEL void axpy_by_value(arrays a, double alpha) {
  if (auto i = offload::global_id_x(); i < a.n) a.y[i] += alpha * a.x[i];
}

OFFLOAD_KERNEL void axpy_through_pointer(const arrays *a, double alpha) {
  if (auto i = offload::global_id_x(); i < a->n) a->y[i] += alpha * a->x[i];
}

int main() {
  const std::size_t n = 1000;
  std::vector<double> x(n, 2.0), y(n, 1.0);
  offload::buffer<double> dx(n), dy(n);
  dx.copy_from(std::span<const double>(x));
  dy.copy_from(std::span<const double>(y));
  const arrays a{dx.data(), dy.data(), n};
  offload::launch(axpy_by_value, {.workgroups = {4}, .threads = {256}}, a, 0.5);
  offload::launch(axpy_through_pointer, {.workgroups = {4}, .threads = {256}}, &a, 0.25);
  dy.copy_to(std::span<double>(y));
  int bad = 0;
  for (double v : y) bad += v != 2.5;
  std::printf("struct_of_device_ptrs: %s\n", bad ? "FAILED" : "all checks passed");
  return bad != 0;
}
