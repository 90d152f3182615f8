// Issue 13, items 2 and 3: template arguments named exactly (a floating-point non-type
// argument), an instantiation whose only launch the host compiler removes, and kernels whose
// locals escape (a struct copied, a virtual call): no OpenMP device runtime is needed.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %offload-cxx -O2 --offload-arch=host %s -o %t.host
// RUN: %t.host | FileCheck %s
// RUN: env OFFLOAD_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=NAMED
// CHECK: template_args: all checks passed
// Kernels whose symbols g++ and clang 22 name differently are still registered (by g++'s name).
// NAMED-NOT: <kernel at
// NAMED: launching kernel k_auto<'x'>
// NAMED-NOT: <kernel at
// NAMED: launching kernel k_req<int>
// NAMED-NOT: <kernel at
// NAMED: launching kernel k_concept<int>
// NAMED-NOT: <kernel at
// NAMED: launching kernel k_str<hello>
// NAMED-NOT: <kernel at
#include <offload/offload.hpp>
#include <concepts>
#include <cstdio>
template <double S> OFFLOAD_KERNEL void scale(double *x) { *x *= S; }
template <int B> OFFLOAD_KERNEL void k(int *x) { *x = B; }
struct P { double v[4]; int n; };
template <class T> OFFLOAD_KERNEL void local_struct(T *out) {
  P p{};
  for (int i = 0; i < 4; ++i) p.v[i] = i * 1.5;
  p.n = 4;
  P q = p;
  q.v[0] += 1;
  T s = 0;
  for (int i = 0; i < q.n; ++i) s += q.v[i];
  *out = s;
}
struct Shape { virtual double area() const = 0; };
struct Sq : Shape { double s; Sq(double s) : s(s) {} double area() const override { return s * s; } };
struct Ci : Shape { double r; Ci(double r) : r(r) {} double area() const override { return 3 * r * r; } };
OFFLOAD_KERNEL void virt(double *out, int which) {
  Sq a(2); Ci b(1);
  const Shape &s = which ? static_cast<const Shape &>(a) : static_cast<const Shape &>(b);
  *out = s.area();
}
template <auto V> OFFLOAD_KERNEL void k_auto(long *o) { *o = long(V); }
template <class T> requires std::integral<T> OFFLOAD_KERNEL void k_req(T *o) { *o = 1; }
template <std::integral T> OFFLOAD_KERNEL void k_concept(T *o) { *o = 2; }
template <const char *S> OFFLOAD_KERNEL void k_str(int *o) { *o = S == nullptr ? 0 : 'h'; }
extern const char hello[] = "hi";
template <float F> struct float_tag { static constexpr float value = F; };
template <class T> OFFLOAD_KERNEL void from_tag(float *o) { *o = T::value; }

int main(int argc, char **) {
  int failures = 0;
  double x = 3.0;
  offload::launch(scale<1.0 / 3.0>, {}, &x);
  failures += x != 3.0 * (1.0 / 3.0);
  if (x != 3.0 * (1.0 / 3.0)) std::printf("scale: %.17g\n", x);
  int block = 32 + (argc > 5);
  int r = 0;
  if (block == 16) offload::launch(k<16>, {}, &r);
  else offload::launch(k<32>, {}, &r);
  failures += r != 32;
  double s = 0;
  offload::launch(local_struct<double>, {}, &s);
  failures += s != 10.0;
  double ar = 0;
  offload::launch(virt, {}, &ar, 1);
  failures += ar != 4.0;
  long l = 0;
  offload::launch(k_auto<'x'>, {}, &l);
  failures += l != 'x';
  int i = 0;
  offload::launch(k_req<int>, {}, &i);
  failures += i != 1;
  offload::launch(k_concept<int>, {}, &i);
  failures += i != 2;
  offload::launch(k_str<hello>, {}, &i);
  failures += i != 'h';
  float f = 0;
  offload::launch(from_tag<float_tag<0.1f>>, {}, &f);  // a float inside a type argument
  failures += f != 0.1f;
  std::printf("template_args: %s (%d failures) on %s\n", failures ? "FAILED" : "all checks passed", failures,
              offload::last_launch_device().c_str());
  return failures != 0;
}
