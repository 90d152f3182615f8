// examples/data-model — three files, four kernels (one generic, used with double and float),
// a data region around ten chained launches over device-resident data, a device buffer, an
// asynchronous queue, and a struct passed by value. Built file by file with -c, then linked:
//
//   offload-cxx -c -O2 main.cpp field.cpp stats.cpp && offload-cxx main.o field.o stats.o -o data-model
#pragma once
#include <offload/offload.hpp>

#include <cstdint>
#include <span>

/// Multiplies every element by `factor` (generic: used with double and float).
template <class T>
OFFLOAD_KERNEL void scale(std::span<T> v, T factor) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] *= factor;
}

/// A three-point stencil's coefficients, passed by value (32 bytes).
struct stencil {
  double left, centre, right;
  std::uint64_t n;
};

/// out[i] = left*in[i-1] + centre*in[i] + right*in[i+1] (edges copied). field.cpp.
OFFLOAD_KERNEL void smooth(stencil s, std::span<const double> in, std::span<double> out);

/// v[i] = start + i * step. field.cpp.
OFFLOAD_KERNEL void ramp(std::span<double> v, double start, double step);

/// Partial sums: sums[b] = sum of block b's elements (one work-item per block). stats.cpp.
OFFLOAD_KERNEL void block_sums(offload::device_ptr<const double> v, std::uint64_t n,
                               std::uint64_t block, std::span<double> sums);

double sum_on_device(const offload::buffer<double> &v, std::uint64_t n);  // stats.cpp
