// A kernel in a static library that only links OffloadCxx::runtime.
#include <offload/offload.hpp>

#include <span>

OFFLOAD_KERNEL void twice(std::span<int> v) {
  auto i = offload::thread_id_x() + offload::block_id_x() * offload::block_dim_x();
  if (i < v.size()) v[i] *= 2;
}
