// grid-stride loops inside barrier kernels (which -v reports "in lockstep": the loops may run as sweeps):
// values carried across iterations, the index used after the loop, block-stride loops, offsets, per-item
// trip counts, break/continue, local arrays indexed by the trip, two loops in a row, uniform outer loops
#include <offload/offload.hpp>
#include "common.hpp"
#include <algorithm>
using namespace offload;

#define GS(i, start) for (std::size_t i = (start); i < n; i += std::size_t(grid_dim_x()) * block_dim_x())

template <int V>
OFFLOAD_KERNEL void sweep(std::span<const int> a, std::span<std::int64_t> o, std::span<int> w, std::size_t n, std::size_t off) {
  auto &sh = shared<std::int64_t[256]>([] {});
  const unsigned t = thread_id_x();
  const std::size_t g = global_id_x();
  sh[t] = 1;
  barrier();
  std::int64_t r0 = 0, r1 = 0, r2 = 0;
  if constexpr (V == 0) {            // carried value: difference with the previous element this item saw
    std::int64_t prev = 0;
    GS(i, g) { w[i] = int(a[i] - prev); prev = a[i]; ++r0; }
    r1 = prev;
  } else if constexpr (V == 1) {     // index used after the loop
    std::size_t i = g;
    for (; i < n; i += std::size_t(grid_dim_x()) * block_dim_x()) r0 += a[i];
    r1 = std::int64_t(i);
  } else if constexpr (V == 2) {     // block-stride loop (each workgroup covers all n)
    for (std::size_t i = t; i < n; i += block_dim_x()) r0 += a[i] * std::int64_t(block_id_x() + 1);
  } else if constexpr (V == 3) {     // offset start, and stride 3x the grid
    for (std::size_t i = off + 3 * g; i < n; i += 3 * std::size_t(grid_dim_x()) * block_dim_x()) { r0 += a[i]; w[i] += 1; }
  } else if constexpr (V == 4) {     // per-item bound
    const std::size_t lim = n > g % 7 ? n - g % 7 : 0;
    for (std::size_t i = g; i < lim; i += std::size_t(grid_dim_x()) * block_dim_x()) r0 += a[i];
  } else if constexpr (V == 5) {     // break and continue
    GS(i, g) { if (a[i] % 3 == 0) continue; r0 += a[i]; ++r1; if (a[i] > 990) break; }
  } else if constexpr (V == 6) {     // local array indexed by trip count, read after the loop
    int loc[8] = {0, 0, 0, 0, 0, 0, 0, 0}; unsigned k = 0;
    GS(i, g) { loc[k % 8] += a[i]; ++k; }
    for (int j = 0; j < 8; ++j) r0 = r0 * 31 + loc[j];
    r1 = k;
  } else if constexpr (V == 7) {     // two loops in a row, second starts where the first stopped counting
    std::size_t c = 0;
    GS(i, g) { r0 += a[i]; ++c; }
    GS(i, g + c) { r1 += a[i]; }
  } else if constexpr (V == 8) {     // uniform outer loop with a barrier and a shared tree per round
    for (int round = 0; round < 3; ++round) {
      std::int64_t s = 0;
      GS(i, g) s += a[i] * (round + 1);
      sh[t] = s;
      barrier();
      for (unsigned h = 128; h > 0; h >>= 1) { if (t < h) sh[t] += sh[t + h]; barrier(); }
      r0 = r0 * 3 + sh[0];
      barrier();
    }
  } else if constexpr (V == 9) {     // signed int counting, decreasing loop
    for (long i = long(n) - 1 - long(g); i >= 0; i -= long(grid_dim_x() * block_dim_x())) { r0 = r0 * 3 + a[std::size_t(i)]; r0 %= 1000000007; }
  } else if constexpr (V == 10) {    // grid-stride loop where work-items write neighbours' elements (read a[i+1])
    GS(i, g) { std::int64_t nb = i + 1 < n ? a[i + 1] : 0; w[i] = int(nb - a[i]); r0 += nb; }
  }
  barrier();
  o[3 * g] = r0; o[3 * g + 1] = r1; o[3 * g + 2] = sh[t];
}

