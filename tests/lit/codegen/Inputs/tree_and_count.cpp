// A reduction tree (`if (t < h)` after each barrier, `if (t == 0)` at the end) and a kernel
// without barriers whose work-items all add to one counter (tests/lit/codegen/cpu-barrier-loops.test).
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

OFFLOAD_KERNEL void tree_sum(std::span<const int> in, int *total) {
  auto &s = offload::shared<int[128]>([] {});
  const unsigned t = offload::thread_id_x();
  const std::size_t i = offload::global_id_x();
  s[t] = i < in.size() ? in[i] : 0;
  offload::barrier();
  for (unsigned h = 64; h > 0; h /= 2) {
    if (t < h) s[t] += s[t + h];
    offload::barrier();
  }
  if (t == 0) offload::atomic_add(total, s[0]);
}

OFFLOAD_KERNEL void count_positive(std::span<const int> in, unsigned long long *count) {
  const std::size_t i = offload::global_id_x();
  if (i < in.size() && in[i] > 0)
    offload::atomic_add(count, 1ull);
}

// A grid-stride sum, one atomic_add of a variable per work-item: on the CPU device atomic_add
// reads instead of adding when the value is 0 (offload/atomic.hpp), a relaxed load the combining
// drops.
OFFLOAD_KERNEL void grid_sum(std::span<const int> in, long long *sum) {
  long long mine = 0;
  for (std::size_t i = offload::global_id_x(); i < in.size(); i += offload::grid_dim_x() * offload::block_dim_x())
    mine += in[i];
  offload::atomic_add(sum, mine);
}

int main() {
  std::vector<int> in(100000);
  long long want = 0, positive = 0;
  for (std::size_t k = 0; k < in.size(); ++k) {
    in[k] = int(k % 7) - 3;
    want += in[k];
    positive += in[k] > 0;
  }
  int total = 0;
  unsigned long long count = 0;
  const unsigned groups = unsigned((in.size() + 127) / 128);
  offload::launch(tree_sum, {.workgroups = {groups}, .threads = {128}}, std::span<const int>(in), &total);
  offload::launch(count_positive, {.workgroups = {groups}, .threads = {128}}, std::span<const int>(in), &count);
  long long sum = 0;
  offload::launch(grid_sum, {.workgroups = {7}, .threads = {64}}, std::span<const int>(in), &sum);
  const bool ok = total == want && count == (unsigned long long)positive && sum == want;
  std::printf("tree_and_count: %s\n", ok ? "all checks passed" : "WRONG");
  return ok ? 0 : 1;
}
