// What the adversarial pass of issue 16's second round found, made into checks: a buffer
// destroyed under pending queued launches waits for them (before, they wrote into memory the
// heap had handed to someone else); a child of fork() whose parent used a queue exits (before,
// destroying its copy of the queue hung it); a child never waits for the parent's queue work
// when it destroys its copy; a launch that faults inside a data region leaves the host data as
// it was when the region ends (before, the region's end copied the partial writes back).
// RUN: %offload-cxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: queue_lifetimes: all checks passed
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

OFFLOAD_KERNEL void add1(offload::device_ptr<double> v, std::uint64_t n) {
  auto i = offload::global_id_x();
  if (i < n)
    v[i] += 1.0;
}

OFFLOAD_KERNEL void adds(std::span<double> v, double by) {
  auto i = offload::global_id_x();
  if (i < v.size())
    v[i] += by;
}

OFFLOAD_KERNEL void write_then_fault(std::span<double> v, std::uint64_t far) {
  auto i = offload::global_id_x();
  if (i < v.size())
    v[i] = 7;
  if (i == 0)
    *reinterpret_cast<volatile double *>(far) = 1;
}

int main() {
  int failures = 0;
  const offload::launch_config cfg{.workgroups = {1}, .threads = {64}};
  {  // A buffer destroyed with queued launches on it pending.
    for (int round = 0; round < 20; ++round) {
      offload::queue q;
      {
        offload::buffer<double> b(64);
        std::vector<double> h(64, 1.0);
        b.copy_from(h);
        for (int k = 0; k < 20; ++k)
          q.launch(add1, cfg, b.data(), std::uint64_t(64));
      }
      auto *unrelated = new std::vector<double>(64, 5.0);
      q.wait();
      if ((*unrelated)[0] != 5 || (*unrelated)[63] != 5) {
        std::printf("round %d: memory reused under queued launches: %g\n", round, (*unrelated)[0]);
        ++failures;
        break;
      }
      delete unrelated;
    }
  }
  {  // fork() after a waited queue: the child exits; with a pending queue too.
    std::vector<double> u(1024, 0.0);
    offload::queue q;
    q.launch(adds, cfg, std::span(u), 1.0);
    q.wait();
    for (int pending = 0; pending < 2; ++pending) {
      if (pending)
        q.launch(adds, cfg, std::span(u), 1.0);
      const pid_t child = fork();
      if (child == 0) {
        alarm(20);
        {
          offload::queue mine;  // a queue of the child's own works
          std::vector<double> w(64, 1.0);
          mine.launch(adds, cfg, std::span(w), 1.0);
          mine.wait();
          if (w[0] != 2)
            _exit(5);
        }
        return 0;  // and its copy of the parent's queue is destroyed: nothing to wait for here
      }
      int status = 0;
      waitpid(child, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("child (parent's queue %s): status %d\n", pending ? "pending" : "idle", status);
        ++failures;
      }
    }
    q.wait();
    if (u[0] != 2) {
      std::printf("parent's queue: %g\n", u[0]);
      ++failures;
    }
  }
  {  // A fault inside a data region: the region's end copies nothing back. On the CPU device
     // the launch reports it; on a GPU the launch (its object held by the region) returns at
     // once and the region's end reports it, from the region's destructor.
    std::vector<double> v(64, 3.0);
    bool on_cpu = false, reported = false;
    try {
      offload::data_region r({}, std::span(v));
      offload::launch(adds, cfg, std::span(v), 1.0);
      on_cpu = offload::last_launch_device().rfind("CPU", 0) == 0;
      offload::launch(write_then_fault, cfg, std::span(v), std::uint64_t(0x10));
    } catch (const offload::error &e) {
      reported = std::string(e.what()).find("write_then_fault") != std::string::npos;
      if (!reported)
        std::printf("unexpected error: %s\n", e.what());
    }
    if (!reported) {
      std::printf("the fault was not reported\n");
      ++failures;
    }
    if (v[0] != 3 || v[1] != 3 || v[63] != 3) {
      std::printf("after the region: v[0]=%g v[1]=%g v[63]=%g, expected 3 (as before it)\n", v[0],
                  v[1], v[63]);
      ++failures;
    }
    // The CPU device is still usable (a GPU's context is not after a fault).
    if (on_cpu)
      offload::launch(adds, cfg, std::span(v), 1.0);
    if (on_cpu && v[0] != 4) {
      std::printf("a launch after the fault: %g\n", v[0]);
      ++failures;
    }
  }
  std::printf("queue_lifetimes: %s\n", failures ? "FAILED" : "all checks passed");
  return failures ? 1 : 0;
}
