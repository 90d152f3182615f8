// grid-stride loops followed/preceded by shared-memory barrier trees, inside uniform outer loops,
// with several accumulators, break, and per-work-item trip counts -- all in barrier kernels
#include <offload/offload.hpp>
#include "common.hpp"
#include <algorithm>
using namespace offload;

// sum + max + count with a constant-bound tree (256 threads)
OFFLOAD_KERNEL void multi_tree256(std::span<const int> a, std::span<std::int64_t> out, std::size_t n) {
  auto &ssum = shared<std::int64_t[256]>([] {});
  auto &smax = shared<int[256]>([] {});
  auto &scnt = shared<int[256]>([] {});
  const unsigned t = thread_id_x();
  std::int64_t s = 0; int mx = -(1 << 30), c = 0;
  for (std::size_t i = global_id_x(); i < n; i += std::size_t(grid_dim_x()) * block_dim_x()) {
    s += a[i]; mx = a[i] > mx ? a[i] : mx; ++c;
  }
  ssum[t] = s; smax[t] = mx; scnt[t] = c;
  barrier();
  for (unsigned h = 128; h > 0; h /= 2) {
    if (t < h) { ssum[t] += ssum[t + h]; smax[t] = std::max(smax[t], smax[t + h]); scnt[t] += scnt[t + h]; }
    barrier();
  }
  if (t == 0) { out[3 * block_id_x()] = ssum[0]; out[3 * block_id_x() + 1] = smax[0]; out[3 * block_id_x() + 2] = scnt[0]; }
}
// same, runtime-bounded tree over any power-of-two block size, dynamic shared
OFFLOAD_KERNEL void multi_tree_dyn(std::span<const int> a, std::span<std::int64_t> out, std::size_t n) {
  std::int64_t *ssum = dynamic_shared<std::int64_t>();
  const unsigned t = thread_id_x();
  std::int64_t s = 0, s2 = 0;
  for (std::size_t i = global_id_x(); i < n; i += std::size_t(grid_dim_x()) * block_dim_x()) { s += a[i]; s2 += std::int64_t(a[i]) * a[i]; }
  ssum[t] = s; ssum[t + block_dim_x()] = s2;
  barrier();
  for (unsigned h = block_dim_x() / 2; h > 0; h /= 2) {
    if (t < h) { ssum[t] += ssum[t + h]; ssum[block_dim_x() + t] += ssum[block_dim_x() + t + h]; }
    barrier();
  }
  if (t == 0) { out[2 * block_id_x()] = ssum[0]; out[2 * block_id_x() + 1] = ssum[block_dim_x()]; }
}
// a tree BEFORE the loop (computes a workgroup-wide scale from the first block_dim elements), then the loop, then a tree
OFFLOAD_KERNEL void tree_loop_tree(std::span<const int> a, std::span<std::int64_t> y, std::span<std::int64_t> out, std::size_t n, int rounds) {
  auto &sh = shared<std::int64_t[128]>([] {});
  const unsigned t = thread_id_x();
  for (int r = 0; r < rounds; ++r) {                      // uniform outer loop
    sh[t] = t < n ? a[t] : 0;
    barrier();
    for (unsigned h = 64; h > 0; h >>= 1) { if (t < h) sh[t] += sh[t + h]; barrier(); }
    const std::int64_t scale = sh[0] + r;                  // same for the whole workgroup
    barrier();
    std::int64_t acc = 0;
    for (std::size_t i = global_id_x(); i < n; i += std::size_t(grid_dim_x()) * block_dim_x()) {
      y[i] += a[i] * scale;
      acc += a[i];
    }
    sh[t] = acc;
    barrier();
    for (unsigned h = 64; h > 0; h >>= 1) { if (t < h) sh[t] += sh[t + h]; barrier(); }
    if (t == 0) out[std::size_t(r) * grid_dim_x() + block_id_x()] = sh[0];
    barrier();
  }
}
// break inside grid-stride loop, then barrier tree of per-work-item visit counts
OFFLOAD_KERNEL void break_tree(std::span<const int> a, std::span<std::int64_t> out, std::size_t n, int key) {
  auto &sh = shared<std::int64_t[64]>([] {});
  const unsigned t = thread_id_x();
  std::int64_t visits = 0;
  for (std::size_t i = global_id_x(); i < n; i += std::size_t(grid_dim_x()) * block_dim_x()) {
    ++visits;
    if (a[i] == key) break;
  }
  sh[t] = visits;
  barrier();
  for (unsigned h = 32; h > 0; h >>= 1) { if (t < h) sh[t] += sh[t + h]; barrier(); }
  if (t == 0) out[block_id_x()] = sh[0];
}

