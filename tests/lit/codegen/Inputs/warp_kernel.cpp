#include <offload/offload.hpp>
#include <cstdio>
#include <span>
OFFLOAD_KERNEL void rotate_lanes(std::span<unsigned> v) {
  const unsigned t = offload::thread_id_x();
  v[t] = offload::shuffle(v[t], (offload::lane_id() + 1) % 32);
}
int main() {
  unsigned v[64];
  for (unsigned i = 0; i < 64; ++i) v[i] = i;
  offload::launch(rotate_lanes, {.threads = {64}}, std::span(v));
  bool ok = true;
  for (unsigned i = 0; i < 64; ++i) ok &= v[i] == (i / 32) * 32 + (i % 32 + 1) % 32;
  std::printf("rotate_lanes: %s\n", ok ? "all checks passed" : "FAILED");
  return !ok;
}
