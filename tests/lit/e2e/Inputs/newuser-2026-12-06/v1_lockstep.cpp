// which uniform shapes does -v call "in lockstep"? (guide: branches to barriers decided by arguments / workgroup ids keep lockstep)
#include <offload/offload.hpp>
#include "common.hpp"
using namespace offload;
OFFLOAD_KERNEL void uni_return(std::span<std::int64_t> out, unsigned active) {   // whole workgroups return (block id)
  auto &sh = shared<std::int64_t[64]>([] {});
  const unsigned t = thread_id_x();
  if (block_id_x() >= active) return;
  sh[t] = t; barrier();
  for (unsigned h = 32; h > 0; h >>= 1) { if (t < h) sh[t] += sh[t + h]; barrier(); }
  if (t == 0) out[block_id_x()] = sh[0];
}
OFFLOAD_KERNEL void uni_arg(std::span<std::int64_t> out, int mode) {            // barrier under an argument test
  auto &sh = shared<std::int64_t[64]>([] {});
  const unsigned t = thread_id_x();
  sh[t] = t;
  if (mode == 1) barrier();
  if (t == 0) { std::int64_t s = 0; for (int k = 0; k < 64; ++k) s += sh[k]; out[block_id_x()] = s; }
}
OFFLOAD_KERNEL void warp_only(std::span<std::int64_t> out) {                     // only a warp reduction, reached by all
  out[global_id_x()] = warp_reduce_add(std::int64_t(global_id_x()));
}
OFFLOAD_KERNEL void gs_warp(std::span<const int> a, std::span<std::int64_t> out, std::size_t n) {   // grid-stride loop then warp reduce
  std::int64_t s = 0;
  for (std::size_t i = global_id_x(); i < n; i += std::size_t(grid_dim_x()) * block_dim_x()) s += a[i];
  out[global_id_x()] = warp_reduce_add(s);
}
int main() {
  std::vector<std::int64_t> out(4, -1);
  launch(uni_return, {.workgroups = {4}, .threads = {64}}, std::span(out), 2u);
  CHECK(out[0] == 2016 && out[1] == 2016 && out[2] == -1 && out[3] == -1, "uni_return");
  std::vector<std::int64_t> o2(2, -1);
  launch(uni_arg, {.workgroups = {2}, .threads = {64}}, std::span(o2), 1);
  CHECK(o2[0] == 2016 && o2[1] == 2016, "uni_arg");
  std::vector<std::int64_t> o3(64);
  launch(warp_only, {.workgroups = {1}, .threads = {64}}, std::span(o3));
  CHECK(o3[0] == 496 && o3[63] == 1520, "warp_only");
  std::vector<int> a(1000, 1); std::vector<std::int64_t> o4(128);
  launch(gs_warp, {.workgroups = {2}, .threads = {64}}, std::span<const int>(a), std::span(o4), std::size_t(1000));
  std::int64_t w0 = 0; for (int g = 0; g < 32; ++g) for (int i = g; i < 1000; i += 128) w0++;
  CHECK(o4[0] == w0, "gs_warp got %lld want %lld", (long long)o4[0], (long long)w0);
  return finish("v1_lockstep");
}
