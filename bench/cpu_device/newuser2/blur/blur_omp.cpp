// OpenMP twin of blur.cpp: g++ -O3 -fopenmp blur_omp.cpp -o blur_omp
#include "blur_ref.hpp"
#include <omp.h>
using namespace blur;

int main() {
  const filter f = gaussian();
  std::vector<float> in = make_image(), out(in.size());
  auto run = [&] {
#pragma omp parallel for schedule(static)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        float acc = 0.f;
        for (int dy = -R; dy <= R; ++dy)
          for (int dx = -R; dx <= R; ++dx)
            acc += f.w[dy + R][dx + R] * in[std::size_t(clampi(y + dy, 0, H - 1)) * W + clampi(x + dx, 0, W - 1)];
        out[std::size_t(y) * W + x] = acc;
      }
  };
  run();  // warm-up
  double ms = bench::median_ms(run);
  std::vector<float> ref;
  reference(in, ref, f);
  double d = bench::max_rel_diff(out, ref, 1e-3);
  bench::write_file("blur_omp.out", out);
  std::printf("CHECK %s (max rel diff vs serial %.2e, %d threads)\n", d < 1e-5 ? "ok" : "WRONG", d, omp_get_max_threads());
  std::printf("blur_omp %.2f ms\n", ms);
  return d < 1e-5 ? 0 : 1;
}
