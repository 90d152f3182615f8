// A kernel's fault on the CPU device is an offload::error naming the kernel and its launch, as
// on a GPU (issue 14, item 5): an invalid access, an integer division by zero, a trap, a failed
// assert() (glibc prints its message, then abort()s: caught as the kernel's own SIGABRT), a
// work-item's stack overflow (barrier kernels run each work-item on a guarded stack of its own),
// in one workgroup or in many at once. Host data is as it was, the program may catch the error
// and launch again, and an uncaught fault ends it with exit status 1 and its output flushed.
// (The CPU device only: on a GPU a fault ends the program: bad-inputs gpu-out-of-bounds.)
// RUN: %offload-cxx -O1 %s -o %t
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=4 not %t > %t.out 2> %t.err
// A signal sent to the program (kill, raise) is not a kernel's fault: it ends the program as it
// would without offload-cxx (the handler forwards it), between launches and during one.
// RUN: env OFFLOAD_DEVICE=cpu not --crash %t raise-between
// RUN: env OFFLOAD_DEVICE=cpu not --crash %t raise-during
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=END < %t.err
// CHECK: read: kernel 'poke' launched at cpu_faults.cpp:[[#]] failed on CPU device (4 threads): invalid memory access at address 0x{{[0-9a-f]+}} (SIGSEGV); the host's data is as it was before the launch
// CHECK: divide: kernel 'divide' launched at {{.*}}(SIGFPE
// CHECK: trap: kernel 'trap' launched at {{.*}}trapped (SIGILL)
// CHECK: assert: kernel 'checked' launched at {{.*}}the kernel aborted (SIGABRT: a failed assert() or a call to abort(), whose message is above)
// CHECK: assert after a barrier: kernel 'assert_after_barrier' launched at {{.*}}the kernel aborted (SIGABRT
// END: cpu_faults.cpp:[[#]]: {{.*}}checked{{.*}}: Assertion `i % 100 != 42 && "no work-item 42"' failed.
// CHECK: stack: kernel 'deep_locals' launched at {{.*}}a work-item overflowed its stack of 128 KiB
// CHECK: queued: kernel 'poke' launched at {{.*}}(SIGSEGV)
// CHECK: stack after 40 faults: kernel 'deep_locals' launched at {{.*}}a work-item overflowed its stack of 128 KiB
// CHECK: after the faults: all checks passed
// END: offload-cxx: error: kernel 'poke' launched at cpu_faults.cpp:[[#]] failed on CPU device
#include <offload/offload.hpp>

#include <cassert>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>

#include <signal.h>
#include <unistd.h>
#include <span>
#include <vector>

OFFLOAD_KERNEL void poke(std::span<int> s, long far) {
  const auto i = offload::global_id_x();
  if (i < s.size()) s[i] = -1;          // written first: the host must never see it
  if (i % 7 == 3) s.data()[far] = 1;    // far outside: every few work-items fault
}

OFFLOAD_KERNEL void divide(std::span<int> s, int by) {
  if (auto i = offload::global_id_x(); i < s.size()) s[i] = s[i] / by;
}

OFFLOAD_KERNEL void checked(std::span<int> s) {
  const auto i = offload::global_id_x();
  if (i < s.size()) {
    s[i] = -1;
    assert(i % 100 != 42 && "no work-item 42");  // several work-items, on several threads
  }
}

OFFLOAD_KERNEL void assert_after_barrier(int *x) {
  offload::barrier();
  assert(offload::thread_id_x() != 3);
  *x = 1;
}

OFFLOAD_KERNEL void trap(int *x) {
  *x = 1;
  __builtin_trap();
}

// A stack array of run-time size keeps the kernel on fibers (other barrier kernels are
// work-item loops, whose stack objects live in a per-thread buffer: big_locals below).
OFFLOAD_KERNEL void deep_locals(int *x) {
  const unsigned n = 400000u + unsigned(*x & 1);
  volatile char *big = static_cast<volatile char *>(__builtin_alloca(n));
  big[0] = 1;
  offload::barrier();
  big[n - 1] = 2;
  *x = big[0] + big[n - 1];
}

