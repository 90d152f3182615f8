// 5x5 Gaussian blur of a 4096x4096 float image on the offload device.
// One workgroup of 16x16 work-items per 16x16 output tile; the tile plus a 2-pixel halo is
// staged in shared memory, then every work-item convolves from shared memory.
// Build: offload-cxx -O3 blur.cpp -o blur
#include <offload/offload.hpp>
#include "blur_ref.hpp"
using namespace blur;

constexpr int TS = 16;          // output tile edge = workgroup edge
constexpr int T = TS + 2 * R;   // staged tile edge with halo

OFFLOAD_KERNEL void blur5x5(offload::readonly_ptr<float> in, offload::device_ptr<float> out,
                            int w, int h, filter f) {
  auto &tile = offload::shared<float[T][T]>([] {});
  const int tx = int(offload::thread_id_x()), ty = int(offload::thread_id_y());
  const int x0 = int(offload::block_id_x()) * TS - R, y0 = int(offload::block_id_y()) * TS - R;
  // cooperative load of T*T pixels by TS*TS work-items, clamped to the image
  for (int k = ty * TS + tx; k < T * T; k += TS * TS) {
    const int ly = k / T, lx = k % T;
    const int gy = clampi(y0 + ly, 0, h - 1), gx = clampi(x0 + lx, 0, w - 1);
    tile[ly][lx] = in[std::size_t(gy) * w + gx];
  }
  offload::barrier();
  const int x = x0 + R + tx, y = y0 + R + ty;
  if (x < w && y < h) {
    float acc = 0.f;
    for (int dy = 0; dy < K; ++dy)
      for (int dx = 0; dx < K; ++dx) acc += f.w[dy][dx] * tile[ty + dy][tx + dx];
    out[std::size_t(y) * w + x] = acc;
  }
}

int main() {
  const filter f = gaussian();
  std::vector<float> in = make_image(), out(in.size());

  offload::buffer<float> d_in(in.size()), d_out(in.size());
  d_in.copy_from(in);
  const offload::launch_config cfg{.workgroups = {(W + TS - 1) / TS, (H + TS - 1) / TS},
                                   .threads = {TS, TS}};
  auto run = [&] {
    offload::launch(blur5x5, cfg, d_in.data(), d_out.data(), W, H, f);
    offload::synchronize();
  };
  run();  // warm-up (device start)
  double ms = bench::median_ms(run);
  d_out.copy_to(out);

  // The same blur written the plain way: a range2d lambda reading global memory (no tile).
  std::vector<float> out2(in.size());
  auto run_lambda = [&] {
    offload::readonly_ptr<float> src = d_in.data();
    offload::device_ptr<float> dst = d_out.data();
    const filter fl = f;
    offload::parallel_for(offload::range2d{W, H}, [=](std::size_t x, std::size_t y) {
      float acc = 0.f;
      for (int dy = -R; dy <= R; ++dy)
        for (int dx = -R; dx <= R; ++dx)
          acc += fl.w[dy + R][dx + R] *
                 src[std::size_t(clampi(int(y) + dy, 0, H - 1)) * W + clampi(int(x) + dx, 0, W - 1)];
      dst[y * W + x] = acc;
    });
    offload::synchronize();
  };
  d_out.fill(0.f);
  run_lambda();
  double ms_lambda = bench::median_ms(run_lambda);
  d_out.copy_to(out2);

  std::vector<float> ref, twin;
  reference(in, ref, f);
  double d = bench::max_rel_diff(out, ref, 1e-3);
  double d2 = bench::max_rel_diff(out2, ref, 1e-3);
  bool ok = d < 1e-5 && d2 < 1e-5;
  if (bench::read_file("blur_omp.out", twin, out.size())) {
    double dt = bench::max_rel_diff(out, twin, 1e-3);
    std::printf("vs OpenMP twin: max rel diff %.2e\n", dt);
    ok = ok && dt < 1e-5;
  } else {
    std::printf("(no blur_omp.out: run ./blur_omp first to compare with the twin)\n");
  }
  std::printf("CHECK %s (max rel diff vs serial %.2e, on %s)\n", ok ? "ok" : "WRONG", d,
              offload::last_launch_device().c_str());
  std::printf("blur %.2f ms\n", ms);
  std::printf("blur_lambda %.2f ms (range2d lambda, no shared tile; max rel diff %.2e)\n", ms_lambda, d2);
  return ok ? 0 : 1;
}
