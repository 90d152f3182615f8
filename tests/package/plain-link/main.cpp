// A plain add_executable that links OffloadCxx::runtime: a kernel here and one from twice.cpp.
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

OFFLOAD_KERNEL void twice(std::span<int> v);

OFFLOAD_KERNEL void iota(std::span<int> v) {
  auto i = offload::thread_id_x() + offload::block_id_x() * offload::block_dim_x();
  if (i < v.size()) v[i] = int(i);
}

int main() {
  std::vector<int> v(1000);
  offload::launch(iota, {.workgroups = {4}, .threads = {256}}, std::span(v));
  offload::launch(twice, {.workgroups = {4}, .threads = {256}}, std::span(v));
  for (int i = 0; i < 1000; ++i)
    if (v[i] != 2 * i) {
      std::printf("plain-link: wrong value %d at %d\n", v[i], i);
      return 1;
    }
  std::printf("plain-link: all checks passed on %s\n", offload::last_launch_device().c_str());
}
