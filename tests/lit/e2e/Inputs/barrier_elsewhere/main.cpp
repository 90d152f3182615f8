// A kernel whose only barrier is in sync.cpp's sync_all(): this file cannot see it.
#include <offload/offload.hpp>
#include <cstdio>
void sync_all();
OFFLOAD_KERNEL void reverse(int (*out)[64]) {
  auto &s = offload::shared<int[64]>([] {});
  const unsigned t = offload::thread_id_x();
  s[t] = int(t);
  sync_all();
  (*out)[t] = s[63 - t];
}
int main() {
  int o[64] = {};
  offload::launch(reverse, {.threads = {64}}, &o);
  bool ok = true;
  for (int t = 0; t < 64; ++t) ok &= o[t] == 63 - t;
  std::printf("barrier_elsewhere: %s\n", ok ? "ok" : "WRONG");
  return !ok;
}
