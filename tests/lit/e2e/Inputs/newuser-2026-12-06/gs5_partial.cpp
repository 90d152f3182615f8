// grid-stride loops reached only by some work-items, in kernels with barriers; early returns
#include <offload/offload.hpp>
#include "common.hpp"
using namespace offload;

// only even work-items of each workgroup run the loop, with their own stride over the even subset
OFFLOAD_KERNEL void even_only(std::span<const int> a, std::span<std::int64_t> out, std::size_t n) {
  auto &sh = shared<std::int64_t[128]>([] {});
  const unsigned t = thread_id_x();
  std::int64_t s = 0;
  if (t % 2 == 0) {
    const std::size_t half = block_dim_x() / 2;   // 64
    const std::size_t me = std::size_t(block_id_x()) * half + t / 2;
    for (std::size_t i = me; i < n; i += std::size_t(grid_dim_x()) * half) s += a[i];
  }
  sh[t] = s;
  barrier();
  for (unsigned h = 64; h > 0; h >>= 1) { if (t < h) sh[t] += sh[t + h]; barrier(); }
  if (t == 0) out[block_id_x()] = sh[0];
}
// loop reached by the first 'k' work-items of each workgroup (k an argument)
OFFLOAD_KERNEL void first_k(std::span<const int> a, std::span<std::int64_t> out, std::size_t n, unsigned k) {
  auto &sh = shared<std::int64_t[256]>([] {});
  const unsigned t = thread_id_x();
  sh[t] = 0;
  barrier();
  if (t < k) {
    std::int64_t s = 0;
    for (std::size_t i = std::size_t(block_id_x()) * k + t; i < n; i += std::size_t(grid_dim_x()) * k) s += a[i];
    sh[t] = s;
  }
  barrier();
  for (unsigned h = 128; h > 0; h >>= 1) { if (t < h) sh[t] += sh[t + h]; barrier(); }
  if (t == 0) out[block_id_x()] = sh[0];
}
// some workgroups skip the loop entirely (uniform per workgroup), others return before the barrier
OFFLOAD_KERNEL void some_blocks(std::span<const int> a, std::span<std::int64_t> out, std::size_t n, unsigned active) {
  auto &sh = shared<std::int64_t[64]>([] {});
  const unsigned t = thread_id_x();
  if (block_id_x() >= active) { if (t == 0) out[block_id_x()] = -5; return; }
  std::int64_t s = 0;
  for (std::size_t i = std::size_t(block_id_x()) * 64 + t; i < n; i += std::size_t(active) * 64) s += a[i];
  sh[t] = s;
  barrier();
  for (unsigned h = 32; h > 0; h >>= 1) { if (t < h) sh[t] += sh[t + h]; barrier(); }
  if (t == 0) out[block_id_x()] = sh[0];
}
// work-items with t >= lim return early, the rest do a grid-stride loop and a barrier-tree (returned ones count as arrived)
OFFLOAD_KERNEL void early_return(std::span<const int> a, std::span<std::int64_t> out, std::size_t n, unsigned lim) {
  auto &sh = shared<std::int64_t[64]>([] {});
  const unsigned t = thread_id_x();
  sh[t] = 0;
  barrier();
  if (t >= lim) return;
  std::int64_t s = 0;
  for (std::size_t i = std::size_t(block_id_x()) * lim + t; i < n; i += std::size_t(grid_dim_x()) * lim) s += a[i];
  sh[t] = s;
  barrier();
  if (t == 0) { std::int64_t tot = 0; for (unsigned j = 0; j < lim; ++j) tot += sh[j]; out[block_id_x()] = tot; }
}

int main() {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(63), std::size_t(64), std::size_t(65), std::size_t(999), std::size_t(123457)}) {
    std::vector<int> a(n + 1);
    for (std::size_t i = 0; i < n + 1; ++i) a[i] = int((i * 40503u) % 1000) - 400;
    for (unsigned wg : {1u, 2u, 5u, 16u}) {
      {
        std::vector<std::int64_t> out(wg, -1), want(wg, 0);
        for (unsigned b = 0; b < wg; ++b) for (unsigned m = 0; m < 64; ++m) for (std::size_t i = std::size_t(b) * 64 + m; i < n; i += std::size_t(wg) * 64) want[b] += a[i];
        launch(even_only, {.workgroups = {wg}, .threads = {128}}, std::span<const int>(a), std::span(out), n);
        CHECK(out == want, "even_only n=%zu wg=%u: got %lld want %lld", n, wg, (long long)out[0], (long long)want[0]);
      }
      for (unsigned k : {1u, 17u, 100u, 256u}) {
        std::vector<std::int64_t> out(wg, -1), want(wg, 0);
        for (unsigned b = 0; b < wg; ++b) for (unsigned m = 0; m < k; ++m) for (std::size_t i = std::size_t(b) * k + m; i < n; i += std::size_t(wg) * k) want[b] += a[i];
        launch(first_k, {.workgroups = {wg}, .threads = {256}}, std::span<const int>(a), std::span(out), n, k);
        CHECK(out == want, "first_k n=%zu wg=%u k=%u: got %lld want %lld", n, wg, k, (long long)out[0], (long long)want[0]);
      }
      for (unsigned act : {1u, wg / 2 + 1, wg}) {
        std::vector<std::int64_t> out(wg, -1), want(wg, -5);
        for (unsigned b = 0; b < act; ++b) { want[b] = 0; for (unsigned m = 0; m < 64; ++m) for (std::size_t i = std::size_t(b) * 64 + m; i < n; i += std::size_t(act) * 64) want[b] += a[i]; }
        launch(some_blocks, {.workgroups = {wg}, .threads = {64}}, std::span<const int>(a), std::span(out), n, act);
        CHECK(out == want, "some_blocks n=%zu wg=%u active=%u", n, wg, act);
      }
      for (unsigned lim : {1u, 5u, 31u, 33u, 64u}) {
        std::vector<std::int64_t> out(wg, -1), want(wg, 0);
        for (unsigned b = 0; b < wg; ++b) for (unsigned m = 0; m < lim; ++m) for (std::size_t i = std::size_t(b) * lim + m; i < n; i += std::size_t(wg) * lim) want[b] += a[i];
        launch(early_return, {.workgroups = {wg}, .threads = {64}}, std::span<const int>(a), std::span(out), n, lim);
        CHECK(out == want, "early_return n=%zu wg=%u lim=%u: got %lld want %lld", n, wg, lim, (long long)out[0], (long long)want[0]);
      }
    }
  }
  return finish("gs5_partial");
}
