// tests/bad-inputs/run_cases.cpp — the run-time cases of the bad-input suite (cases.py): each
// subcommand does one wrong thing and lets offload::error go uncaught, so the program must end
// with exit status 1 and one line naming the kernel and the launch's file:line (the line marked
// "case:NAME" below). "intact" cases catch the error first and check the host data is untouched.
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

OFFLOAD_KERNEL void set(int (*x)[4], int v) {
  if (offload::thread_id_x() < 4)
    (*x)[offload::thread_id_x()] = v;
}

OFFLOAD_KERNEL void scale(std::span<double> x, double a) {
  std::size_t i = offload::global_id_x();
  if (i < x.size())
    x[i] *= a;
}

OFFLOAD_KERNEL void throws(int (*x)[4]) {
  if ((*x)[0] > 0)
    throw std::runtime_error("thrown in a kernel");
}

OFFLOAD_KERNEL void write_far(offload::device_ptr<double> x, std::size_t far) {
  x.get()[far] = 1.0;  // far beyond the allocation: a fault on a GPU
}

OFFLOAD_KERNEL void read_far(std::span<double> x, std::size_t far) {
  x[offload::global_id_x() % x.size()] = -1.0;  // writes first: the host's copy must not see it
  x[0] += x.data()[far];                          // far beyond the mapping: a fault
}

// A double* parameter maps ONE double; the kernel treats it as an array (through an address
// made from an integer, which the build's check on indexing a T* parameter cannot see).
OFFLOAD_KERNEL void past_copy(double *x, unsigned n) {
  if (unsigned i = offload::global_id_x(); i < n)
    *reinterpret_cast<double *>(reinterpret_cast<std::uintptr_t>(x) + i * sizeof(double)) = -1.0;
}

OFFLOAD_KERNEL void past_buffer(offload::device_ptr<double> x, unsigned n) {
  if (unsigned i = offload::global_id_x(); i < n)
    x[i] = -1.0;
}

OFFLOAD_KERNEL void big_locals(int (*x)[4]) {
  // More than a CPU work-item's default stack (128 KiB), of a size known only at run time: an
  // alloca keeps the fibers (work-item loops keep fixed-size locals off the stack).
  const unsigned n = 300000u + unsigned((*x)[0] & 1);
  volatile char *big = static_cast<volatile char *>(__builtin_alloca(n));
  big[0] = char((*x)[0]);
  offload::barrier();
  big[n - 1] = 1;
  (*x)[offload::thread_id_x() % 4] = big[0] + big[n - 1];
}

#pragma GCC diagnostic ignored "-Wterminate"  // the throw below is the case
OFFLOAD_KERNEL void throws_noexcept(int (*x)[4]) noexcept {
  if ((*x)[0] > 0)
    throw std::runtime_error("thrown in a noexcept kernel");
}

// Warp 0 waits at a shuffle that lanes 16..31 never reach: they wait at the barrier instead.
OFFLOAD_KERNEL void split_warp(int (*x)[4]) {
  int v = (*x)[offload::thread_id_x() % 4];
  if (offload::thread_id_x() < 16)
    v += offload::shuffle_down(v, 1);
  offload::barrier();
  (*x)[offload::thread_id_x() % 4] = v;
}

// Two halves of a warp at different warp operations, no barrier (adversarial pass of 2026-12-06).
OFFLOAD_KERNEL void split_warp_ops(int (*x)[4]) {
  const unsigned t = offload::thread_id_x();
  long long v;
  if (t < 16)
    v = offload::shuffle((long long)t, 20);  // two words: two exchanges
  else
    v = 100 + offload::shuffle_xor((int)t, 1);  // one
  if (t == 0)
    (*x)[0] = int(v);
}

void not_marked(int (*x)[4]) { (*x)[0] = 99; }

