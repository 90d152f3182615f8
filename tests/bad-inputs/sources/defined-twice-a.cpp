// bad input: the kernel `dup` is defined here and in defined-twice-b.cpp (a GPU build's device
// link must say so in one line, as the host link does).
#include <offload/offload.hpp>
#include <span>
OFFLOAD_KERNEL void dup(std::span<int> v) {
  if (auto i = offload::global_id_x(); i < v.size()) v[i] = 1;
}
