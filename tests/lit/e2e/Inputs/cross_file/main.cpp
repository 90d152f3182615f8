#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>
OFFLOAD_KERNEL void apply(std::span<float> v);
OFFLOAD_KERNEL void rotate(int (*x)[64]);
OFFLOAD_KERNEL void triple_all(int (*x)[8]);
void log_host(const char *what);
void meet_here();
// Its barrier is in another file's function: this file cannot see it, the link can (the kernel
// becomes work-item loops there, split at that barrier).
OFFLOAD_KERNEL void rotate_far(int (*x)[64]) {
  auto &tile = offload::shared<int[64]>([] {});
  const unsigned i = offload::thread_id_x();
  tile[i] = (*x)[i];
  meet_here();
  (*x)[i] = tile[(i + 1) % 64];
}
int main() {
  std::vector<float> v(300, 4.0f);
  offload::launch(apply, {.workgroups = {(v.size() + 127) / 128}, .threads = {128}}, v);
  int x[64];
  for (int i = 0; i < 64; ++i) x[i] = i;
  offload::launch(rotate, {.threads = {64}}, &x);
  bool rotated = true;
  for (int i = 0; i < 64; ++i) rotated &= x[i] == (i + 1) % 64;
  for (int i = 0; i < 64; ++i) x[i] = i;
  offload::launch(rotate_far, {.threads = {64}}, &x);
  for (int i = 0; i < 64; ++i) rotated &= x[i] == (i + 1) % 64;
  int t[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  offload::launch(triple_all, {.threads = {8}}, &t);
  const bool tripled = t[7] == 24 && t[0] == 3;
  log_host("launched");
  std::printf("cross_file: helper %s, barrier %s, template %s\n",
              v[299] == 3.0f ? "all checks passed" : "FAILED",
              rotated ? "all checks passed" : "FAILED", tripled ? "all checks passed" : "FAILED");
  return !(v[299] == 3.0f && rotated && tripled);
}