// Every caught fault abandons a workgroup of 1024 fibers: their stacks must be reused (they
// were leaked, until the guard pages of new stacks could no longer be made).
OFFLOAD_KERNEL void fault_in_barrier_kernel(int *x) {
  if (offload::local_linear_id() == 5)
    *(int *volatile)nullptr = 1;
  volatile char *keep = static_cast<volatile char *>(__builtin_alloca(1u + unsigned(*x & 1)));
  keep[0] = 0;  // a run-time alloca: fibers, as deep_locals
  offload::barrier();
  *x = 1;
}

OFFLOAD_KERNEL void spin(long n, long *sum) {
  for (volatile long i = 0; i < n; i = i + 1)
    *sum += i;
}

OFFLOAD_KERNEL void add_one(std::span<int> s) {
  if (auto i = offload::global_id_x(); i < s.size()) s[i] += 1;
}

int failures = 0;

template <class F> void expect_fault(const char *what, std::vector<int> &data, F &&launch) {
  const std::vector<int> before = data;
  try {
    launch();
    std::printf("%s: no error\n", what);
    ++failures;
  } catch (const offload::error &e) {
    std::printf("%s: %s\n", what, e.what() + sizeof("offload-cxx: error:"));
  }
  if (data != before) {
    std::printf("%s: HOST DATA CHANGED\n", what);
    ++failures;
  }
}

int main(int argc, char **argv) {
  if (argc > 1) {  // raise-between, raise-during: must end by the signal
    std::vector<int> w(4, 0);
    offload::launch(add_one, {.threads = {4}}, std::span(w));  // installs the fault handlers
    if (std::string(argv[1]) == "raise-between") {
      std::raise(SIGFPE);
    } else {  // sent while a kernel runs (to the process: whichever thread takes it)
      std::thread sender([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        kill(getpid(), SIGFPE);
      });
      long sum = 0;
      offload::launch(spin, {}, 4000000000L, &sum);
      sender.join();
    }
    std::printf("the signal was swallowed\n");
    return 0;
  }
  std::vector<int> v(4096, 6);
  int x = 0;
  std::vector<int> one(1, 0);
  expect_fault("read", v, [&] {
    offload::launch(poke, {.workgroups = {64}, .threads = {64}}, std::span(v), 1L << 40);
  });
  expect_fault("divide", v, [&] {
    offload::launch(divide, {.workgroups = {64}, .threads = {64}}, std::span(v), 0);
  });
  expect_fault("trap", one, [&] { offload::launch(trap, {}, &x); });
  expect_fault("assert", v, [&] {
    offload::launch(checked, {.workgroups = {16}, .threads = {256}}, std::span(v));
  });
  expect_fault("assert after a barrier", one,
               [&] { offload::launch(assert_after_barrier, {.threads = {8}}, &x); });
  expect_fault("stack", one, [&] { offload::launch(deep_locals, {.threads = {4}}, &x); });
  expect_fault("queued", v, [&] {
    offload::queue q;
    q.launch(poke, {.workgroups = {64}, .threads = {64}}, std::span(v), 1L << 40);
    q.wait();
  });
  for (int i = 0; i < 40; ++i)
    try {
      offload::launch(fault_in_barrier_kernel, {.threads = {1024}}, &x);
    } catch (const offload::error &) {
    }
  expect_fault("stack after 40 faults", one,
               [&] { offload::launch(deep_locals, {.threads = {4}}, &x); });
  // The CPU device still works, on every thread of its pool.
  for (int round = 0; round < 3; ++round)
    offload::launch(add_one, {.workgroups = {64}, .threads = {64}}, std::span(v));
  for (int e : v)
    if (e != 9) {
      ++failures;
      break;
    }
  std::printf("after the faults: %s\n", failures ? "FAILED" : "all checks passed");
  // Uncaught: exit status 1, the output above flushed (stdout is a file here, fully buffered).
  offload::launch(poke, {.workgroups = {4}, .threads = {64}}, std::span(v), 1L << 40);
  return 0;
}
