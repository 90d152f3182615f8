// fork() while other threads launch, profiled or traced: the parent went on (it hung in fork()
// for good under OFFLOAD_PROFILE or OFFLOAD_TRACE — the profiler's fork handler took its lock
// before the present table's, which a launch holds while it takes the profiler's: adversarial
// pass). Each run is bounded by `timeout`: a hang is a failure, not a stuck test.
// RUN: rm -rf %t.d && mkdir -p %t.d && %offload-cxx -O1 %s -o %t.d/fork
// RUN: cd %t.d && env OFFLOAD_DEVICE=cpu timeout 120 ./fork | FileCheck %s
// RUN: cd %t.d && env OFFLOAD_DEVICE=cpu OFFLOAD_PROFILE=1 timeout 120 ./fork 2>/dev/null | FileCheck %s
// RUN: cd %t.d && env OFFLOAD_DEVICE=cpu OFFLOAD_TRACE=t.%%p.json timeout 120 ./fork | FileCheck %s
// CHECK: fork_while_launching: 100 children, launches right
#include <offload/offload.hpp>
#include <atomic>
#include <cstdio>
#include <span>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

OFFLOAD_KERNEL void inc(std::span<int> v) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i]++;
}

int main() {
  std::atomic<bool> stop{false}, wrong{false};
  std::vector<std::thread> launchers;
  for (int t = 0; t < 2; ++t)
    launchers.emplace_back([&] {
      std::vector<int> w(4096);
      int rounds = 0;
      while (!stop) {
        offload::launch(inc, offload::range{w.size()}, std::span(w));
        ++rounds;
      }
      for (int x : w)
        if (x != rounds) wrong = true;
    });
  int children = 0;
  for (int r = 0; r < 100; ++r) {
    pid_t p = fork();
    if (p == 0) _exit(0);
    int status = 0;
    if (p > 0 && waitpid(p, &status, 0) == p && WIFEXITED(status) && WEXITSTATUS(status) == 0) ++children;
  }
  stop = true;
  for (std::thread &t : launchers) t.join();
  std::printf("fork_while_launching: %d children, launches %s\n", children, wrong ? "WRONG" : "right");
  return wrong || children != 100;
}