int main() {
  const std::size_t ns[] = {0, 1, 100, 255, 256, 257, 1000, 65537, 1000003};
  for (auto n : ns) {
    std::vector<int> a(n + 1);
    for (std::size_t i = 0; i < n + 1; ++i) a[i] = int((i * 2654435761u) % 2001) - 1000;
    for (unsigned wg : {1u, 2u, 3u, 17u, 100u}) {
      // host partials for stride
      auto partial = [&](unsigned th, auto f) { for (unsigned b = 0; b < wg; ++b) for (unsigned t = 0; t < th; ++t) for (std::size_t i = std::size_t(b) * th + t; i < n; i += std::size_t(wg) * th) f(b, i); };
      {
        std::vector<std::int64_t> out(3 * wg, -1), want(3 * wg, 0);
        for (unsigned b = 0; b < wg; ++b) want[3 * b + 1] = -(1 << 30);
        partial(256, [&](unsigned b, std::size_t i) { want[3 * b] += a[i]; want[3 * b + 1] = std::max<std::int64_t>(want[3 * b + 1], a[i]); want[3 * b + 2]++; });
        launch(multi_tree256, {.workgroups = {wg}, .threads = {256}}, std::span<const int>(a), std::span(out), n);
        CHECK(out == want, "multi_tree256 n=%zu wg=%u: block0 got (%lld,%lld,%lld) want (%lld,%lld,%lld)", n, wg, (long long)out[0], (long long)out[1], (long long)out[2], (long long)want[0], (long long)want[1], (long long)want[2]);
      }
      for (unsigned th : {1u, 2u, 32u, 64u, 512u, 1024u}) {
        std::vector<std::int64_t> out(2 * wg, -1), want(2 * wg, 0);
        partial(th, [&](unsigned b, std::size_t i) { want[2 * b] += a[i]; want[2 * b + 1] += std::int64_t(a[i]) * a[i]; });
        launch(multi_tree_dyn, {.workgroups = {wg}, .threads = {th}, .dynamic_shared_bytes = 2 * th * sizeof(std::int64_t)}, std::span<const int>(a), std::span(out), n);
        CHECK(out == want, "multi_tree_dyn n=%zu wg=%u th=%u: block0 got (%lld,%lld) want (%lld,%lld)", n, wg, th, (long long)out[0], (long long)out[1], (long long)want[0], (long long)want[1]);
      }
      {
        const int rounds = 3;
        std::vector<std::int64_t> y(n + 1, 1), out(rounds * wg, -1), wy(n + 1, 1), wout(rounds * wg, 0);
        std::int64_t head = 0; for (std::size_t t = 0; t < 128 && t < n; ++t) head += a[t];
        for (int r = 0; r < rounds; ++r) partial(128, [&](unsigned b, std::size_t i) { wy[i] += a[i] * (head + r); wout[std::size_t(r) * wg + b] += a[i]; });
        launch(tree_loop_tree, {.workgroups = {wg}, .threads = {128}}, std::span<const int>(a), std::span(y), std::span(out), n, rounds);
        CHECK(out == wout && y == wy, "tree_loop_tree n=%zu wg=%u: out0 %lld want %lld, y==wy %d", n, wg, (long long)out[0], (long long)wout[0], int(y == wy));
      }
      for (int key : {a[n / 3], 99999}) {
        std::vector<std::int64_t> out(wg, -1), want(wg, 0);
        for (unsigned b = 0; b < wg; ++b) for (unsigned t = 0; t < 64; ++t) for (std::size_t i = std::size_t(b) * 64 + t; i < n; i += std::size_t(wg) * 64) { want[b]++; if (a[i] == key) break; }
        launch(break_tree, {.workgroups = {wg}, .threads = {64}}, std::span<const int>(a), std::span(out), n, key);
        CHECK(out == want, "break_tree n=%zu wg=%u key=%d: block0 got %lld want %lld", n, wg, key, (long long)out[0], (long long)want[0]);
      }
    }
  }
  return finish("gs4_bartree");
}
