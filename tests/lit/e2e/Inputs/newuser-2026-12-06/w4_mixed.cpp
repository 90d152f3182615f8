// warp operations mixed with barriers: after some lanes returned, in uniform loops with barriers,
// under warp-uniform branches, and partial workgroups (CPU-defined semantics for missing lanes)
#include <offload/offload.hpp>
#include "common.hpp"
#include <bit>
using namespace offload;

// lanes with l >= lim return; the rest: barrier, ballot, shuffle_down, barrier, write
OFFLOAD_KERNEL void after_return(std::span<std::int64_t> out, unsigned lim) {
  auto &sh = shared<std::int64_t[1024]>([] {});
  const unsigned l = thread_id_x();
  const std::uint64_t g = global_id_x();
  if (l >= lim) return;
  sh[l] = std::int64_t(g) * 3;
  barrier();
  std::uint64_t bal = ballot(l % 3 == 0);
  std::int64_t nb = sh[(l + 1) % lim];                  // written by another work-item before the barrier
  std::int64_t d = shuffle_down(nb, 1);
  barrier();
  out[3 * g] = std::int64_t(bal); out[3 * g + 1] = nb; out[3 * g + 2] = d;
}
// uniform loop: each round, a shuffle ring rotates values, through shared memory and barriers
OFFLOAD_KERNEL void ring(std::span<std::int64_t> out, int rounds) {
  auto &sh = shared<std::int64_t[1024]>([] {});
  const unsigned l = thread_id_x(), n = block_dim_x();
  std::int64_t v = std::int64_t(global_id_x());
  for (int r = 0; r < rounds; ++r) {
    v = shuffle(v, (lane_id() + 1) % 32);                // rotate within the warp
    sh[l] = v;
    barrier();
    v = sh[(l + 32) % n];                                 // rotate across warps
    barrier();
    v += warp_reduce_max(v) % 7;
  }
  out[global_id_x()] = v;
}
// warp-uniform branch: only warps < k do a warp reduction; all meet a barrier; then warp 0 folds
OFFLOAD_KERNEL void some_warps(std::span<std::int64_t> out, unsigned k) {
  auto &ws = shared<std::int64_t[32]>([] {});
  const unsigned l = thread_id_x(), w = l / 32, lane = lane_id();
  if (l < 32) ws[l] = 0;
  barrier();
  if (w < k) {
    std::int64_t s = warp_reduce_add(std::int64_t(global_id_x()));
    if (lane == 0) ws[w] = s;
  }
  barrier();
  if (w == 0) {
    std::int64_t s = warp_reduce_add(ws[lane]);
    if (lane == 0) out[block_id_x()] = s;
  }
}
// grid-stride loop reached only by some warps, with a ballot inside (warp-uniform trip counts)
OFFLOAD_KERNEL void gs_ballot(std::span<const int> a, std::span<std::int64_t> out, std::size_t n, unsigned k) {
  const unsigned w = thread_id_x() / 32, lane = lane_id();
  std::int64_t cnt = 0;
  if (w < k) {
    const std::size_t stride = std::size_t(grid_dim_x()) * k * 32;
    for (std::size_t base = (std::size_t(block_id_x()) * k + w) * 32; base < n; base += stride) {
      const std::size_t i = base + lane;
      cnt += std::popcount(ballot(i < n && a[i] > 0));
    }
  }
  barrier();
  out[global_id_x()] = cnt;
}

