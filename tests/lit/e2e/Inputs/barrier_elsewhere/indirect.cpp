// A barrier reached through a function pointer the compiler cannot resolve (chosen by an
// argument): the work-items must still meet.
#include <offload/offload.hpp>
#include <cstdio>
void meet() { offload::barrier(); }
void pass() {}
OFFLOAD_KERNEL void reverse_via(int (*out)[64], int which) {
  auto &s = offload::shared<int[64]>([] {});
  void (*const table[2])() = {&pass, &meet};
  const unsigned t = offload::thread_id_x();
  s[t] = int(t);
  table[which & 1]();
  (*out)[t] = s[63 - t];
}
int main(int argc, char **) {
  int o[64] = {};
  offload::launch(reverse_via, {.threads = {64}}, &o, argc);  // argc = 1: meet()
  bool ok = true;
  for (int t = 0; t < 64; ++t) ok &= o[t] == 63 - t;
  std::printf("indirect: %s\n", ok ? "ok" : "WRONG");
  return !ok;
}
