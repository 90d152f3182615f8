// bad input: the second definition of `dup` (defined-twice-a.cpp has the first).
#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>
OFFLOAD_KERNEL void dup(std::span<int> v) {
  if (auto i = offload::global_id_x(); i < v.size()) v[i] = 2;
}
int main() {
  std::vector<int> v(8);
  offload::launch(dup, offload::range{v.size()}, std::span(v));
  std::printf("%d\n", v[0]);
}
