// Lambdas inside function templates (instantiated for float and double, and an int
// template parameter), generic lambdas, several lambdas in one function, two on one line.
#include <offload/offload.hpp>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

template <class T>
T scaled_norm2(std::vector<T> &v, T scale) {  // several lambdas in one template function
  std::span<T> vs(v);
  offload::parallel_for(offload::range{v.size()}, [=](std::size_t i) { vs[i] *= scale; });
  std::span<const T> cv(v);
  return offload::parallel_reduce(offload::range{v.size()}, T(0), [=](auto i) { return cv[i] * cv[i]; });
}

template <class T, int K>
void add_k_2d(std::vector<T> &m, std::size_t nx, std::size_t ny) {
  std::span<T> ms(m);
  offload::parallel_for(offload::range2d{nx, ny}, [=](auto x, auto y) { ms[y * nx + x] += T(K) * T(y); });
}

template <class T>
bool run(const char *name) {
  bool ok = true;
  const std::size_t n = 4099;
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = T(i % 10) / T(4);
  std::vector<T> ref = v;
  T want = 0;
  for (auto &r : ref) { r *= T(2); want += r * r; }
  T got = scaled_norm2(v, T(2));
  T tol = sizeof(T) == 4 ? T(1e-4) : T(1e-12);
  if (std::fabs(got - want) > tol * want) { ok = false; std::printf("FAIL %s norm2 got %.17g want %.17g\n", name, double(got), double(want)); }
  for (std::size_t i = 0; i < n; ++i)
    if (v[i] != ref[i]) { ok = false; std::printf("FAIL %s scale [%zu]\n", name, i); break; }

  const std::size_t nx = 40, ny = 9;
  std::vector<T> m(nx * ny, T(1));
  add_k_2d<T, 3>(m, nx, ny);
  add_k_2d<T, -1>(m, nx, ny);
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x)
      if (m[y * nx + x] != T(1) + T(2) * T(y)) { ok = false; std::printf("FAIL %s add_k (%zu,%zu)\n", name, x, y); return ok; }
  return ok;
}

int main() {
  bool ok = run<float>("float");
  ok = run<double>("double") && ok;

  // two lambdas on one line, plus a third in the same function
  std::vector<int> a(300, 0), b(300, 0);
  std::span<int> as(a), bs(b);
  offload::parallel_for(offload::range{a.size()}, [=](auto i) { as[i] = int(i); }); offload::parallel_for(offload::range{b.size()}, [=](auto i) { bs[i] = 2 * int(i); });
  int s = offload::parallel_reduce(offload::range{a.size()}, 0, [=](std::size_t i) { return as[i] + bs[i]; });
  int want = 0;
  for (int i = 0; i < 300; ++i) want += 3 * i;
  if (s != want) { ok = false; std::printf("FAIL two-on-a-line sum %d want %d\n", s, want); }
  for (int i = 0; i < 300; ++i)
    if (a[i] != i || b[i] != 2 * i) { ok = false; std::printf("FAIL two-on-a-line [%d] %d %d\n", i, a[i], b[i]); break; }

  std::printf("%s templates\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
