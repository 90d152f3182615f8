// A child forked while another thread of its parent makes the process's first launch runs its
// own launches (adversarial pass, 2026-12-05: it waited for ever on the guard of a first-use
// object the parent's thread was making — the GPU table, the CPU device, its tables' fork
// handlers). Each trial is a fresh process (the first launch is made once per process) that
// forks at a different moment of its first launch; a child still running after 10 s is a hang.
// RUN: %offload-cxx -O2 %s -o %t && env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: env OFFLOAD_CPU_THREADS=3 %t | FileCheck %s
// CHECK: fork during the first launch: 40 of 40 trials ran
#include <offload/offload.hpp>

#include <cstdio>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

OFFLOAD_KERNEL void count(unsigned &c) { offload::atomic_add(&c, 1u); }

/// 0: both ran; 1: the grandchild hung; 2: it ran wrong.
static int trial(int delay_us) {
  std::thread first([] {
    unsigned c = 0;
    offload::launch(count, {.workgroups = {4}, .threads = {8}}, c);
  });
  usleep(static_cast<useconds_t>(delay_us));
  const pid_t p = fork();
  if (p == 0) {
    unsigned c = 0;
    offload::launch(count, {.workgroups = {4}, .threads = {8}}, c);
    _exit(c == 32 ? 0 : 3);
  }
  first.join();
  int status = 0, waited = 0;
  for (; waited < 500 && waitpid(p, &status, WNOHANG) != p; ++waited)
    usleep(20000);
  if (waited == 500) {
    kill(p, SIGKILL);
    waitpid(p, &status, 0);
    return 1;
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 2;
}

int main() {
  int ran = 0;
  for (int t = 0; t < 40; ++t) {
    const pid_t p = fork();  // a fresh process: no launch made yet
    if (p == 0)
      _exit(trial(t * 7 % 300));
    int status = 0;
    waitpid(p, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      ++ran;
    else
      std::printf("trial %d: %s\n", t, WIFEXITED(status) && WEXITSTATUS(status) == 1 ? "the child hung" : "wrong");
  }
  std::printf("fork during the first launch: %d of 40 trials ran\n", ran);
  return ran == 40 ? 0 : 1;
}
