// vecops: kernels shared by the library and the program.
#pragma once
#include <offload/offload.hpp>

#include <span>

namespace vecops {

// Generic: launched for float in scale.cpp and main.cpp (one device entry), for double in
// scale.cpp.
template <class T>
OFFLOAD_KERNEL void scale(std::span<T> x, T factor) {
  auto i = offload::global_id_x();
  if (i < x.size()) x[i] *= factor;
}

// Defined in iota.cpp (library), launched from main.cpp.
OFFLOAD_KERNEL void iota(std::span<long> v, long start);

long sum_iota(long n);             // iota.cpp: launches iota, sums the result
double scaled_sum(double factor);  // scale.cpp: scale<double> on 1000 ones
float scaled_sum(float factor);    // scale.cpp: scale<float> on 1000 ones
bool check(const char *what, double got, double expected);  // checks.cpp: prints a mismatch

} // namespace vecops
