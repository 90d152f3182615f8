// Data tools of the CUDA programmer's toolbox (issue 15, item 3): buffer copies at an element
// offset, offload::copy and queue::copy between buffers (of one device, of the CPU device and a
// GPU when there is one), elapsed_ms between two events of a queue, and the errors for ranges
// outside a buffer.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: offset copy: copy at data_toolbox.cpp:[[#]]: 8 elements do not fit a buffer of 10 at element 5
// CHECK: data_toolbox: all checks passed
#include <offload/offload.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

OFFLOAD_KERNEL void add(offload::device_ptr<int> x, std::size_t n, int v) {
  if (auto i = offload::global_id_x(); i < n) x[i] += v;
}

int main() {
  int failures = 0;
  auto expect = [&](bool ok, const char *what) {
    if (!ok) {
      ++failures;
      std::printf("FAILED: %s\n", what);
    }
  };
  std::vector<int> host(10);
  std::iota(host.begin(), host.end(), 0);  // 0..9
  offload::buffer<int> a(10), b(10);
  a.copy_from(std::span<const int>(host));
  // Elements 2..5 of a into b at 6..9, b's first elements from host 100..105.
  const std::vector<int> head = {100, 101, 102, 103, 104, 105};
  b.copy_from(std::span<const int>(head), 0);
  offload::copy(b, 6, a, 2, 4);
  std::vector<int> got(10, -1);
  b.copy_to(std::span<int>(got));
  expect(got == std::vector<int>({100, 101, 102, 103, 104, 105, 2, 3, 4, 5}), "offload::copy");
  std::vector<int> tail(3);
  b.copy_to(std::span<int>(tail), 7);
  expect(tail == std::vector<int>({3, 4, 5}), "copy_to at an offset");

  // Between the CPU device and the default device (a GPU when there is one), both ways.
  offload::buffer<int> on_cpu(10, offload::cpu_device);
  offload::copy(on_cpu, 0, b, 0, 10);
  offload::launch(add, {.threads = {16}, .device = offload::cpu_device}, on_cpu.data(),
                  std::size_t(10), 1000);
  offload::copy(a, 0, on_cpu, 0, 10);
  a.copy_to(std::span<int>(got));
  expect(got[0] == 1100 && got[9] == 1005, "copies between devices");

  // Queued: a launch, a copy between buffers, events around them.
  offload::queue q;
  offload::event start = q.record();
  q.launch(add, {.workgroups = {1}, .threads = {16}}, a.data(), std::size_t(10), 1);
  q.copy(b, 0, a, 0, 10);
  offload::event end = q.record();
  q.wait();
  b.copy_to(std::span<int>(got));
  expect(got[0] == 1101 && got[9] == 1006, "queue::copy between buffers");
  const double ms = offload::elapsed_ms(start, end);
  expect(ms >= 0 && ms < 60000, "elapsed_ms");
  expect(offload::elapsed_ms(end, end) == 0, "elapsed_ms of one event");

  try {
    a.copy_from(std::span<const int>(host).first(8), 5);
    expect(false, "a copy past the buffer's end was not refused");
  } catch (const offload::error &e) {
    std::printf("offset copy: %s\n", e.what() + sizeof("offload-cxx: error:"));
  }
  try {
    offload::copy(a, 0, b, 9, 2);
    expect(false, "a copy between buffers past the source's end was not refused");
  } catch (const offload::error &) {
  }
  try {
    offload::elapsed_ms(offload::event(), end);
    expect(false, "elapsed_ms of an event no queue recorded");
  } catch (const offload::error &) {
  }
  std::printf("data_toolbox: %s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
