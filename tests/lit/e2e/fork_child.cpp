// A child process launches after fork(), also when the parent launched before (the CPU device's
// worker threads stayed in the parent: the child runs its launches on its one thread), with a
// barrier kernel too. Issue 14, item 6. (CPU device only: a GPU context does not survive fork.)
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: child: all checks passed
// CHECK: fork_child: all checks passed
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

OFFLOAD_KERNEL void inc(std::span<int> s) {
  auto i = offload::global_id_x();
  if (i < s.size()) s[i] += 1;
}

OFFLOAD_KERNEL void rotate(int (*x)[64]) {
  auto &tile = offload::shared<int[64]>([] {});
  const unsigned i = offload::thread_id_x();
  tile[i] = (*x)[i];
  offload::barrier();
  (*x)[i] = tile[(i + 1) % 64];
}

int main() {
  std::vector<int> v(4096, 0);
  offload::launch(inc, {.workgroups = {16}, .threads = {256}, .device = offload::cpu_device}, std::span(v));  // pool started
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    offload::launch(inc, {.workgroups = {16}, .threads = {256}, .device = offload::cpu_device}, std::span(v));
    int x[64];
    for (int i = 0; i < 64; ++i) x[i] = i;
    offload::launch(rotate, {.threads = {64}, .device = offload::cpu_device}, &x);
    const bool ok = v[4095] == 2 && v[0] == 2 && x[0] == 1 && x[63] == 0;
    std::printf("child: %s\n", ok ? "all checks passed" : "FAILED");
    std::fflush(stdout);
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  offload::launch(inc, {.workgroups = {16}, .threads = {256}, .device = offload::cpu_device}, std::span(v));
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && v[4095] == 2;
  std::printf("fork_child: %s\n", ok ? "all checks passed" : "FAILED");
  return ok ? 0 : 1;
}
