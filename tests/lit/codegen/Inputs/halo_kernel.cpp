// A shared-memory tile with a one-cell halo, as stencils load it (opt-range-check-versioning.test):
// the halo columns are tests of x against the row's ends, the halo rows tests the x loop does not
// change.
#include <offload/offload.hpp>

constexpr int TX = 32, TY = 8;

OFFLOAD_KERNEL void load_tile(offload::device_ptr<const double> in, offload::device_ptr<double> out, int n) {
  auto &tile = offload::shared<double[TY + 2][TX + 2]>([] {});
  const int tx = int(offload::thread_id_x()), ty = int(offload::thread_id_y());
  const int gx = int(offload::block_id_x()) * TX + tx, gy = int(offload::block_id_y()) * TY + ty;
  if (gx < n && gy < n) {
    const int c = gy * n + gx;
    tile[ty + 1][tx + 1] = in[c];
    if (tx == 0 && gx > 0) tile[ty + 1][0] = in[c - 1];
    if ((tx == TX - 1 || gx == n - 1) && gx + 1 < n) tile[ty + 1][tx + 2] = in[c + 1];
    if (ty == 0 && gy > 0) tile[0][tx + 1] = in[c - n];
    if ((ty == TY - 1 || gy == n - 1) && gy + 1 < n) tile[ty + 2][tx + 1] = in[c + n];
  }
  offload::barrier();
  if (gx < n && gy < n)
    out[gy * n + gx] = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2];
}

int main() {
  offload::buffer<double> in(64 * 64), out(64 * 64);
  offload::launch(load_tile, {.workgroups = {2, 8}, .threads = {TX, TY}}, in.data(), out.data(), 64);
}
