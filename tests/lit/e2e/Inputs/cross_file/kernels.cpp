#include <offload/offload.hpp>
#include <span>
float helper(float x);
OFFLOAD_KERNEL void apply(std::span<float> v) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] = helper(v[i]);
}
// Each work-item reads its right neighbour's value, which only a barrier makes safe.
OFFLOAD_KERNEL void rotate(int (*x)[64]) {
  auto &tile = offload::shared<int[64]>([] {});
  const unsigned i = offload::thread_id_x();
  tile[i] = (*x)[i];
  offload::barrier();
  (*x)[i] = tile[(i + 1) % 64];
}
template <class T> T triple(T x);
extern template int triple<int>(int);
OFFLOAD_KERNEL void triple_all(int (*x)[8]) { (*x)[offload::thread_id_x()] = triple((*x)[offload::thread_id_x()]); }
// A barrier in a plain function of this file, reached by a kernel of another file (main.cpp).
void meet_here() { offload::barrier(); }
