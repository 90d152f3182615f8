// Lambdas as kernels (offload/parallel_for.hpp, issue 33): captures mapped by their types, on
// the default device, a chosen device, a queue, reductions, in function templates (one kernel per instantiation),
// in member functions, several on one line, generic lambdas; each named by its file:line.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: env OFFLOAD_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %offload-cxx -O2 --offload-arch=host -v %s -o %t.v 2>&1 | FileCheck %s --check-prefix=VERBOSE
// VERBOSE: kernel 'lambda at lambda_kernels.cpp:{{[0-9]+}}' on the CPU device: one loop over its work-items (no barriers)
// VERBOSE: kernel 'lambda at lambda_kernels.cpp:{{[0-9]+}}' on the CPU device: work-item loops split at its barriers
// The same source with g++ alone (no rewrite): parallel_for runs on the host, in order.
// RUN: g++ -std=c++20 -I%src_root/include %s -o %t.gxx -L%{build_root}/lib -loffload-cxx-rt -Wl,-rpath,%{build_root}/lib
// RUN: %t.gxx | FileCheck %s
// CHECK: lambda_kernels: all checks passed
// INFO: launching kernel lambda at lambda_kernels.cpp:{{[0-9]+}} on
// INFO-NOT: lambda_kernel<
// INFO: launching kernel lambda at lambda_kernels.cpp:{{[0-9]+}}, launched at lambda_kernels.cpp:{{[0-9]+}} on CPU device
#include <offload/offload.hpp>

#include <cstdio>
#include <functional>
#include <span>
#include <vector>

static int failures = 0;
static void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

struct params {
  double scale;
  int offset;
};

struct span_of_values {
  double lo, hi;
};
struct widen {
  span_of_values operator()(const span_of_values &a, const span_of_values &b) const {
    return {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  }
};

template <class T> void scale_all(std::vector<T> &v, T by) {
  std::span<T> s(v);
  offload::parallel_for(offload::range{v.size()}, [=](std::size_t i) { s[i] *= by; });
}

// A member of a class template defined outside it, its parameter named otherwise (U for T),
// and a member template defined so.
template <class T> struct solver {
  std::vector<T> data = std::vector<T>(10, T(1));
  void step(T by);
  template <int N> void scaled();
};
template <class U> void solver<U>::step(U by) {
  std::span<U> s(data);
  offload::parallel_for(offload::range{data.size()}, [=](std::size_t i) { s[i] += by; });
}
template <class V> template <int M> void solver<V>::scaled() {
  std::span<V> s(data);
  offload::parallel_for(offload::range{data.size()}, [=](std::size_t i) { s[i] *= V(M); });
}

struct grid {
  std::vector<int> cells = std::vector<int>(64, 1);
  void bump(int by) {
    std::span<int> c(cells);
    offload::parallel_for(offload::range{cells.size()}, [=](std::size_t i) { c[i] += by + int(i); });
  }
};

int main() {
  const std::size_t n = 1000;
  std::vector<float> x(n), y(n, 2.0f);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = float(i);
  std::span<const float> xs(x);
  std::span<float> ys(y);
  const float a = 3.0f;
  offload::parallel_for(offload::range{n}, [=](std::size_t i) { ys[i] += a * xs[i]; });
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i)
    ok &= y[i] == 2.0f + 3.0f * float(i);
  check(ok, "saxpy");

  // A sub-range, on the CPU device by name; a struct captured by value.
  std::vector<double> d(100, 1.0);
  std::span<double> ds(d);
  const params p{2.5, 7};
  offload::parallel_for(offload::cpu_device, offload::range{10, 20},
                        [=](std::size_t i) { ds[i] = p.scale * double(i) + p.offset; });
  ok = true;
  for (std::size_t i = 0; i < d.size(); ++i)
    ok &= d[i] == (i >= 10 && i < 20 ? 2.5 * double(i) + 7 : 1.0);
  check(ok, "sub-range on the CPU device");

  // One kernel per instantiation of a template.
  std::vector<double> dv(33, 1.5);
  std::vector<int> iv(17, 3);
  scale_all(dv, 2.0);
  scale_all(iv, 5);
  ok = true;
  for (double v : dv)
    ok &= v == 3.0;
  for (int v : iv)
    ok &= v == 15;
  check(ok, "function template, two instantiations");

  grid g;
  g.bump(4);
  ok = true;
  for (std::size_t i = 0; i < g.cells.size(); ++i)
    ok &= g.cells[i] == 5 + int(i);
  check(ok, "member function");

  solver<double> sd;
  solver<int> si;
  sd.step(0.5);
  si.step(2);
  sd.scaled<3>();
  si.scaled<4>();
  check(sd.data[9] == 4.5 && si.data[9] == 12, "members of a class template defined outside it");

