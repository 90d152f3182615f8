#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>
// A grid-stride loop, then one barrier. strided_sum: every work-item reaches the loop, which runs
// as sweeps of the workgroup (compiler/cpu/GridStrideSweeps.cpp), in lockstep. skipping_sum: work-item
// 5 of each workgroup skips it, so it is not reached together: a virtual barrier on its back edge
// (one iteration of every work-item per sweep of the work-item loop). The loop over j, whose
// start does not depend on the work-item's x index, is neither.
OFFLOAD_KERNEL void strided_sum(std::span<const double> v, std::span<double> out) {
  auto &s = offload::shared<double[128]>([] {});
  const unsigned t = offload::thread_id_x();
  double partial = 0;
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::size_t i = offload::global_id_x(); i < v.size(); i += stride)
    partial += v[i];
  for (unsigned j = offload::thread_id_y(); j < 4; j += 2)
    partial += j;
  s[t] = partial;
  offload::barrier();
  if (t == 0) {
    double total = 0;
    for (unsigned k = 0; k < offload::block_dim_x(); ++k) total += s[k];
    out[offload::block_id_x()] = total;
  }
}
OFFLOAD_KERNEL void skipping_sum(std::span<const double> v, std::span<double> out) {
  auto &s = offload::shared<double[128]>([] {});
  const unsigned t = offload::thread_id_x();
  double partial = 0;
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * offload::block_dim_x();
  if (t != 5)
    for (std::size_t i = offload::global_id_x(); i < v.size(); i += stride)
      partial += v[i];
  s[t] = partial;
  offload::barrier();
  if (t == 0) {
    double total = 0;
    for (unsigned k = 0; k < offload::block_dim_x(); ++k) total += s[k];
    out[offload::block_id_x()] = total;
  }
}
int main() {
  std::vector<double> v(10000), out(4);
  double expect = 0, expect_skipping = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    expect += v[i] = double(i % 13);
    if (i % 128 != 5) expect_skipping += v[i];
  }
  offload::launch(strided_sum, {.workgroups = {4}, .threads = {128}}, std::span<const double>(v), std::span(out));
  const double got = out[0] + out[1] + out[2] + out[3] - 4 * 128 * 2;
  std::printf("strided_sum: %s\n", got == expect ? "all checks passed" : "FAILED");
  offload::launch(skipping_sum, {.workgroups = {4}, .threads = {128}}, std::span<const double>(v), std::span(out));
  const double got_skipping = out[0] + out[1] + out[2] + out[3];
  std::printf("skipping_sum: %s\n", got_skipping == expect_skipping ? "all checks passed" : "FAILED");
  return got != expect || got_skipping != expect_skipping;
}