int main() {
  // after_return: full warps only for the defined part, plus CPU-defined partial
  for (unsigned wg : {1u, 3u}) for (unsigned th : {32u, 64u, 100u, 256u}) for (unsigned lim : {1u, 7u, 32u, 33u, 64u, 95u, 256u}) {
    if (lim > th) continue;
    std::vector<std::int64_t> out(3 * std::size_t(wg) * th, -1);
    launch(after_return, {.workgroups = {wg}, .threads = {th}}, std::span(out), lim);
    long bad = -1; std::int64_t w0 = 0, w1 = 0, w2 = 0;
    for (unsigned b = 0; b < wg && bad < 0; ++b) for (unsigned l = 0; l < th; ++l) {
      std::uint64_t g = std::uint64_t(b) * th + l;
      if (l >= lim) { if (out[3 * g] != -1 || out[3 * g + 1] != -1 || out[3 * g + 2] != -1) { bad = long(g); break; } continue; }
      unsigned base = l / 32 * 32; std::uint64_t m = 0;
      for (unsigned k = 0; k < 32; ++k) if (base + k < lim && (base + k) % 3 == 0) m |= 1ull << k;
      auto nbf = [&](unsigned ll) { return std::int64_t(std::uint64_t(b) * th + (ll + 1) % lim) * 3; };
      w0 = std::int64_t(m); w1 = nbf(l);
      w2 = (l % 32 + 1 < 32 && l + 1 < lim) ? nbf(l + 1) : nbf(l);
      if (out[3 * g] != w0 || out[3 * g + 1] != w1 || out[3 * g + 2] != w2) { bad = long(g); break; }
    }
    CHECK(bad < 0, "after_return wg=%u th=%u lim=%u: item %ld got (%llx,%lld,%lld) want (%llx,%lld,%lld)", wg, th, lim, bad,
          bad >= 0 ? (unsigned long long)out[3 * bad] : 0ull, bad >= 0 ? (long long)out[3 * bad + 1] : 0ll, bad >= 0 ? (long long)out[3 * bad + 2] : 0ll,
          (unsigned long long)w0, (long long)w1, (long long)w2);
  }
  for (unsigned wg : {1u, 2u}) for (unsigned th : {32u, 64u, 96u, 1024u}) for (int rounds : {0, 1, 5}) {
    std::size_t T = std::size_t(wg) * th;
    std::vector<std::int64_t> out(T, -1), v(T);
    for (std::size_t g = 0; g < T; ++g) v[g] = std::int64_t(g);
    for (int r = 0; r < rounds; ++r) {
      std::vector<std::int64_t> nv(T);
      for (std::size_t g = 0; g < T; ++g) { std::size_t base = g / 32 * 32; nv[g] = v[base + (g % 32 + 1) % 32]; }
      std::vector<std::int64_t> sh = nv;
      for (std::size_t g = 0; g < T; ++g) { std::size_t b = g / th, l = g % th; nv[g] = sh[b * th + (l + 32) % th]; }
      std::vector<std::int64_t> mx(T);
      for (std::size_t g = 0; g < T; ++g) { std::int64_t m = nv[g / 32 * 32]; for (std::size_t k = g / 32 * 32; k < g / 32 * 32 + 32; ++k) m = std::max(m, nv[k]); mx[g] = m; }
      for (std::size_t g = 0; g < T; ++g) v[g] = nv[g] + mx[g] % 7;
    }
    launch(ring, {.workgroups = {wg}, .threads = {th}}, std::span(out), rounds);
    CHECK(out == v, "ring wg=%u th=%u rounds=%d: [0] got %lld want %lld", wg, th, rounds, (long long)out[0], (long long)v[0]);
  }
  for (unsigned wg : {1u, 5u}) for (unsigned th : {32u, 64u, 256u, 1024u}) for (unsigned k : {0u, 1u, 3u, 32u}) {
    std::vector<std::int64_t> out(wg, -1), want(wg, 0);
    for (unsigned b = 0; b < wg; ++b) for (unsigned l = 0; l < th; ++l) if (l / 32 < k) want[b] += std::int64_t(b) * th + l;
    launch(some_warps, {.workgroups = {wg}, .threads = {th}}, std::span(out), k);
    CHECK(out == want, "some_warps wg=%u th=%u k=%u: got %lld want %lld", wg, th, k, (long long)out[0], (long long)want[0]);
  }
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(40), std::size_t(1000), std::size_t(77777)}) {
    std::vector<int> a(n + 1); for (std::size_t i = 0; i <= n; ++i) a[i] = int(i * 37 % 11) - 5;
    for (unsigned wg : {1u, 3u}) for (unsigned th : {64u, 256u}) for (unsigned k : {1u, 2u, th / 32}) {
      std::size_t T = std::size_t(wg) * th;
      std::vector<std::int64_t> out(T, -1), want(T, 0);
      for (std::size_t g = 0; g < T; ++g) {
        unsigned b = unsigned(g / th), l = unsigned(g % th), w = l / 32;
        if (w >= k) continue;
        for (std::size_t base = (std::size_t(b) * k + w) * 32; base < n; base += std::size_t(wg) * k * 32)
          for (unsigned j = 0; j < 32; ++j) if (base + j < n && a[base + j] > 0) want[g]++;
      }
      launch(gs_ballot, {.workgroups = {wg}, .threads = {th}}, std::span<const int>(a), std::span(out), n, k);
      CHECK(out == want, "gs_ballot n=%zu wg=%u th=%u k=%u", n, wg, th, k);
    }
  }
  return finish("w4_mixed");
}
