// A T* parameter maps the one object it points to: a kernel that indexes it or does pointer
// arithmetic on it (with anything but the constant 0) is a build error at the use, naming the
// kernel and the parameter and what to take instead — in every build mode, and in a file that
// defines the kernel without launching it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %offload-cxx %s -o %t/a 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t/a
// RUN: not %offload-cxx -c %s -o %t/a.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t/a.o
// RUN: not %offload-cxx --pass=host-metadata %s -o %t/a.manifest 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t/a.manifest
// The file as the command spells it, as g++'s own errors name it (adversarial pass: absolute).
// RUN: cp %s %t/spelled.cpp && cd %t && not %offload-cxx -c spelled.cpp -o s.o 2>&1 | FileCheck %s --check-prefix=SPELLED
// SPELLED: {{^}}spelled.cpp:{{[0-9]+}}:{{[0-9]+}}: error: kernel
// Defined here, launched from another file: this file is the one that has the body.
// RUN: not %offload-cxx -c -DNO_MAIN %s -o %t/k.o 2>&1 | FileCheck %s --check-prefix=UNLAUNCHED
#include <offload/offload.hpp>

#include <span>
#include <vector>

// The CUDA way: each pointer is one float here, so both are errors (each at its first use).
OFFLOAD_KERNEL void saxpy(float a, const float *x, float *y, unsigned n) {
  unsigned i = offload::global_id_x();
  if (i < n)
    y[i] = a * x[i] + y[i];
}
// CHECK: pointer_indexed.cpp:[[@LINE-2]]:5: error: kernel 'saxpy': parameter 'y' of type 'float *' maps one object, but the kernel indexes it ('y[i]'): take 'std::span<float>' for a host array, or 'offload::device_ptr<float>' for a device buffer's data
// CHECK: pointer_indexed.cpp:[[@LINE-6]]:59: note: parameter declared here
// CHECK: pointer_indexed.cpp:[[@LINE-4]]:16: error: kernel 'saxpy': parameter 'x' of type 'const float *' maps one object, but the kernel indexes it ('x[i]'): take 'std::span<const float>' for a host array, or 'offload::device_ptr<const float>' for a device buffer's data
// UNLAUNCHED: pointer_indexed.cpp:[[@LINE-5]]:5: error: kernel 'saxpy': parameter 'y'

OFFLOAD_KERNEL void plus(float *x, int i) { *(x + i) = 1; }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:47: error: kernel 'plus': parameter 'x' of type 'float *' maps one object, but the kernel does pointer arithmetic on it ('x + i'): take 'std::span<float>'
OFFLOAD_KERNEL void minus(float *x, int i) { x[-i] = *(x - i); }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:46: error: kernel 'minus': parameter 'x' {{.*}} indexes it ('x[-i]')
OFFLOAD_KERNEL void step(float *x) { x++; *x = 1; }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:38: error: kernel 'step': parameter 'x' {{.*}} does pointer arithmetic on it ('x++')
OFFLOAD_KERNEL void jump(float *x, int i) { x += i; *x = 1; }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:45: error: kernel 'jump': parameter 'x' {{.*}} does pointer arithmetic on it ('x += i')
OFFLOAD_KERNEL void element(float *x, int i, float *out) { *out = *&x[i]; }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:69: error: kernel 'element': parameter 'x' {{.*}} indexes it ('x[i]')
OFFLOAD_KERNEL void one(float *x) { x[1] = 0; }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:37: error: kernel 'one': parameter 'x' {{.*}} indexes it ('x[1]')

// Through a local that holds a copy of the parameter.
OFFLOAD_KERNEL void copied(float *x, int n) {
  float *p = x;
  for (int i = 0; i < n; ++i)
    p[i] = 0;
}
// CHECK: pointer_indexed.cpp:[[@LINE-2]]:5: error: kernel 'copied': parameter 'x' of type 'float *' maps one object, but the kernel indexes it through the local 'p' ('p[i]')

// &*x is x (adversarial pass, 2026-12-05: it built, and only the run-time fence caught it).
OFFLOAD_KERNEL void through_deref(float *x, int i) {
  auto p = &*x;
  p[i] = 1;
}
// CHECK: pointer_indexed.cpp:[[@LINE-2]]:3: error: kernel 'through_deref': parameter 'x' of type 'float *' maps one object, but the kernel indexes it through the local 'p' ('p[i]')

// A pointer to an array is one array: (*x)[i] indexes it, x[i] steps past it.
OFFLOAD_KERNEL void rows(double (*x)[4], int i) { x[i][0] = 1; }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:51: error: kernel 'rows': parameter 'x' of type 'double (*)[4]' maps one object, but the kernel indexes it ('x[i]'): take 'std::span<double[4]>' for a host array, or 'offload::device_ptr<double[4]>' for a device buffer's data; '(*x)[i]' indexes the one array it points to

// Templates: each instantiation used as a kernel; an expression is reported once.
template <class T> OFFLOAD_KERNEL void fill(T *x, T v, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    x[i] = v;
}
// CHECK: pointer_indexed.cpp:[[@LINE-2]]:5: error: kernel 'fill<float>': parameter 'x' of type 'float *' maps one object
template <class P> OFFLOAD_KERNEL void generic(P x, int i) { x[i] = 0; }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:62: error: kernel 'generic<int *>': parameter 'x' of type 'int *' maps one object, but the kernel indexes it ('x[i]'): take 'std::span<int>'
template <int I> OFFLOAD_KERNEL void at(float *x) { x[I] = 0; }
// CHECK: pointer_indexed.cpp:[[@LINE-1]]:53: error: kernel 'at<2>': parameter 'x' {{.*}} ('x[I]')

#ifndef NO_MAIN
int main() {
  std::vector<float> v(8);
  std::vector<int> w(8);
  double m[2][4] = {};
  float out = 0;
  offload::launch(saxpy, {}, 2.f, v.data(), v.data(), 8u);
  offload::launch(plus, {}, v.data(), 1);
  offload::launch(through_deref, {}, v.data(), 1);
  offload::launch(rows, {}, m, 1);
  offload::launch(fill<float>, {}, v.data(), 1.f, 8u);
  offload::launch(fill<double>, {}, &m[0][0], 1.0, 8u);
  offload::launch(generic<int *>, {}, w.data(), 1);
  offload::launch(generic<std::span<int>>, {}, std::span(w), 1);  // fine
  offload::launch(at<0>, {}, v.data());                           // fine
  offload::launch(at<2>, {}, v.data());
  offload::launch(element, {}, v.data(), 1, &out);
}
#endif
