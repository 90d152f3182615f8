#include <offload/offload.hpp>
#include <cstdio>
#include <span>
OFFLOAD_KERNEL void rotate_lanes(std::span<unsigned> v) {
  const unsigned t = offload::thread_id_x();
  v[t] = offload::shuffle(v[t], (offload::lane_id() + 1) % 32);
}
// Work-items past n leave before the ballot: not in lockstep, and the ballot counts only the
// lanes that took part.
OFFLOAD_KERNEL void ragged_ballot(std::span<unsigned long long> bits, unsigned n) {
  const unsigned t = offload::thread_id_x();
  if (t >= n)
    return;
  const unsigned long long b = offload::ballot(t % 3 == 0);
  if (offload::lane_id() == 0)
    bits[t / 32] = b;
}
int main() {
  unsigned v[64];
  for (unsigned i = 0; i < 64; ++i) v[i] = i;
  offload::launch(rotate_lanes, {.threads = {64}}, std::span(v));
  bool ok = true;
  for (unsigned i = 0; i < 64; ++i) ok &= v[i] == (i / 32) * 32 + (i % 32 + 1) % 32;
  std::printf("rotate_lanes: %s\n", ok ? "all checks passed" : "FAILED");
  unsigned long long bits[2] = {};
  offload::launch(ragged_ballot, {.threads = {64}}, std::span(bits), 40u);
  unsigned long long want[2] = {};
  for (unsigned t = 0; t < 40; ++t)
    if (t % 3 == 0) want[t / 32] |= 1ull << (t % 32);
  const bool ballot_ok = bits[0] == want[0] && bits[1] == want[1];
  std::printf("ragged_ballot: %s\n", ballot_ok ? "all checks passed" : "FAILED");
  return !(ok && ballot_ok);
}
