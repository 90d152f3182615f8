// Followed: user guide "Kernels and launches", "Data kept on the device" (offload::buffer,
// device_ptr, copy_from / copy_to), "The device-side library" (offload::shared, barrier(),
// shuffle_up, lane_id, warps of 32 lanes).
// Inclusive prefix sum of 32 Mi unsigned ints (mod 2^32), three passes as in CUDA:
//   1. each workgroup scans its tile of 2048 elements (coalesced loads into shared memory,
//      per-thread serial scan, warp scan by shuffle_up, scan of the warp totals, barriers)
//      and writes the tile's total;
//   2. one workgroup scans the 16384 tile totals with the same routine;
//   3. every tile but the first adds the total of the tiles before it.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

constexpr unsigned THREADS = 256, WARPS = THREADS / 32;
constexpr unsigned ITEMS = 8, TILE = THREADS * ITEMS;  // 2048 elements per workgroup
constexpr std::size_t N = std::size_t(1) << 25;        // 32 Mi elements
constexpr unsigned TILES = unsigned((N + TILE - 1) / TILE);  // 16384
constexpr unsigned ITEMS2 = TILES / THREADS;                 // 64: pass 2 in one workgroup
static_assert(TILES % THREADS == 0);

// Scans TILE_ITEMS*THREADS values of `tile` (shared) in place; returns the workgroup's total.
template <unsigned PER>
unsigned block_scan(unsigned *tile) {
  auto &warp_sums = offload::shared<unsigned[WARPS]>([] {});
  const unsigned t = unsigned(offload::thread_id_x()), lane = offload::lane_id(), warp = t / 32;
  unsigned v[PER];
  unsigned sum = 0;
  for (unsigned k = 0; k < PER; ++k) v[k] = (sum += tile[t * PER + k]);
  // inclusive warp scan of the per-thread sums
  unsigned x = sum;
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned y = offload::shuffle_up(x, d);
    if (lane >= d) x += y;
  }
  if (lane == 31) warp_sums[warp] = x;
  offload::barrier();
  if (warp == 0) {
    unsigned w = lane < WARPS ? warp_sums[lane] : 0u;
    for (unsigned d = 1; d < WARPS; d *= 2) {
      unsigned y = offload::shuffle_up(w, d);
      if (lane >= d) w += y;
    }
    if (lane < WARPS) warp_sums[lane] = w;
  }
  offload::barrier();
  const unsigned before = (x - sum) + (warp > 0 ? warp_sums[warp - 1] : 0u);
  for (unsigned k = 0; k < PER; ++k) tile[t * PER + k] = v[k] + before;
  const unsigned total = warp_sums[WARPS - 1];
  offload::barrier();
  return total;
}

OFFLOAD_KERNEL void scan_tiles(offload::device_ptr<const unsigned> in, offload::device_ptr<unsigned> out,
                               offload::device_ptr<unsigned> tile_sums, std::uint64_t n) {
  auto &tile = offload::shared<unsigned[TILE]>([] {});
  const unsigned t = unsigned(offload::thread_id_x());
  const std::size_t base = std::size_t(offload::block_id_x()) * TILE;
  for (unsigned k = 0; k < ITEMS; ++k) {
    const std::size_t i = base + k * THREADS + t;
    tile[k * THREADS + t] = i < n ? in[i] : 0u;
  }
  offload::barrier();
  const unsigned total = block_scan<ITEMS>(tile);
  for (unsigned k = 0; k < ITEMS; ++k) {
    const std::size_t i = base + k * THREADS + t;
    if (i < n) out[i] = tile[k * THREADS + t];
  }
  if (t == 0) tile_sums[offload::block_id_x()] = total;
}

OFFLOAD_KERNEL void scan_sums(offload::device_ptr<unsigned> sums) {  // one workgroup, TILES values
  auto &tile = offload::shared<unsigned[TILES]>([] {});
  const unsigned t = unsigned(offload::thread_id_x());
  for (unsigned k = 0; k < ITEMS2; ++k) tile[k * THREADS + t] = sums[k * THREADS + t];
  offload::barrier();
  block_scan<ITEMS2>(tile);
  for (unsigned k = 0; k < ITEMS2; ++k) sums[k * THREADS + t] = tile[k * THREADS + t];
}

OFFLOAD_KERNEL void add_offsets(offload::device_ptr<unsigned> out, offload::device_ptr<const unsigned> sums,
                                std::uint64_t n) {
  const unsigned b = unsigned(offload::block_id_x());
  if (b == 0) return;
  const unsigned offset = sums[b - 1];
  const std::size_t base = std::size_t(b) * TILE;
  for (unsigned k = 0; k < ITEMS; ++k) {
    const std::size_t i = base + k * THREADS + offload::thread_id_x();
    if (i < n) out[i] += offset;
  }
}

int main() {
  std::vector<unsigned> in(N), out(N);
  std::uint32_t s = 99;
  for (auto &v : in) {
    s = s * 1664525u + 1013904223u;
    v = s >> 16;
  }
  offload::buffer<unsigned> d_in(N), d_out(N), d_sums(TILES);
  const offload::launch_config tiles{.workgroups = {TILES}, .threads = {THREADS}};

  auto run = [&] {
    d_in.copy_from(std::span<const unsigned>(in));
    offload::launch(scan_tiles, tiles, d_in.data(), d_out.data(), d_sums.data(), std::uint64_t(N));
    offload::launch(scan_sums, {.workgroups = {1}, .threads = {THREADS}}, d_sums.data());
    offload::launch(add_offsets, tiles, d_out.data(), d_sums.data(), std::uint64_t(N));
    d_out.copy_to(std::span<unsigned>(out));
  };

  run();  // warm-up
  std::vector<double> times;
  for (int r = 0; r < 7; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }

  bool ok = true;
  unsigned acc = 0;
  for (std::size_t i = 0; i < N; ++i) {
    acc += in[i];
    if (out[i] != acc) { ok = false; break; }
  }
  std::printf("CHECK %s\n", ok ? "ok" : "WRONG");
  std::sort(times.begin(), times.end());
  std::printf("scan %.3f ms\n", times[3]);
  return 0;
}