  // A device buffer's pointer, as it is; two lambdas on one line; a generic lambda.
  offload::buffer<int> buf(256);
  offload::device_ptr<int> bp = buf.data();
  offload::parallel_for(offload::range{256}, [=](std::size_t i) { bp[i] = int(i); }); offload::parallel_for(offload::range{256}, [=](auto i) { bp[i] *= 2; });
  std::vector<int> back(256);
  buf.copy_to(back);
  ok = true;
  for (std::size_t i = 0; i < back.size(); ++i)
    ok &= back[i] == 2 * int(i);
  check(ok, "device_ptr, two on one line, generic lambda");

  // Reductions: the sum (default), the largest, a struct with its own operation, an empty
  // range (the initial value), a lambda without captures.
  std::vector<double> r(100003);
  for (std::size_t i = 0; i < r.size(); ++i)
    r[i] = double(i % 17);
  std::span<const double> rs(r);
  double sum = 0;
  for (double v : r)
    sum += v * 0.5;
  check(offload::parallel_reduce(offload::range{r.size()}, 0.0, [=](std::size_t i) { return rs[i] * 0.5; }) == sum, "sum");
  check(offload::parallel_reduce(offload::range{r.size()}, -1.0, [=](std::size_t i) { return rs[i]; },
                                 offload::maximum<>{}) == 16.0, "maximum");
  check(offload::parallel_reduce(offload::range{r.size()}, 99.0, [=](std::size_t i) { return rs[i] + 1; },
                                 offload::minimum<>{}) == 1.0, "minimum");
  const span_of_values sv = offload::parallel_reduce(
      offload::range{r.size()}, span_of_values{1e9, -1e9},
      [=](std::size_t i) { return span_of_values{rs[i], rs[i]}; }, widen{});
  check(sv.lo == 0 && sv.hi == 16, "a struct and its own operation");
  check(offload::parallel_reduce(offload::range{0}, 7.0, [=](std::size_t i) { return rs[i]; }) == 7.0, "empty reduction");
  check(offload::parallel_reduce(offload::cpu_device, offload::range{10, 20}, 100LL,
                                 [](std::size_t i) { return (long long)i; }) == 245, "no captures, CPU device");

  // A queue: returns at once, runs in order, copies back at wait().
  offload::queue q;
  std::vector<int> qv(1000, 1);
  std::span<int> qs(qv);
  q.parallel_for(offload::range{qv.size()}, [=](std::size_t i) { qs[i] += int(i); });
  q.parallel_for(offload::range{qv.size()}, [=](std::size_t i) { qs[i] *= 2; });
  q.wait();
  ok = true;
  for (std::size_t i = 0; i < qv.size(); ++i)
    ok &= qv[i] == 2 * (1 + int(i));
  check(ok, "queue");
  // A queue's reduction waits for what the queue holds, then reduces on its device.
  q.parallel_for(offload::range{qv.size()}, [=](std::size_t i) { qs[i] = 3; });
  check(q.parallel_reduce(offload::range{qv.size()}, 0LL, [=](std::size_t i) { return qs[i]; }) ==
            3000 && qv[999] == 3, "a queue's parallel_reduce");

  // The values are combined in the initial value's type, as the host loop does (they were
  // summed in the lambda's int: 64 x 2^30 came back 0; adversarial pass).
  check(offload::parallel_reduce(offload::range{64}, 0LL, [](std::size_t) { return 1 << 30; }) ==
            (1LL << 36),
        "combined in the initial value's type");
  check(offload::parallel_reduce(offload::range{100}, false, [=](std::size_t i) { return rs[i] > 15.5; },
                                 std::logical_or<>{}),
        "bool values");

  // 2-D and 3-D: x fastest; a static constant is its value; a call in parentheses. (A static
  // variable of main is refused: errors/lambda_captures.cpp; a GPU read 0 for it.)
  std::vector<int> plane(37 * 19), box(9 * 7 * 5);
  std::span<int> ps(plane), bs(box);
  static const int offset_static = 1000;
  offload::parallel_for(offload::range2d{37, 19}, [=](std::size_t x, std::size_t y) { ps[y * 37 + x] = int(x + 100 * y) + offset_static; });
  (offload::parallel_for)(offload::range3d{9, 7, 5}, [=](std::size_t x, std::size_t y, std::size_t z) { bs[(z * 7 + y) * 9 + x] = int(x + 10 * y + 100 * z); });
  ok = true;
  for (std::size_t y = 0; y < 19; ++y)
    for (std::size_t x = 0; x < 37; ++x)
      ok &= plane[y * 37 + x] == int(x + 100 * y) + 1000;
  for (std::size_t z = 0; z < 5; ++z)
    for (std::size_t y = 0; y < 7; ++y)
      for (std::size_t x = 0; x < 9; ++x)
        ok &= box[(z * 7 + y) * 9 + x] == int(x + 10 * y + 100 * z);
  check(ok, "2-D and 3-D ranges");

  // An empty range runs nothing.
  offload::parallel_for(offload::range{0}, [=](std::size_t i) { ys[i] = -1.0f; });
  check(y[0] == 2.0f, "empty range");

  if (failures == 0)
    std::printf("lambda_kernels: all checks passed\n");
  return failures != 0;
}
