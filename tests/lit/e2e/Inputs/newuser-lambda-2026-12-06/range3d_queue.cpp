// 3-D range (default device and a named device), queue parallel_for / parallel_reduce, queue on a
// chosen device, several lambdas queued in order.
#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>

int main() {
  const std::size_t nx = 37, ny = 11, nz = 9;
  const std::size_t n = nx * ny * nz;
  int fails = 0;

  // 3-D on the default device: v[z][y][x] = x + 100*y + 10000*z
  std::vector<long> v(n, -1);
  std::span<long> vs(v);
  offload::parallel_for(offload::range3d{nx, ny, nz}, [=](std::size_t x, std::size_t y, std::size_t z) {
    vs[(z * ny + y) * nx + x] = long(x + 100 * y + 10000 * z);
  });
  for (std::size_t z = 0; z < nz; ++z)
    for (std::size_t y = 0; y < ny; ++y)
      for (std::size_t x = 0; x < nx; ++x) {
        long want = long(x + 100 * y + 10000 * z), got = v[(z * ny + y) * nx + x];
        if (got != want && fails++ < 5) std::printf("FAIL 3d (%zu,%zu,%zu) got %ld want %ld\n", x, y, z, got, want);
      }

  // A queue on the CPU device: three launches in order, then wait.
  offload::queue q(offload::cpu_device);
  std::vector<double> a(n, 1.0), b(n, 0.0);
  std::span<double> as(a), bs(b);
  const double s = 3.0;
  // (q.parallel_for takes only a 1-D range here: range2d/range3d do not compile on a queue)
  q.parallel_for(offload::range{n}, [=](std::size_t i) {
    std::size_t z = i / (nx * ny);
    as[i] = as[i] * s + double(z);
  });
  q.parallel_for(offload::range{n}, [=](std::size_t i) { bs[i] = as[i] * 2.0; });
  q.parallel_for(offload::range{n / 2, n}, [=](auto i) { bs[i] += 1.0; });
  q.parallel_for(offload::range{std::size_t(0), n / 2}, [=](auto i) { bs[i] += 1.0; });
  q.wait();
  for (std::size_t z = 0; z < nz; ++z)
    for (std::size_t y = 0; y < ny; ++y)
      for (std::size_t x = 0; x < nx; ++x) {
        std::size_t i = (z * ny + y) * nx + x;
        double wa = 3.0 + double(z), wb = wa * 2.0 + 1.0;
        if ((a[i] != wa || b[i] != wb) && fails++ < 10)
          std::printf("FAIL queue (%zu,%zu,%zu) a=%g (want %g) b=%g (want %g)\n", x, y, z, a[i], wa, b[i], wb);
      }

  // q.parallel_reduce after a queued parallel_for: waits for the queue first.
  std::vector<int> c(n, 0);
  std::span<int> cs(c);
  q.parallel_for(offload::range{n}, [=](std::size_t i) { cs[i] = int(i % 5); });
  std::span<const int> ccs(c);
  long long total = q.parallel_reduce(offload::range{n}, 0LL, [=](std::size_t i) { return (long long)ccs[i]; });
  q.wait();
  long long want_total = 0;
  for (std::size_t i = 0; i < n; ++i) want_total += (long long)(i % 5);
  if (total != want_total) { ++fails; std::printf("FAIL queue reduce got %lld want %lld\n", total, want_total); }

  // the same queue-free 3-D launch on a named device
  std::vector<unsigned> hits(n, 0);
  std::span<unsigned> hs(hits);
  offload::parallel_for(offload::cpu_device, offload::range3d{nx, ny, nz},
                        [=](auto x, auto y, auto z) { hs[(z * ny + y) * nx + x] += 1u; });
  for (std::size_t i = 0; i < n; ++i)
    if (hits[i] != 1u && fails++ < 15) std::printf("FAIL 3d named [%zu] hits %u\n", i, hits[i]);

  if (fails) { std::printf("FAIL range3d_queue: %d mismatches\n", fails); return 1; }
  std::printf("PASS range3d_queue\n");
  return 0;
}
