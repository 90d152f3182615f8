// Issue 16's runtime, against what the adversarial pass found in it: a queue's wait() copies back
// an object that a later launch maps tofrom although an earlier one created its entry with to or
// alloc; a queue inherited by a fork()ed child is an error there, not a hang; fork() while
// another thread launches never leaves the child's launches waiting on a lock (a child of a
// parent that used a GPU launches on the CPU device); the retired
// OFFLOAD_GPU_STREAMS values are still accepted.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_GPU_STREAMS=off %t | FileCheck %s
// RUN: env OFFLOAD_GPU_STREAMS=liboffload %t | FileCheck %s
// CHECK: one_runtime: all checks passed
#include <offload/offload.hpp>

#include <atomic>
#include <cstdio>
#include <span>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

OFFLOAD_KERNEL void add(std::span<int> v, int by) {
  auto i = offload::global_id_x();
  if (i < v.size())
    v[i] += by;
}

int main() {
  int failures = 0;
  {  // to (or alloc), then tofrom, on one queue: the tofrom launch's result comes back.
    std::vector<int> v(4, 3), w(4, 3);
    offload::queue q;
    q.launch(add, offload::range{4}, offload::to(std::span(v)), 1);
    q.launch(add, offload::range{4}, std::span(v), 1);
    q.launch(add, offload::range{4}, offload::alloc(std::span(w)), 1);
    q.launch(add, offload::range{4}, std::span(w), 1);
    q.wait();
    // Chained launches on a queue share the device copy (nothing is copied between them), so
    // both additions are in it: 3 + 1 + 1, as on a GPU.
    if (v[0] != 5 || v[3] != 5) {
      std::printf("queue to+tofrom: %d\n", v[0]);
      ++failures;
    }
    if (w[0] == 3) {
      std::printf("queue alloc+tofrom: nothing came back\n");
      ++failures;
    }
  }
  {  // A queue with work pending, inherited by a child: its wait is an error there.
    std::vector<int> v(1000, 0);
    offload::queue q;
    q.launch(add, offload::range{1000}, std::span(v), 1);
    const pid_t child = fork();
    if (child == 0) {
      alarm(20);
      try {
        q.wait();
        _exit(3);
      } catch (const offload::error &e) {
        _exit(std::string(e.what()).find("after fork()") != std::string::npos ? 0 : 4);
      }
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::printf("child with an inherited queue: status %d\n", status);
      ++failures;
    }
    q.wait();
    if (v[0] != 1) {
      std::printf("parent's queue: %d\n", v[0]);
      ++failures;
    }
  }
  {  // fork() while another thread launches: the child's launch finishes.
    std::atomic<bool> stop{false};
    std::vector<int> background(100000, 0);
    std::thread t([&] {
      while (!stop)
        offload::launch(add, offload::range{100000}, std::span(background), 1);
    });
    int stuck = 0;
    for (int k = 0; k < 20; ++k) {
      const pid_t child = fork();
      if (child == 0) {
        alarm(10);
        std::vector<int> v(1000, 0);
        offload::launch(add, offload::range{1000}, std::span(v), 1);
        _exit(v[999] == 1 ? 0 : 5);
      }
      int status = 0;
      waitpid(child, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("child %d: %s %d\n", k, WIFEXITED(status) ? "exit status" : "signal",
                    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        ++stuck;
      }
    }
    stop = true;
    t.join();
    // A child of a parent that used a GPU cannot use it (the driver does not survive fork):
    // its default-device launches above ran on the CPU device; naming the GPU is an error.
    if (offload::gpu_count() > 0) {
      const pid_t child = fork();
      if (child == 0) {
        alarm(10);
        int x = 0;
        try {
          offload::launch(add, {.device = 0}, std::span(&x, 1), 1);
          _exit(6);
        } catch (const offload::error &e) {
          std::fprintf(stderr, "%s\n", e.what());
          _exit(std::string(e.what()).find("fork") != std::string::npos ? 0 : 7);
        }
      }
      int status = 0;
      waitpid(child, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("a child's launch on GPU 0: status %d\n", status);
        ++failures;
      }
    }
    if (stuck) {
      std::printf("%d of 20 children did not finish their launch\n", stuck);
      ++failures;
    }
  }
  std::printf("one_runtime: %s\n", failures ? "FAILED" : "all checks passed");
  return failures ? 1 : 0;
}
