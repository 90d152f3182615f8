// Every copy the CPU device makes of a mapped object, and every buffer, is fenced (issue 29,
// item 4): a kernel that writes past one is the launch's device-fault error naming the kernel,
// its launch's file:line and the parameter, and nothing is copied back — never a damaged heap,
// a signal or exit status 139. Writes just past the end land in guard bytes (found when the
// kernel has run); farther ones in guard pages (a fault at once). A T* parameter maps ONE
// object: saxpy below, launched with x.data() and y.data(), writes past one float.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=1 %t > %t.1.out
// RUN: FileCheck %s < %t.1.out
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=2 %t > %t.2.out
// RUN: FileCheck %s < %t.2.out
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=4 %t > %t.4.out
// RUN: FileCheck %s < %t.4.out
// Uncaught: exit status 1 (`not` fails on a signal), the error on stderr.
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=2 not %t uncaught-near 2>&1 | FileCheck %s --check-prefix=NEAR
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=2 not %t uncaught-far 2>&1 | FileCheck %s --check-prefix=FAR
// A buffer written through a pointer no launch was given: told when the buffer is released, by
// the next operation on the device, or at exit (status 1).
// RUN: env OFFLOAD_DEVICE=cpu not %t buffer-at-exit 2>&1 | FileCheck %s --check-prefix=AT-EXIT
//
// CHECK: one past y: kernel 'saxpy' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{[0-9]+}} threads): it wrote past the end of the CPU device's copy of parameter 'y' (4 bytes), up to 4 bytes beyond it (a pointer or reference parameter maps one object: pass a std::span for an array); the host's data is as it was before the launch
// CHECK-NEXT: one past y: host data unchanged
// CHECK: saxpy n=100: kernel 'saxpy' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): invalid memory access at address 0x{{[0-9a-f]+}} (SIGSEGV), at byte offset {{[0-9]+}} of the CPU device's copy of parameter '{{[xy]}}' (4 bytes), past its end (a pointer or reference parameter maps one object: pass a std::span for an array); the host's data is as it was before the launch
// CHECK-NEXT: saxpy n=100: host data unchanged
// CHECK: saxpy n=1000: kernel 'saxpy' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): invalid memory access at address 0x{{[0-9a-f]+}} (SIGSEGV), at byte offset {{[0-9]+}} of the CPU device's copy of parameter '{{[xy]}}' (4 bytes), past its end
// CHECK-NEXT: saxpy n=1000: host data unchanged
// CHECK: saxpy n=100000: kernel 'saxpy' launched at {{.*}}(SIGSEGV), at byte offset {{[0-9]+}} of the CPU device's copy of parameter '{{[xy]}}' (4 bytes), past its end
// CHECK-NEXT: saxpy n=100000: host data unchanged
// CHECK: saxpy n=10000000: kernel 'saxpy' launched at {{.*}}(SIGSEGV), at byte offset {{[0-9]+}} of the CPU device's copy of parameter '{{[xy]}}' (4 bytes), past its end
// CHECK-NEXT: saxpy n=10000000: host data unchanged
// CHECK: span one past: kernel 'past_span' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): it wrote past the end of the CPU device's copy of parameter 's' (400 bytes), up to 4 bytes beyond it; the host's data is as it was before the launch
// CHECK-NEXT: span one past: host data unchanged
// CHECK: span one before: kernel 'before_span' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): it wrote before the start of the CPU device's copy of parameter 's' (400 bytes), up to 8 bytes before it; the host's data is as it was before the launch
// CHECK-NEXT: span one before: host data unchanged
// CHECK: array past: kernel 'past_array' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): it wrote past the end of the CPU device's copy of parameter 'a' (16 bytes), up to 16 bytes beyond it (a pointer
// CHECK-NEXT: array past: host data unchanged
// CHECK: reference far: kernel 'far_reference' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): invalid memory access at address 0x{{[0-9a-f]+}} (SIGSEGV), at byte offset 4096 of the CPU device's copy of parameter 'r' (8 bytes), past its end
// CHECK-NEXT: reference far: host data unchanged
// CHECK: read far: kernel 'read_far' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): invalid memory access at address 0x{{[0-9a-f]+}} (SIGSEGV), at byte offset {{[0-9]+}} of the CPU device's copy of parameter 's' (400 bytes), past its end; the host's data is as it was before the launch
// CHECK: buffer one past: kernel 'fill' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): it wrote past the end of the buffer passed as parameter 'p' (400 bytes), up to 4 bytes beyond it; the host's data is as it was before the launch
// CHECK: buffer far: kernel 'fill' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): invalid memory access at address 0x{{[0-9a-f]+}} (SIGSEGV), at byte offset {{[0-9]+}} of the buffer passed as parameter 'p' (400 bytes), past its end
// CHECK: buffer after: 1 1 1
// CHECK: region: kernel 'past_span' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): it wrote past the end of the CPU device's copy of parameter 's'
// CHECK-NEXT: region: host data unchanged
// CHECK: queued: kernel 'past_span' launched at cpu_guards.cpp:[[#]] failed on CPU device ({{.*}}): it wrote past the end of the CPU device's copy of parameter 's' (400 bytes)
// CHECK-NEXT: queued: host data unchanged
// CHECK: indirect: a kernel on CPU device ({{.*}}) wrote past the end of a buffer of 400 bytes, up to 4 bytes beyond it (found when the buffer was released: no launch given it as a parameter wrote there)
// CHECK: after the errors: all checks passed
//
// NEAR: offload-cxx: error: kernel 'saxpy' launched at cpu_guards.cpp:[[#]] failed on CPU device (2 threads): it wrote past the end of the CPU device's copy of parameter 'y' (4 bytes)
// FAR: offload-cxx: error: kernel 'saxpy' launched at cpu_guards.cpp:[[#]] failed on CPU device (2 threads): invalid memory access at address 0x{{[0-9a-f]+}} (SIGSEGV), at byte offset {{[0-9]+}} of the CPU device's copy of parameter '{{[xy]}}' (4 bytes), past its end
// AT-EXIT: offload-cxx: error: a kernel on CPU device ({{.*}}) wrote past the end of a buffer of 400 bytes, up to 4 bytes beyond it (found when the buffer was released
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <span>
#include <string>
#include <vector>

