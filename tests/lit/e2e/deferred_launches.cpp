// Launches that bring nothing back return before their kernels end on a GPU (issue 16): whatever
// could see a kernel's effects waits for it first — a buffer's copy, a data region's end, a
// launch whose arguments come back, a launch from another thread or a queue, a buffer's release
// and reuse, offload::synchronize(). On the CPU device every launch runs as it is made; the
// results are the same. (GPU faults of such launches: bad-inputs gpu-deferred-fault-*.)
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_LAUNCH_BLOCKING=1 %t | FileCheck %s
// RUN: env OFFLOAD_LAUNCH_BLOCKING=2 not %t 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: deferred_launches: all checks passed
// BAD: offload-cxx: error: {{.*}}OFFLOAD_LAUNCH_BLOCKING=2 is not understood
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <thread>
#include <vector>

OFFLOAD_KERNEL void add_one(offload::device_ptr<long> v, std::size_t n) {
  const auto i = offload::global_id_x();
  if (i < n)
    v[i] += 1;
}

OFFLOAD_KERNEL void fill(offload::device_ptr<long> v, std::size_t n, long value) {
  const auto i = offload::global_id_x();
  if (i < n)
    v[i] = value;
}

OFFLOAD_KERNEL void add_span(std::span<long> v, long by) {
  const auto i = offload::global_id_x();
  if (i < v.size())
    v[i] += by;
}

OFFLOAD_KERNEL void sum_into(offload::device_ptr<const long> v, std::size_t n, long *out) {
  if (offload::global_id_x() == 0) {
    long s = 0;
    for (std::size_t i = 0; i < n; ++i)
      s += v[i];
    *out = s;
  }
}

int main() {
  int failures = 0;
  auto expect = [&](const char *what, long got, long want) {
    if (got != want) {
      std::printf("%s: %ld, expected %ld\n", what, got, want);
      ++failures;
    }
  };
  constexpr std::size_t n = 1 << 20;
  const offload::range all{n};

  {  // 200 launches on a buffer, then its copy: every one of them is in it.
    offload::buffer<long> b(n);
    offload::launch(fill, all, b.data(), n, 0L);
    for (int k = 0; k < 200; ++k)
      offload::launch(add_one, all, b.data(), n);
    std::vector<long> h(n);
    b.copy_to(h);
    expect("copy after 200 launches, first", h[0], 200);
    expect("copy after 200 launches, last", h[n - 1], 200);
  }
  {  // A launch whose argument comes back sees the launches before it.
    offload::buffer<long> b(n);
    offload::launch(fill, all, b.data(), n, 3L);
    long sum = 0;
    offload::launch(sum_into, {}, b.data(), n, &sum);
    expect("sum after fill", sum, 3L * long(n));
  }
  {  // Another thread's launch and copy see this thread's launches.
    offload::buffer<long> b(n);
    offload::launch(fill, all, b.data(), n, 5L);
    for (int k = 0; k < 20; ++k)
      offload::launch(add_one, all, b.data(), n);
    long seen = 0;
    std::thread([&] {
      offload::launch(add_one, all, b.data(), n);  // on the thread's own stream
      std::vector<long> h(n);
      b.copy_to(h);
      seen = h[n / 2];
    }).join();
    expect("another thread", seen, 26);
  }
  {  // A thread that launches and ends: its launches are done for whoever copies next.
    offload::buffer<long> b(n);
    offload::launch(fill, all, b.data(), n, 0L);
    offload::synchronize();
    std::thread([&] {
      for (int k = 0; k < 30; ++k)
        offload::launch(add_one, all, b.data(), n);
    }).join();
    std::vector<long> h(n);
    b.copy_to(h);
    expect("a finished thread's launches", h[7], 30);
  }
  {  // A queue after plain launches runs after them.
    offload::buffer<long> b(n);
    offload::launch(fill, all, b.data(), n, 1L);
    offload::queue q;
    for (int k = 0; k < 4; ++k)
      q.launch(add_one, all, b.data(), n);
    q.wait();
    std::vector<long> h(n);
    b.copy_to(h);
    expect("queue after launches", h[n - 1], 5);
  }
  {  // Inside a data region launches on held objects return early; the region's end waits.
    std::vector<long> v(n, 0);
    {
      offload::data_region r({}, offload::tofrom(std::span(v)));
      for (int k = 0; k < 50; ++k)
        offload::launch(add_span, all, std::span(v), 2L);
    }
    expect("region's end", v[n - 1], 100);
  }
  {  // A buffer released while its kernels may run, and its memory reused at once.
    for (int round = 0; round < 20; ++round) {
      {
        offload::buffer<long> dying(n);
        for (int k = 0; k < 5; ++k)
          offload::launch(fill, all, dying.data(), n, -1L);
      }
      offload::buffer<long> fresh(n);
      std::vector<long> h(n, 9);
      fresh.copy_from(h);
      offload::launch(add_one, all, fresh.data(), n);
      fresh.copy_to(h);
      if (h[0] != 10 || h[n - 1] != 10) {
        expect("reused memory", h[n - 1], 10);
        break;
      }
    }
  }
  offload::synchronize();
  offload::synchronize();  // nothing left: returns at once
  if (failures)
    return 1;
  std::printf("deferred_launches: all checks passed\n");
  return 0;
}