// The same in a noexcept kernel: the waiting work-items must not be unwound (std::terminate).
OFFLOAD_KERNEL void split_warp_noexcept(int (*x)[4]) noexcept {
  int v = (*x)[offload::thread_id_x() % 4];
  if (offload::thread_id_x() < 16)
    v += offload::shuffle_down(v, 1);
  else
    offload::barrier();
  (*x)[offload::thread_id_x() % 4] = v;
}

int x[4] = {1, 2, 3, 4};

/// Runs `f`, which must throw offload::error; then checks `data` is still `expected` and
/// rethrows, so the program still ends on the error.
void expect_intact(const std::function<void()> &f, const std::vector<double> &data,
                   const std::vector<double> &expected) {
  try {
    f();
  } catch (const offload::error &) {
    if (data != expected) {
      std::fprintf(stderr, "HOST DATA CHANGED by a failed launch\n");
      std::exit(3);
    }
    std::fprintf(stderr, "host data intact\n");
    throw;
  }
  std::fprintf(stderr, "no error\n");
  std::exit(4);
}

int main(int argc, char **argv) {
  std::vector<double> v(1000, 2.0);
  const std::vector<double> original = v;
  std::map<std::string, std::function<void()>> cases = {
      {"empty-grid", [] { offload::launch(set, {.workgroups = {0, 1, 1}}, &x, 9); /* case:empty-grid */ }},
      {"empty-threads", [] { offload::launch(set, {.threads = {4, 0, 1}}, &x, 9); /* case:empty-threads */ }},
      {"workgroup-too-large", [] { offload::launch(set, {.threads = {2048}}, &x, 9); /* case:workgroup-too-large */ }},
      {"workgroup-z-too-large", [] { offload::launch(set, {.threads = {1, 1, 128}}, &x, 9); /* case:workgroup-z-too-large */ }},
      {"grid-too-large", [] { offload::launch(set, {.workgroups = {1, 70000, 1}}, &x, 9); /* case:grid-too-large */ }},
      {"invalid-device", [] { offload::launch(set, {.device = 7}, &x, 9); /* case:invalid-device */ }},
      {"negative-device", [] { offload::launch(set, {.device = -9}, &x, 9); /* case:negative-device */ }},
      {"mandatory", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:mandatory */ }},
      {"intact-launch", [&] {
         expect_intact([&] { offload::launch(scale, {.workgroups = {4}, .threads = {4096}}, std::span(v), 3.0); /* case:intact-launch */ },
                       v, original);
       }},
      {"intact-queue", [&] {
         expect_intact([&] {
           offload::queue q;
           q.launch(scale, {.workgroups = {0}}, std::span(v), 3.0); /* case:intact-queue */
           q.wait();
         }, v, original);
       }},
      {"queue-bad-device", [] { offload::queue q(5); /* case:queue-bad-device */ }},
      {"region-bad-device", [&] {
         auto r = offload::data_region({.device = 6}, offload::tofrom(std::span(v))); /* case:region-bad-device */
         (void)r;
       }},
      {"buffer-bad-device", [] { offload::buffer<double> b(10, 8); /* case:buffer-bad-device */ }},
      {"buffer-too-large", [] { offload::buffer<double> b(std::size_t(1) << 57); /* case:buffer-too-large */ }},
      {"buffer-copy-too-large", [&] {
         offload::buffer<double> b(10);
         b.copy_from(std::span<const double>(v)); /* case:buffer-copy-too-large */
       }},
      {"queue-copy-too-large", [&] {
         offload::buffer<double> b(10);
         offload::queue q;
         q.copy(b, std::span<const double>(v)); /* case:queue-copy-too-large */
       }},
      {"describe-bad-device", [] { offload::describe_device(42); /* case:describe-bad-device */ }},
      {"gpu-out-of-bounds", [] {
         offload::buffer<double> b(16);
         offload::launch(write_far, {}, b.data(), std::size_t(1) << 40); /* case:gpu-out-of-bounds */
         offload::synchronize();  // the launch brings nothing back: it returned before the kernel ended
         std::printf("the out-of-bounds write was not caught (%s)\n", offload::last_launch_device().c_str());
       }},
      {"gpu-deferred-fault-then-launch", [&] {
         expect_intact([&] {
           offload::buffer<double> b(16);
           offload::launch(write_far, {}, b.data(), std::size_t(1) << 40); /* case:gpu-deferred-fault-then-launch */
           offload::launch(scale, {.workgroups = {4}, .threads = {256}}, std::span(v), 3.0);
         }, v, original);
       }},
      {"gpu-deferred-fault-at-exit", [] {
         auto *b = new offload::buffer<double>(16);  // never released: only the exit waits
         offload::launch(write_far, {}, b->data(), std::size_t(1) << 40); /* case:gpu-deferred-fault-at-exit */
         std::printf("returned before the kernel ended (%s)\n", offload::last_launch_device().c_str());
       }},
      {"gpu-queue-fault", [&] {
         expect_intact([&] {
           offload::queue q;
           q.launch(scale, {.workgroups = {4}, .threads = {256}}, std::span(v), 3.0);
           offload::buffer<double> b(16);
           q.launch(write_far, {}, b.data(), std::size_t(1) << 40); /* case:gpu-queue-fault */
           q.wait();
         }, v, original);
       }},
      {"gpu-buffer-too-large", [] {
         offload::buffer<double> b(std::size_t(1) << 37); /* case:gpu-buffer-too-large */
       }},
      {"env-bad-device", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-device */ }},
      {"env-bad-threads", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-threads */ }},
      {"env-bad-info", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-info */ }},
      {"env-stack-too-small", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-stack-too-small */ }},
      {"env-bad-spin", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-spin */ }},
      {"env-stack-too-large", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-stack-too-large */ }},
      {"env-bad-streams", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-streams */ }},
      {"env-bad-backend", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-backend */ }},
      {"buffer-bytes-overflow", [] { offload::buffer<double> b((std::size_t(1) << 61) + 1); /* case:buffer-bytes-overflow */ }},
      {"buffer-rounding-wraps", [] { offload::buffer<char> b(SIZE_MAX - 10); /* case:buffer-rounding-wraps */ }},
      {"throw-in-kernel", [] { offload::launch(throws, {.threads = {4}}, &x); /* case:throw-in-kernel */ }},
      {"throw-in-queued-kernel", [] {
         offload::queue q(offload::cpu_device);
         q.launch(throws, {.threads = {4}}, &x); /* case:throw-in-queued-kernel */
         q.wait();
       }},
      {"cpu-fault", [&] {
         expect_intact([&] {
           offload::launch(read_far, {.workgroups = {4}, .threads = {64}}, std::span(v), std::size_t(1) << 40); /* case:cpu-fault */
         }, v, original);
       }},
      {"cpu-fault-queued", [&] {
         expect_intact([&] {
           offload::queue q;
           q.launch(read_far, {.workgroups = {4}, .threads = {64}}, std::span(v), std::size_t(1) << 40); /* case:cpu-fault-queued */
           q.wait();
         }, v, original);
       }},
      {"cpu-write-past-copy", [&] {
         expect_intact([&] {
           offload::launch(past_copy, offload::range{v.size()}, v.data(), unsigned(v.size())); /* case:cpu-write-past-copy */
         }, v, original);
       }},
      {"cpu-write-past-buffer", [] {
         offload::buffer<double> b(100);
         offload::launch(past_buffer, offload::range{101}, b.data(), 101u); /* case:cpu-write-past-buffer */
       }},
      {"cpu-stack-overflow", [] {
         int before[4] = {1, 2, 3, 4};
         try {
           offload::launch(big_locals, {.threads = {8}}, &x); /* case:cpu-stack-overflow */
         } catch (const offload::error &) {
           if (std::memcmp(before, x, sizeof x) != 0) {
             std::fprintf(stderr, "HOST DATA CHANGED by a failed launch\n");
             std::exit(3);
           }
           throw;
         }
       }},
      {"pointer-to-unmarked-function", [] {
         void (*volatile f)(int (*)[4]) = not_marked;  // a pointer the build cannot follow
         offload::launch(f, {}, &x); /* case:pointer-to-unmarked-function */
         if (x[0] == 99) std::exit(3);
       }},
      {"warp-barrier-deadlock", [] { offload::launch(split_warp, {.threads = {64}}, &x); /* case:warp-barrier-deadlock */ }},
      {"warp-ops-diverge", [] { offload::launch(split_warp_ops, {.threads = {32}}, &x); /* case:warp-ops-diverge */ }},
      {"warp-barrier-deadlock-noexcept", [] {
         try {
           offload::launch(split_warp_noexcept, {.threads = {32}}, &x); /* case:warp-barrier-deadlock-noexcept */
         } catch (const offload::error &) {
           throw;  // caught and rethrown: it must be an offload::error, not std::terminate
         }
       }},
      {"dynamic-shared-1mib", [] { offload::launch(set, {.threads = {4}, .dynamic_shared_bytes = 1u << 20}, &x, 9); /* case:dynamic-shared-1mib */ }},
      {"dynamic-shared-4gib", [] { offload::launch(set, {.threads = {4}, .dynamic_shared_bytes = 0xffffffffu}, &x, 9); /* case:dynamic-shared-4gib */ }},
      {"queue-device-mismatch", [] {
         offload::queue q(offload::cpu_device);
         q.launch(set, {.threads = {4}, .device = 7}, &x, 9); /* case:queue-device-mismatch */
         q.wait();
       }},
      {"queue-destroyed-with-error", [] {
         offload::queue q;
         q.launch(set, {.workgroups = {0}}, &x, 9); /* case:queue-destroyed-with-error */
       }},
      {"throw-in-noexcept-kernel", [] { offload::launch(throws_noexcept, {.threads = {4}}, &x); /* case:throw-in-noexcept-kernel */ }},
      {"env-stack-garbage", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-stack-garbage */ }},
      {"env-stack-negative", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-stack-negative */ }},
      {"env-bad-cuda-schedule", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-cuda-schedule */ }},
      {"env-bad-profile", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-profile */ }},
      {"env-bad-trace", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-trace */ }},
      {"env-trace-folder", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-trace-folder */ }},
      // Two threads fail at once, neither catches: one line, exit 1 (not two exit()s at once).
      {"env-bad-device-two-threads", [] {
         auto fail = [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-device-two-threads */ };
         std::thread a(fail), b(fail);
         a.join();
         b.join();
       }},
      {"env-bad-omp-offload", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-bad-omp-offload */ }},
      {"span-bytes-overflow", [] {
         double d = 1;
         offload::launch(scale, {}, std::span<double>(&d, (std::size_t(1) << 61) + 1), 2.0); /* case:span-bytes-overflow */
       }},
      {"span-bad-pointer", [] {
         offload::launch(scale, {}, std::span<double>(reinterpret_cast<double *>(0x10), 100), 2.0); /* case:span-bad-pointer */
       }},
      {"env-stack-huge", [] { offload::launch(set, {.threads = {4}}, &x, 9); /* case:env-stack-huge */ }},
      {"size-t-grid-too-large", [] {
         const std::size_t n = std::size_t(1) << 45;
         offload::launch(set, {.workgroups = {(n + 255) / 256}}, &x, 9); /* case:size-t-grid-too-large */
       }},
  };
  if (argc != 2 || !cases.count(argv[1])) {
    std::fprintf(stderr, "usage: %s CASE\n", argv[0]);
    return 2;
  }
  cases[argv[1]]();
  std::printf("case %s: no error (ran on %s)\n", argv[1], offload::last_launch_device().c_str());
  return 0;
}
