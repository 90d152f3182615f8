#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>
// After the barrier, only some work-items (t % 4 == 1) read the grid's height (a load of the
// workgroup's shape) and compute an index from their own id: the load is the same for every
// work-item and saves each of them a load, so it moves before region 1's work-item loop; the
// arithmetic `t * 5 + 3` is the work-item's own and stays; `offset * 7 + 1`, uniform but cheap,
// stays in the branch too (moved, it would only add a value live across the loop). The second
// branch loads the same field: one value before the loop serves both.
OFFLOAD_KERNEL void cost_rule(std::span<int> out, int offset) {
  auto &s = offload::shared<int[256]>([] {});
  const unsigned t = offload::thread_id_x();
  s[t] = int(t);
  offload::barrier();
  if (t % 4 == 1)
    out[offload::global_id_x()] = s[(t + 1) % 256] * int(offload::grid_dim_y()) + int(t * 5 + 3) + (offset * 7 + 1);
  else if (t % 4 == 2)
    out[offload::global_id_x()] = s[t] - int(offload::grid_dim_y());
}
int main() {
  std::vector<int> out(512, 0);
  offload::launch(cost_rule, {.workgroups = {2}, .threads = {256}}, std::span(out), 10);
  bool ok = true;
  for (unsigned i = 0; i < 512; ++i) {
    const unsigned t = i % 256;
    const int want = t % 4 == 1 ? int((t + 1) % 256) * 1 + int(t * 5 + 3) + 71 : t % 4 == 2 ? int(t) - 1 : 0;
    ok &= out[i] == want;
  }
  std::printf("cost_rule: %s\n", ok ? "all checks passed" : "WRONG");
  return ok ? 0 : 1;
}
