// examples/guide/regions_buffers_queues.cpp — data kept on the device.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

OFFLOAD_KERNEL void add_one(std::span<double> v) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] += 1.0;
}

OFFLOAD_KERNEL void square(offload::device_ptr<double> v, std::uint64_t n) {
  auto i = offload::global_id_x();
  if (i < n) v[i] = v[i] * v[i];
}

int main() {
  const unsigned n = 1 << 16;
  std::vector<double> data(n, 0.0);
  const offload::launch_config cfg{.workgroups = {n / 256}, .threads = {256}};

  // A data region maps `data` once; the launches inside copy nothing.
  {
    offload::data_region region({}, std::span(data));
    for (int k = 0; k < 10; ++k) offload::launch(add_one, cfg, std::span(data));
    region.update_from(std::span(data));  // look at the values mid-way: data[0] == 10
    offload::launch(add_one, cfg, std::span(data));
  }  // copied back here: data[0] == 11

  // A buffer lives only on the device; kernels take it as offload::device_ptr<T>.
  offload::buffer<double> buf(n);
  buf.copy_from(data);
  offload::launch(square, cfg, buf.data(), std::uint64_t(n));
  std::vector<double> squares(n);
  buf.copy_to(squares);

  // A queue: launches return at once and run in order; wait() copies back and reports errors.
  offload::queue q;
  for (int k = 0; k < 5; ++k) q.launch(add_one, cfg, std::span(data));
  offload::event done = q.record();
  q.wait();

  bool ok = squares[0] == 121.0 && data[n - 1] == 16.0 && done.done();
  std::printf("regions_buffers_queues: %s on %s\n", ok ? "all checks passed" : "FAILED",
              offload::last_launch_device().c_str());
  return ok ? 0 : 1;
}