template <int V>
void test(std::size_t n, unsigned wg, std::size_t off) {
  const unsigned th = 256;
  const std::size_t T = std::size_t(wg) * th, st = T;
  std::vector<int> a(n + 1);
  for (std::size_t i = 0; i <= n; ++i) a[i] = int((i * 2654435761u) % 1000);
  std::vector<std::int64_t> o(3 * T, -1), wo(3 * T, 0);
  std::vector<int> w(n + 1, 0), ww(n + 1, 0);
  std::vector<std::int64_t> tree(3 * wg, 0);
  if (V == 8) for (unsigned b = 0; b < wg; ++b) for (int round = 0; round < 3; ++round) { std::int64_t s = 0; for (unsigned t = 0; t < th; ++t) for (std::size_t i = b * th + t; i < n; i += st) s += a[i] * (round + 1); tree[3 * b + round] = s; }
  for (std::size_t g = 0; g < T; ++g) {
    std::int64_t r0 = 0, r1 = 0;
    const unsigned t = unsigned(g % th), b = unsigned(g / th);
    if (V == 0) { std::int64_t prev = 0; for (std::size_t i = g; i < n; i += st) { ww[i] = int(a[i] - prev); prev = a[i]; ++r0; } r1 = prev; }
    if (V == 1) { std::size_t i = g; for (; i < n; i += st) r0 += a[i]; r1 = std::int64_t(i); }
    if (V == 2) for (std::size_t i = t; i < n; i += th) r0 += a[i] * std::int64_t(b + 1);
    if (V == 3) for (std::size_t i = off + 3 * g; i < n; i += 3 * st) { r0 += a[i]; ww[i] += 1; }
    if (V == 4) { std::size_t lim = n > g % 7 ? n - g % 7 : 0; for (std::size_t i = g; i < lim; i += st) r0 += a[i]; }
    if (V == 5) for (std::size_t i = g; i < n; i += st) { if (a[i] % 3 == 0) continue; r0 += a[i]; ++r1; if (a[i] > 990) break; }
    if (V == 6) { int loc[8] = {}; unsigned k = 0; for (std::size_t i = g; i < n; i += st) { loc[k % 8] += a[i]; ++k; } for (int j = 0; j < 8; ++j) r0 = r0 * 31 + loc[j]; r1 = k; }
    if (V == 7) { std::size_t c = 0; for (std::size_t i = g; i < n; i += st) { r0 += a[i]; ++c; } for (std::size_t i = g + c; i < n; i += st) r1 += a[i]; }
    if (V == 8) for (int round = 0; round < 3; ++round) r0 = r0 * 3 + tree[3 * b + round];
    if (V == 9) for (long i = long(n) - 1 - long(g); i >= 0; i -= long(st)) { r0 = r0 * 3 + a[std::size_t(i)]; r0 %= 1000000007; }
    if (V == 10) for (std::size_t i = g; i < n; i += st) { std::int64_t nb = i + 1 < n ? a[i + 1] : 0; ww[i] = int(nb - a[i]); r0 += nb; }
    wo[3 * g] = r0; wo[3 * g + 1] = r1; wo[3 * g + 2] = V == 8 ? tree[3 * b] + tree[3 * b + 1] + tree[3 * b + 2] : 1;
  }
  if (V == 8) for (std::size_t g = 0; g < T; ++g) wo[3 * g + 2] = tree[3 * (g / th) + 2];   // sh[t] after last round: tree result only at t==0
  launch(sweep<V>, {.workgroups = {wg}, .threads = {th}}, std::span<const int>(a), std::span(o), std::span(w), n, off);
  long bad = -1;
  for (std::size_t g = 0; g < T; ++g) {
    if (o[3 * g] != wo[3 * g] || o[3 * g + 1] != wo[3 * g + 1]) { bad = long(g); break; }
    if (V != 8 && o[3 * g + 2] != 1) { bad = long(g); break; }
    if (V == 8 && g % th == 0 && o[3 * g + 2] != wo[3 * g + 2]) { bad = long(g); break; }
  }
  long badw = -1;
  for (std::size_t i = 0; i <= n; ++i) if (w[i] != ww[i]) { badw = long(i); break; }
  CHECK(bad < 0 && badw < 0, "sweep<%d> n=%zu wg=%u off=%zu: item %ld got (%lld,%lld,%lld) want (%lld,%lld,%lld); w[%ld] got %d want %d", V, n, wg, off, bad,
        bad >= 0 ? (long long)o[3 * bad] : 0, bad >= 0 ? (long long)o[3 * bad + 1] : 0, bad >= 0 ? (long long)o[3 * bad + 2] : 0,
        bad >= 0 ? (long long)wo[3 * bad] : 0, bad >= 0 ? (long long)wo[3 * bad + 1] : 0, bad >= 0 ? (long long)wo[3 * bad + 2] : 0,
        badw, badw >= 0 ? w[badw] : 0, badw >= 0 ? ww[badw] : 0);
}

template <int V> void all() {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(100), std::size_t(255), std::size_t(256), std::size_t(257), std::size_t(769), std::size_t(5000), std::size_t(262147)})
    for (unsigned wg : {1u, 2u, 3u, 10u})
      for (std::size_t off : {std::size_t(0), std::size_t(1), std::size_t(300)}) {
        if (V != 3 && off) continue;
        test<V>(n, wg, off);
      }
}

int main() {
  all<0>(); all<1>(); all<2>(); all<3>(); all<4>(); all<5>(); all<6>(); all<7>(); all<8>(); all<9>(); all<10>();
  return finish("gs7_sweeps");
}
