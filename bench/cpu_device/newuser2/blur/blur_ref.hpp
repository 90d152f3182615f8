// 5x5 convolution (Gaussian blur) with clamp-to-edge borders: problem setup and serial reference.
#pragma once
#include "../common/bench.hpp"

namespace blur {
constexpr int W = 4096, H = 4096, R = 2, K = 2 * R + 1;

struct filter { float w[K][K]; };

inline filter gaussian() {
  filter f{};
  double s = 0, sigma = 1.2;
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx) s += std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx)
      f.w[dy + R][dx + R] = float(std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)) / s);
  return f;
}

inline std::vector<float> make_image() {
  std::vector<float> img(std::size_t(W) * H);
  bench::rng r(42);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      img[std::size_t(y) * W + x] = float(0.5 + 0.4 * std::sin(x * 0.01) * std::cos(y * 0.013) + 0.1 * r.uniform());
  return img;
}

inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

inline void reference(const std::vector<float> &in, std::vector<float> &out, const filter &f) {
  out.assign(in.size(), 0.f);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float acc = 0.f;
      for (int dy = -R; dy <= R; ++dy)
        for (int dx = -R; dx <= R; ++dx)
          acc += f.w[dy + R][dx + R] * in[std::size_t(clampi(y + dy, 0, H - 1)) * W + clampi(x + dx, 0, W - 1)];
      out[std::size_t(y) * W + x] = acc;
    }
}
}  // namespace blur
