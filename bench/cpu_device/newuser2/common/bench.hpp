// Shared helpers for the offload programs and their OpenMP twins (no offload use here).
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// median of `reps` timed calls of f(), in ms
template <class F>
double median_ms(F &&f, int reps = 7) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto a = std::chrono::steady_clock::now();
    f();
    auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// deterministic pseudo-random numbers (same in every binary)
struct rng {
  std::uint64_t s;
  explicit rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s;
  }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

template <class T>
bool write_file(const std::string &path, const std::vector<T> &v) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  std::fwrite(v.data(), sizeof(T), v.size(), f);
  std::fclose(f);
  return true;
}

template <class T>
bool read_file(const std::string &path, std::vector<T> &v, std::size_t n) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  v.resize(n);
  std::size_t got = std::fread(v.data(), sizeof(T), n, f);
  std::fclose(f);
  return got == n;
}

// max relative difference (relative to max(|a|, floor))
template <class T>
double max_rel_diff(const std::vector<T> &a, const std::vector<T> &b, double floor = 1.0) {
  if (a.size() != b.size()) return 1e300;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    double d = std::fabs(double(a[i]) - double(b[i])) / std::max(std::fabs(double(a[i])), floor);
    if (!(d <= m)) m = d;  // NaN-safe
  }
  return m;
}

}  // namespace bench
