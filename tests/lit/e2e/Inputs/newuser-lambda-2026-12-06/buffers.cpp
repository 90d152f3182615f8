// Lambdas capturing an offload::buffer's device_ptr and a std::span<const T>; buffers kept
// on the device across several lambdas, on the default device and on a queue.
#include <offload/offload.hpp>
#include <cstdio>
#include <span>
#include <vector>

int main() {
  const std::size_t n = 10007;
  std::vector<float> host(n), coef(n);
  for (std::size_t i = 0; i < n; ++i) { host[i] = float(i % 100); coef[i] = float(i % 3) + 0.5f; }
  int fails = 0;

  offload::buffer<float> buf(n);
  buf.copy_from(std::span<const float>(host));
  offload::device_ptr<float> d = buf.data();
  std::span<const float> cs(coef);  // in only

  // several launches on the buffer: nothing copied back until copy_to
  offload::parallel_for(offload::range{n}, [=](std::size_t i) { d[i] = d[i] * cs[i]; });
  offload::parallel_for(offload::range{n}, [=](std::size_t i) { d[i] += 1.0f; });
  float sum = offload::parallel_reduce(offload::range{n}, 0.0f, [=](std::size_t i) { return d[i]; });
  float mx = offload::parallel_reduce(offload::range{n}, -1.0f, [=](std::size_t i) { return d[i]; },
                                      offload::maximum<>{});
  std::vector<float> out(n);
  buf.copy_to(std::span<float>(out));
  double want_sum = 0;
  float want_max = -1.0f;
  for (std::size_t i = 0; i < n; ++i) {
    float w = host[i] * coef[i] + 1.0f;
    want_sum += w;
    want_max = w > want_max ? w : want_max;
    if (out[i] != w && fails++ < 5) std::printf("FAIL buffer [%zu] got %g want %g\n", i, out[i], w);
  }
  // exact in float: all values are multiples of 0.5 below 2^24
  if (double(sum) != want_sum) { ++fails; std::printf("FAIL buffer sum %.9g want %.9g\n", sum, want_sum); }
  if (mx != want_max) { ++fails; std::printf("FAIL buffer max %g want %g\n", mx, want_max); }

  // a buffer on the CPU device, a queue on it, device_ptr<const T> captured
  offload::buffer<double> a(n, offload::cpu_device), b(n, offload::cpu_device);
  std::vector<double> ha(n);
  for (std::size_t i = 0; i < n; ++i) ha[i] = double(i);
  offload::queue q(offload::cpu_device);
  q.copy(a, std::span<const double>(ha));
  offload::device_ptr<const double> ap = a.data();
  offload::device_ptr<double> bp = b.data();
  q.parallel_for(offload::range{n}, [=](std::size_t i) { bp[i] = 2.0 * ap[i]; });
  q.parallel_for(offload::range{n}, [=](std::size_t i) { bp[i] += double(cs[i]); });
  std::vector<double> hb(n, 0.0);
  q.copy(std::span<double>(hb), b);
  q.wait();
  for (std::size_t i = 0; i < n; ++i) {
    double w = 2.0 * double(i) + double(coef[i]);
    if (hb[i] != w && fails++ < 10) std::printf("FAIL queue buffer [%zu] got %g want %g\n", i, hb[i], w);
  }

  if (fails) { std::printf("FAIL buffers: %d failures\n", fails); return 1; }
  std::printf("PASS buffers\n");
  return 0;
}