// Element i of the array the kernel believes starts at p: an address made from an integer, which
// the build's check on indexing a T* parameter does not see through.
template <class T> T &element(T *p, std::ptrdiff_t i) {
  return *reinterpret_cast<T *>(reinterpret_cast<std::uintptr_t>(p) + i * std::ptrdiff_t(sizeof(T)));
}

OFFLOAD_KERNEL void saxpy(float a, float *x, float *y, unsigned n) {
  unsigned i = offload::global_id_x();
  if (i < n) element(y, i) = a * element(x, i) + element(y, i);
}

OFFLOAD_KERNEL void past_span(std::span<float> s) {
  if (offload::global_id_x() == 0) s.data()[s.size()] = 7;  // one past the end
}

OFFLOAD_KERNEL void add_one(std::span<float> s) {
  if (auto i = offload::global_id_x(); i < s.size()) s[i] += 1;
}

OFFLOAD_KERNEL void before_span(std::span<float> s) {
  if (offload::global_id_x() == 0) element(s.data(), -2) = 7;
}

OFFLOAD_KERNEL void past_array(float (*a)[4], unsigned n) {
  for (unsigned i = 0; i < n; ++i) (*a)[i] = 7;  // n = 8: four past the end
}

OFFLOAD_KERNEL void far_reference(double &r) {
  element(&r, 512) = 7;  // 4 KiB on: the guard pages
}

OFFLOAD_KERNEL void read_far(std::span<float> s, float *out) {
  if (offload::global_id_x() == 0) *out = s.data()[100000];
}

OFFLOAD_KERNEL void fill(offload::device_ptr<float> p, unsigned n) {
  if (unsigned i = offload::global_id_x(); i < n) p[i] = 1;
}

struct holder {  // more than 8 bytes: passed as a copy of the value
  offload::device_ptr<float> p;
  unsigned n, pad[3];
};
OFFLOAD_KERNEL void fill_through(holder h) {
  if (unsigned i = offload::global_id_x(); i < h.n) h.p[i] = 1;
}

// Host arrays at a 256-byte boundary: where each copy ends in its page, and so which writes land
// in guard bytes rather than guard pages, is the same in every run.
template <class T> struct aligned_256 {
  using value_type = T;
  aligned_256() = default;
  template <class U> aligned_256(const aligned_256<U> &) {}
  T *allocate(std::size_t n) {
    return static_cast<T *>(::operator new(n * sizeof(T), std::align_val_t(256)));
  }
  void deallocate(T *p, std::size_t) { ::operator delete(p, std::align_val_t(256)); }
  bool operator==(const aligned_256 &) const = default;
};
template <class T> using host_vector = std::vector<T, aligned_256<T>>;

int failures = 0;

