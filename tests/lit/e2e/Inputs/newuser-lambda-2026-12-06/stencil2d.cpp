// 2-D: Jacobi 5-point stencil sweeps and a matrix transpose with range2d; several lambdas in
// one function; x is the contiguous index.
#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>

int main() {
  const std::size_t nx = 131, ny = 77;  // odd sizes: partial workgroups
  std::vector<double> a(nx * ny), b(nx * ny, 0.0);
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x) a[y * nx + x] = double((x * 7 + y * 3) % 11);
  std::vector<double> ra = a, rb = b;  // host reference

  // host reference: 4 sweeps a->b, b->a
  auto host_sweep = [&](const std::vector<double> &in, std::vector<double> &out) {
    for (std::size_t y = 0; y < ny; ++y)
      for (std::size_t x = 0; x < nx; ++x) {
        if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) { out[y * nx + x] = in[y * nx + x]; continue; }
        out[y * nx + x] = 0.25 * (in[y * nx + x - 1] + in[y * nx + x + 1] + in[(y - 1) * nx + x] +
                                  in[(y + 1) * nx + x]);
      }
  };
  for (int s = 0; s < 2; ++s) { host_sweep(ra, rb); host_sweep(rb, ra); }

  for (int s = 0; s < 2; ++s) {
    std::span<const double> in(a);
    std::span<double> out(b);
    offload::parallel_for(offload::range2d{nx, ny}, [=](std::size_t x, std::size_t y) {
      if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) { out[y * nx + x] = in[y * nx + x]; return; }
      out[y * nx + x] = 0.25 * (in[y * nx + x - 1] + in[y * nx + x + 1] + in[(y - 1) * nx + x] +
                                in[(y + 1) * nx + x]);
    });
    std::span<const double> in2(b);
    std::span<double> out2(a);
    offload::parallel_for(offload::range2d{nx, ny}, [=](std::size_t x, std::size_t y) {
      if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) { out2[y * nx + x] = in2[y * nx + x]; return; }
      out2[y * nx + x] = 0.25 * (in2[y * nx + x - 1] + in2[y * nx + x + 1] +
                                 in2[(y - 1) * nx + x] + in2[(y + 1) * nx + x]);
    });
  }
  int fails = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != ra[i]) { if (fails++ < 5) std::printf("FAIL stencil [%zu] got %g want %g\n", i, a[i], ra[i]); }

  // transpose: t[x][y] = m[y][x], m is ny rows of nx; t is nx rows of ny
  std::vector<float> m(nx * ny), t(nx * ny, -1.0f);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = float(i);
  std::span<const float> ms(m);
  std::span<float> ts(t);
  offload::parallel_for(offload::cpu_device, offload::range2d{nx, ny},
                        [=](std::size_t x, std::size_t y) { ts[x * ny + y] = ms[y * nx + x]; });
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x)
      if (t[x * ny + y] != m[y * nx + x]) {
        if (fails++ < 10) std::printf("FAIL transpose (%zu,%zu) got %g want %g\n", x, y, t[x * ny + y], m[y * nx + x]);
      }

  // every (x, y) exactly once: count with a 2-D range of 1 x n and n x 1
  std::vector<int> cnt(nx * ny, 0);
  std::span<int> cs(cnt);
  offload::parallel_for(offload::range2d{nx * ny, std::size_t(1)},
                        [=](std::size_t x, std::size_t y) { cs[x + y] += 1; });
  offload::parallel_for(offload::range2d{std::size_t(1), nx * ny},
                        [=](std::size_t x, std::size_t y) { cs[x + y] += 10; });
  for (std::size_t i = 0; i < cnt.size(); ++i)
    if (cnt[i] != 11) { if (fails++ < 15) std::printf("FAIL degenerate 2d [%zu] got %d want 11\n", i, cnt[i]); }

  if (fails) { std::printf("FAIL stencil2d: %d mismatches\n", fails); return 1; }
  std::printf("PASS stencil2d\n");
  return 0;
}
