// A queue's events on every device: an event is done only once everything enqueued before it has
// run, wait() returns then and not before, done() polls without waiting, several threads may
// wait for one event, and elapsed_ms between two events measures the work between them. On a
// GPU an event recorded on an idle queue is a mark on its stream that the waiting thread waits
// for (runtime/queue.cpp, issue 30's queue_launch_event_wait row); on the CPU device the queue's
// worker reaches it.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: queue_events: all checks passed
#include <offload/offload.hpp>
#include <chrono>

#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

OFFLOAD_KERNEL void spin_then_write(offload::device_ptr<unsigned> out, unsigned value, unsigned turns) {
  unsigned x = offload::global_id_x();
  for (unsigned t = 0; t < turns; ++t)  // a kernel that takes a while
    x = x * 1664525u + 1013904223u;
  out[offload::global_id_x()] = value + (x == 0xffffffffu ? 1u : 0u);  // (x kept: the loop runs)
}

int main() {
  const unsigned n = 1u << 16;
  offload::buffer<unsigned> out(n);
  std::vector<unsigned> got(n);
  int failures = 0;
  auto expect = [&](bool ok, const char *what) {
    if (!ok) {
      std::printf("FAILED: %s\n", what);
      ++failures;
    }
  };
  offload::queue q;
  // An event on a queue with nothing enqueued: reached (a new queue's worker may still be
  // starting, so done() may say "not yet" until then).
  offload::event idle = q.record();
  idle.wait();
  expect(idle.done(), "an event on an empty queue is done once waited for");
  for (unsigned round = 1; round <= 20; ++round) {
    q.launch(spin_then_write, {.workgroups = {n / 256}, .threads = {256}}, out.data(), round, 10u);
    offload::event e = q.record();
    e.wait();
    expect(e.done(), "done() after wait()");
    out.copy_to(std::span<unsigned>(got));
    if (got[0] != round || got[n - 1] != round) {
      std::printf("round %u: out[0] = %u, out[n-1] = %u after the event\n", round, got[0], got[n - 1]);
      ++failures;
      break;
    }
  }
  // Two events around a long kernel: the second's wait covers it, elapsed_ms is positive.
  offload::event before = q.record();
  q.launch(spin_then_write, {.workgroups = {n / 256}, .threads = {256}}, out.data(), 77u, 2000u);
  offload::event after = q.record();
  // Three threads wait for the same event while this one polls it.
  std::vector<std::thread> waiters;
  for (int t = 0; t < 3; ++t) waiters.emplace_back([&] { after.wait(); });
  while (!after.done()) std::this_thread::yield();
  for (std::thread &t : waiters) t.join();
  const double ms = offload::elapsed_ms(before, after);
  expect(ms > 0, "elapsed_ms around a kernel is positive");
  out.copy_to(std::span<unsigned>(got));
  expect(got[n / 2] == 77u, "the long kernel's result after its event");
  q.wait();
  // Events around one launch on a drained queue, host work between rounds (rodinia-streamcluster's
  // regions): both ends by one clock — the device's on a GPU — so the interval is never negative
  // and never longer than the host's own around record, launch and wait (it was 3x the device's
  // time: the first event took the host's clock, the second the device's).
  for (int round = 0; round < 20; ++round) {
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    const auto t0 = std::chrono::steady_clock::now();
    offload::event start = q.record();
    q.launch(spin_then_write, {.workgroups = {1}, .threads = {32}}, out.data(), 5u, 10u);
    offload::event stop = q.record();
    stop.wait();
    const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const double device_ms = offload::elapsed_ms(start, stop);
    if (!(device_ms >= 0 && device_ms <= host_ms + 0.002)) {
      std::printf("round %d: elapsed_ms %.4f against %.4f ms on the host\n", round, device_ms, host_ms);
      ++failures;
      break;
    }
    q.wait();
  }
  // A child of fork() cannot wait for an event its parent's queue has not reached: an error, not
  // a wait for ever (adversarial pass).
  {
    q.launch(spin_then_write, {.workgroups = {n / 256}, .threads = {256}}, out.data(), 9u, 2000u);
    offload::event pending = q.record();
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
      bool refused = false;
      try {
        pending.wait();
      } catch (const offload::error &e) {
        refused = std::string(e.what()).find("child process after fork()") != std::string::npos;
      }
      _exit(refused || pending.done() ? 0 : 3);
    }
    int status = 0;
    waitpid(child, &status, 0);
    expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a child's wait for a pending event is refused");
    pending.wait();
  }
  // An event not waited for, then the queue destroyed: its wait still returns.
  offload::event orphan;
  {
    offload::queue r;
    r.launch(spin_then_write, {.workgroups = {n / 256}, .threads = {256}}, out.data(), 5u, 100u);
    orphan = r.record();
  }
  orphan.wait();
  expect(orphan.done(), "an event of a destroyed queue");
  std::printf("queue_events: %s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