template <class V, class F> void expect_error(const char *what, V &data, F &&launch) {
  const V before = data;
  try {
    launch();
    std::printf("%s: no error\n", what);
    ++failures;
  } catch (const offload::error &e) {
    std::printf("%s: %s\n", what, e.what() + sizeof("offload-cxx: error:"));
  }
  if (data != before) {
    std::printf("%s: HOST DATA CHANGED\n", what);
    ++failures;
  } else {
    std::printf("%s: host data unchanged\n", what);
  }
}

void saxpy_case(unsigned n) {
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  const std::string what = "saxpy n=" + std::to_string(n);
  expect_error(what.c_str(), y, [&] {
    offload::launch(saxpy, offload::range{n}, 2.0f, x.data(), y.data(), n);
  });
  if (x != std::vector<float>(n, 1.0f)) {
    std::printf("%s: X CHANGED\n", what.c_str());
    ++failures;
  }
}

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "uncaught-near" || mode == "uncaught-far") {
    const unsigned n = mode == "uncaught-near" ? 2 : 1000000;
    std::vector<float> x(n, 1.0f), y(n, 2.0f);
    offload::launch(saxpy, offload::range{n}, 2.0f, x.data(), y.data(), n);
    std::printf("no error\n");
    return 0;
  }
  if (mode == "buffer-at-exit") {
    {
      offload::buffer<float> b(100);
      offload::launch(fill_through, offload::range{101}, holder{b.data(), 101, {}});
    }
    std::printf("buffer released\n");
    return 0;  // the error is printed at exit
  }

  host_vector<float> two_x(2, 1.0f), two_y(2, 2.0f);
  expect_error("one past y", two_y, [&] {
    offload::launch(saxpy, offload::range{2}, 2.0f, two_x.data(), two_y.data(), 2u);
  });
  for (unsigned n : {100u, 1000u, 100000u, 10000000u})
    saxpy_case(n);

  host_vector<float> v(100, 3.0f);
  expect_error("span one past", v, [&] { offload::launch(past_span, {}, std::span(v)); });
  expect_error("span one before", v, [&] { offload::launch(before_span, {}, std::span(v)); });
  host_vector<float> four(4, 5.0f);
  expect_error("array past", four, [&] {
    offload::launch(past_array, {}, reinterpret_cast<float(*)[4]>(four.data()), 8u);
  });
  host_vector<double> one(1, 6.0);
  expect_error("reference far", one, [&] { offload::launch(far_reference, {}, one[0]); });
  float out = 0;
  expect_error("read far", v, [&] { offload::launch(read_far, {}, std::span(v), &out); });

  {
    offload::buffer<float> b(100);
    std::vector<float> none;
    expect_error("buffer one past", none, [&] { offload::launch(fill, offload::range{101}, b.data(), 101u); });
    expect_error("buffer far", none, [&] { offload::launch(fill, offload::range{200000}, b.data(), 200000u); });
    // The buffer stays usable, and its fence whole: no error when it is released.
    offload::launch(fill, offload::range{100}, b.data(), 100u);
    std::vector<float> back(100);
    b.copy_to(back);
    std::printf("buffer after: %g %g %g\n", back[0], back[50], back[99]);
  }

  {
    offload::data_region region({}, std::span(v));
    expect_error("region", v, [&] { offload::launch(past_span, {}, std::span(v)); });
  }  // the region's end copies nothing back: its copy is not trusted
  if (v != host_vector<float>(100, 3.0f)) {
    std::printf("region: HOST DATA CHANGED AT THE END\n");
    ++failures;
  }

  expect_error("queued", v, [&] {
    offload::queue q;
    q.launch(past_span, {}, std::span(v));
    q.wait();
  });

  {
    std::vector<float> none;
    {
      offload::buffer<float> b(100);
      offload::launch(fill_through, offload::range{101}, holder{b.data(), 101, {}});
    }  // the buffer's release finds the write; the next operation on the device tells it
    expect_error("indirect", none, [&] { offload::synchronize(); });
  }

  // The CPU device still works, on every thread.
  std::vector<float> x(1000, 1.0f), y(1000, 2.0f);
  for (int round = 0; round < 3; ++round) {
    offload::launch(add_one, offload::range{1000}, std::span(x));
    offload::launch(saxpy, offload::range{1}, 2.0f, &x[0], &y[0], 1u);
  }
  if (y[0] != 20.0f || x[999] != 4.0f)
    ++failures;
  std::printf("after the errors: %s\n", failures ? "FAILED" : "all checks passed");
  return 0;
}
