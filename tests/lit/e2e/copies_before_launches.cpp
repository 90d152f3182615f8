// A copy into device memory is complete, as every later kernel sees it, when it returns: on a GPU
// a host-to-device copy from pageable memory returns once its bytes are staged, before they reach
// the device, and a device-to-device copy does not wait at all, so the runtime orders each
// stream's next work after the copies enqueued before it (runtime/vendor/cuda_device.cpp,
// order_after_copies). Each round writes a new pattern with one kind of copy and checks it at
// once with a kernel — a plain launch, a queue's launch, a queue's copy back, a second thread's
// queue — at sizes of one element to 16 MiB, where the DMA of the last bytes is still in flight
// when the copy returns. Meaningful on a GPU (scripts/stage-gpu-run.sh, bench/gpu_session.sh
// part checks); on the CPU device every copy is done when it returns.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: copies_before_launches: all checks passed
#include <offload/offload.hpp>

#include <cstdio>
#include <thread>
#include <vector>

// Counts the elements of data[0, n) that are not pattern + i.
OFFLOAD_KERNEL void count_wrong(offload::device_ptr<const unsigned> data, unsigned n,
                                unsigned pattern, offload::device_ptr<unsigned> wrong) {
  for (unsigned i = offload::global_id_x(); i < n; i += offload::block_dim_x() * offload::grid_dim_x())
    if (data[i] != pattern + i)
      offload::atomic_add(&wrong[0], 1u);
}

OFFLOAD_KERNEL void fill(offload::device_ptr<unsigned> data, unsigned n, unsigned pattern) {
  for (unsigned i = offload::global_id_x(); i < n; i += offload::block_dim_x() * offload::grid_dim_x())
    data[i] = pattern + i;
}

namespace {
int failures = 0;

void expect(bool ok, const char *what, unsigned size, unsigned round, unsigned wrong) {
  if (!ok && ++failures <= 10)
    std::printf("FAILED: %s, %u elements, round %u: %u elements not yet copied\n", what, size,
                round, wrong);
}

std::vector<unsigned> pattern_of(unsigned n, unsigned pattern) {
  std::vector<unsigned> v(n);
  for (unsigned i = 0; i < n; ++i)
    v[i] = pattern + i;
  return v;
}

const offload::launch_config wide{.workgroups = {264}, .threads = {256}};

// One thread's rounds on its own buffers and queue (several run at once below).
void rounds(unsigned n, unsigned count, unsigned salt, const char *what) {
  offload::buffer<unsigned> data(n), copy(n), wrong(1);
  offload::queue q;
  std::vector<unsigned> zero(1, 0), got(1);
  for (unsigned r = 0; r < count; ++r) {
    const unsigned pattern = salt * 7919u + r * 104729u;
    const std::vector<unsigned> host = pattern_of(n, pattern);
    wrong.copy_from(zero);
    switch (r % 4) {
    case 0:  // buffer copy, plain launch
      data.copy_from(host);
      offload::launch(count_wrong, wide, data.data(), n, pattern, wrong.data());
      break;
    case 1:  // buffer copy, a queue's launch
      data.copy_from(host);
      q.launch(count_wrong, wide, data.data(), n, pattern, wrong.data());
      q.wait();
      break;
    case 2:  // a queue's copy, then its launch
      q.copy(data, std::span<const unsigned>(host));
      q.launch(count_wrong, wide, data.data(), n, pattern, wrong.data());
      q.wait();
      break;
    case 3:  // a kernel's pattern copied within the device, then checked
      offload::launch(fill, wide, copy.data(), n, pattern);
      offload::copy(data, 0, copy, 0, n);
      offload::launch(count_wrong, wide, data.data(), n, pattern, wrong.data());
      break;
    }
    wrong.copy_to(got);
    expect(got[0] == 0, what, n, r, got[0]);
  }
}
} // namespace

int main() {
  for (unsigned n : {1u, 1024u, 65536u, 1u << 22})
    rounds(n, n >= (1u << 22) ? 24 : 64, n, "one thread");
  // Four threads, each with its own queue, copying and launching at once.
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 4; ++t)
    threads.emplace_back([t] { rounds(t % 2 ? 65536u : (1u << 20), 32, 100 + t, "four threads"); });
  for (auto &t : threads)
    t.join();
  if (failures == 0)
    std::printf("copies_before_launches: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
