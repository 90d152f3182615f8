// Every argument kind, data regions, device buffers and queues, checked against host loops.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: spans: ok
// CHECK: directions: ok
// CHECK: big struct: ok
// CHECK: buffers: ok
// CHECK: region: ok
// CHECK: queue: ok
// CHECK: queue error: offload-cxx: error: kernel 'scale_span' launched at data_model.cpp:{{[0-9]+}}: empty grid
// CHECK: data_model: all checks passed
#include <offload/offload.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#define CHECK_OR_FAIL(cond, what)                                                                  \
  if (!(cond)) {                                                                                   \
    std::printf("FAIL %s at line %d\n", what, __LINE__);                                          \
    return 1;                                                                                      \
  }

OFFLOAD_KERNEL void scale_span(std::span<double> x, double factor) {
  auto i = offload::global_id_x();
  if (i < x.size()) x[i] *= factor;
}

OFFLOAD_KERNEL void add_spans(std::span<const float> a, std::span<const float> b,
                              std::span<float> out) {
  auto i = offload::global_id_x();
  if (i < out.size()) out[i] = a[i] + b[i];
}

OFFLOAD_KERNEL void write_only(int (*out)[64], int value) {
  auto i = offload::global_id_x();
  if (i < 64) (*out)[i] = value + int(i);
}

OFFLOAD_KERNEL void scratch_then_out(int (*scratch)[64], int (*out)[64]) {
  auto i = offload::global_id_x();
  if (i < 64) {
    (*scratch)[i] = int(i) * 3;
    (*out)[i] = (*scratch)[i] + 1;
  }
}

struct polynomial {  // 200 bytes, by value
  double c[25];
};

OFFLOAD_KERNEL void evaluate(polynomial p, std::span<const double> x, std::span<double> y) {
  auto i = offload::global_id_x();
  if (i < x.size()) {
    double acc = 0;
    for (int k = 24; k >= 0; --k) acc = acc * x[i] + p.c[k];
    y[i] = acc;
  }
}

OFFLOAD_KERNEL void triad(offload::device_ptr<double> a, offload::device_ptr<const double> b,
                          offload::device_ptr<const double> c, double s, std::uint64_t n) {
  auto i = offload::global_id_x();
  if (i < n) a[i] = b[i] + s * c[i];
}

OFFLOAD_KERNEL void increment(std::span<long> v) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] += 1;
}

int main() {
  // std::span from a vector, a std::array and a C array; const spans map to-only.
  std::vector<double> v(1000, 2.0);
  offload::launch(scale_span, {.workgroups = {8}, .threads = {128}}, std::span(v), 1.5);
  std::array<float, 100> a{}, b{}, out{};
  for (int i = 0; i < 100; ++i) a[i] = float(i), b[i] = float(2 * i);
  offload::launch(add_spans, {.workgroups = {1}, .threads = {128}}, std::span<const float>(a),
                  std::span<const float>(b), std::span(out));
  double carray[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  offload::launch(scale_span, {.threads = {10}}, std::span(carray), -2.0);
  bool ok = carray[9] == -2.0;
  for (double x : v) ok = ok && x == 3.0;
  for (int i = 0; i < 100; ++i) ok = ok && out[i] == float(3 * i);
  CHECK_OR_FAIL(ok, "spans");
  std::puts("spans: ok");

  // Explicit directions: from (no copy in), alloc (device scratch), to.
  int o[64], s[64] = {}, o2[64] = {};
  for (int &x : o) x = -1;
  offload::launch(write_only, {.threads = {64}}, offload::from(&o), 5);
  offload::launch(scratch_then_out, {.threads = {64}}, offload::alloc(&s), offload::from(&o2));
  for (int i = 0; i < 64; ++i) ok = ok && o[i] == 5 + i && o2[i] == 3 * i + 1;
  CHECK_OR_FAIL(ok, "directions");
  std::puts("directions: ok");

  // A 200-byte struct by value.
  polynomial p{};
  for (int k = 0; k < 25; ++k) p.c[k] = 1.0 / (k + 1);
  std::vector<double> xs(300), ys(300), expect(300);
  for (int i = 0; i < 300; ++i) {
    xs[i] = i / 300.0;
    double acc = 0;
    for (int k = 24; k >= 0; --k) acc = acc * xs[i] + p.c[k];
    expect[i] = acc;
  }
  offload::launch(evaluate, {.workgroups = {3}, .threads = {128}}, p,
                  std::span<const double>(xs), std::span(ys));
  // GPUs contract a*x+c into fused multiply-adds: equal within rounding, not bit for bit.
  for (int i = 0; i < 300; ++i) ok = ok && std::fabs(ys[i] - expect[i]) <= 1e-14 * std::fabs(expect[i]);
  CHECK_OR_FAIL(ok, "big struct");
  std::puts("big struct: ok");

  // Device buffers: data only on the device, device pointers passed as is.
  const std::size_t n = 1 << 20;
  std::vector<double> hb(n, 0.5), hc(n, 2.0), ha(n, 0.0);
  offload::buffer<double> da(n), db(n), dc(n);
  db.copy_from(hb);
  dc.copy_from(hc);
  offload::launch(triad, {.workgroups = {n / 256}, .threads = {256}}, da.data(),
                  offload::device_ptr<const double>{db.data().get()},
                  offload::device_ptr<const double>{dc.data().get()}, 3.0, std::uint64_t(n));
  da.copy_to(ha);
  for (std::size_t i = 0; i < n; ++i) ok = ok && ha[i] == 6.5;
  CHECK_OR_FAIL(ok, "buffers");
  std::puts("buffers: ok");

  // A data region around 10 chained launches; update_from mid-way.
  std::vector<double> r(4096, 1.0);
  {
    offload::data_region region({}, std::span(r));
    for (int k = 0; k < 10; ++k)
      offload::launch(scale_span, {.workgroups = {16}, .threads = {256}}, std::span(r), 2.0);
    region.update_from(std::span(r));
    ok = ok && r[0] == 1024.0;
    offload::launch(scale_span, {.workgroups = {16}, .threads = {256}}, std::span(r), 0.5);
  }
  for (double x : r) ok = ok && x == 512.0;
  CHECK_OR_FAIL(ok, "region");
  std::puts("region: ok");

  // A queue: launches return at once, run in order; copies back at wait.
  std::vector<long> counts(5000, 0);
  offload::queue q;
  for (int k = 0; k < 7; ++k)
    q.launch(increment, {.workgroups = {20}, .threads = {256}}, std::span(counts));
  offload::event e = q.record();
  std::vector<double> back(n);
  q.copy(std::span(back), da);
  q.wait();
  ok = e.done();
  for (long c : counts) ok = ok && c == 7;
  ok = ok && back[n - 1] == 6.5;
  CHECK_OR_FAIL(ok, "queue");
  std::puts("queue: ok");

  // An error on a queue is raised at the wait, naming the kernel and its launch.
  q.launch(scale_span, {.workgroups = {0}}, std::span(v), 1.0);
  try {
    q.wait();
    std::puts("queue error: none");
  } catch (const offload::error &err) {
    std::printf("queue error: %s\n", err.what());
  }
  std::printf("data_model: all checks passed on %s\n", offload::last_launch_device().c_str());
}
