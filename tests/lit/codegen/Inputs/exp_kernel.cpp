// <cmath> inside a kernel: libdevice on NVIDIA, libm on the CPU device, no library on AMD.
// Results are compared with the host's libm within 4 ulp (libdevice's documented bounds are 1-2).
#include <offload/offload.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

constexpr int n = 1000;
constexpr int functions = 9;

OFFLOAD_KERNEL void math(std::span<const double> x, double (*out)[functions][n]) {
  auto i = offload::global_id_x();
  if (i >= x.size()) return;
  const double v = x[i];
  (*out)[0][i] = std::exp(v);
  (*out)[1][i] = std::log(v + 1.5);
  (*out)[2][i] = std::sin(v);
  (*out)[3][i] = std::cos(v);
  (*out)[4][i] = std::pow(v + 1.5, 1.7);
  (*out)[5][i] = std::sqrt(v + 1.5);
  (*out)[6][i] = std::fma(v, 3.0, 0.25);
  (*out)[7][i] = std::tanh(v);
  (*out)[8][i] = std::atan2(v, 0.75);
}

int main() {
  static double x[n], out[functions][n];
  for (int i = 0; i < n; ++i) x[i] = -1.0 + 2.0 * i / n;
  offload::launch(math, {.workgroups = {(n + 127) / 128}, .threads = {128}},
                  std::span<const double>(x), &out);
  const char *names[functions] = {"exp", "log", "sin", "cos", "pow", "sqrt", "fma", "tanh", "atan2"};
  for (int i = 0; i < n; ++i) {
    const double v = x[i];
    const double want[functions] = {std::exp(v), std::log(v + 1.5), std::sin(v), std::cos(v),
                                    std::pow(v + 1.5, 1.7), std::sqrt(v + 1.5), std::fma(v, 3.0, 0.25),
                                    std::tanh(v), std::atan2(v, 0.75)};
    for (int f = 0; f < functions; ++f)
      if (std::fabs(out[f][i] - want[f]) >
          4 * std::numeric_limits<double>::epsilon() * std::fmax(std::fabs(want[f]), 1e-300)) {
        std::printf("%s(%.17g) = %.17g, libm says %.17g\n", names[f], v, out[f][i], want[f]);
        return 1;
      }
  }
  std::printf("exp: all checks passed on %s (9 <cmath> functions within 4 ulp)\n",
              offload::last_launch_device().c_str());
}
