// Launches through function pointers (issue 15's corpus: NVIDIA's transpose picks one of eight
// kernels through a pointer): every marked kernel whose address a file takes is built for every
// device, so a table of kernels, a pointer chosen at run time and a pointer to a template
// specialization all launch; a pointer to an unmarked function is refused (tests/bad-inputs).
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: env OFFLOAD_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO
// CHECK: pointer_launch: all checks passed
// INFO: launching kernel twice at pointer_launch.cpp:[[#]]
// INFO: launching kernel thrice at pointer_launch.cpp:[[#]]
// INFO: launching kernel add<int> at pointer_launch.cpp:[[#]]
#include <offload/offload.hpp>

#include <cstdio>
#include <vector>

OFFLOAD_KERNEL void twice(std::span<int> v) {
  if (std::size_t i = offload::global_id_x(); i < v.size())
    v[i] *= 2;
}
OFFLOAD_KERNEL void thrice(std::span<int> v) {
  if (std::size_t i = offload::global_id_x(); i < v.size())
    v[i] *= 3;
}
template <class T> OFFLOAD_KERNEL void add(std::span<T> v, T x) {
  if (std::size_t i = offload::global_id_x(); i < v.size())
    v[i] += x;
}

template <int P> OFFLOAD_KERNEL void times(std::span<int> v) {
  if (std::size_t i = offload::global_id_x(); i < v.size())
    v[i] *= P;
}

using kernel = void (*)(std::span<int>);
const kernel table[] = {twice, &thrice};

int main(int argc, char **) {
  std::vector<int> v(1000, 1);
  for (kernel k : table)
    offload::launch(k, offload::range{v.size()}, std::span(v));  // 1 * 2 * 3
  auto plus = &add<int>;
  offload::launch(plus, {.workgroups = {8}, .threads = {128}}, std::span(v), 4);  // 10
  kernel chosen = argc > 7 ? twice : thrice;  // thrice
  offload::queue q;
  q.launch(chosen, offload::range{v.size()}, std::span(v));  // 30
  q.wait();
  // A template specialization's address in a braced list (written there as an unresolved name).
  const kernel local[] = {&times<2>, times<1>};
  for (kernel k : local)
    offload::launch(k, offload::range{v.size()}, std::span(v));  // 60
  int failures = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] != 60 && failures++ < 4)
      std::printf("v[%zu] = %d\n", i, v[i]);
  std::printf("pointer_launch: %s on %s\n", failures ? "FAILED" : "all checks passed",
              offload::last_launch_device().c_str());
  return failures != 0;
}
