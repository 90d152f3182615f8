// Values of more than 8 bytes travel in the launch's own parameters, one 8-byte slot per 8 bytes
// (offload/abi.hpp), as CUDA passes a struct by value: no copy to the device before each launch
// (issue 30: rodinia-cfd's 68-byte far-field struct cost a host-to-device copy per launch). Up to
// 1 KiB; a larger value still travels through a device copy. Every size, alignment and launch
// path reads back the value it was given, on every device and on the CPU device as loops and as
// fibers; a lambda's captured struct is the same.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: %offload-cxx -O2 --cpu-image=off %s -o %t.fibers
// RUN: env OFFLOAD_DEVICE=cpu %t.fibers | FileCheck %s
// CHECK: wide_values: all checks passed
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

struct nine { unsigned char c[9]; };
struct far_field { float variable[5]; float momentum[4][3]; };  // 68 bytes (rodinia-cfd's)
struct alignas(16) aligned96 { double v[12]; };
struct largest { std::uint64_t v[128]; };       // 1024 bytes: still in the parameters
struct beyond { std::uint64_t v[129]; };        // 1032 bytes: a device copy
struct with_buffer { offload::device_ptr<double> out; double scale[3]; int n; };

static_assert(offload::abi::param_kind_v<largest> == offload::abi::param_kind::literal);
static_assert(offload::abi::param_kind_v<beyond> == offload::abi::param_kind::value_copy);

// What work-item i computes from the values, on the device and (for the check) on the host.
inline double sum_of(const nine &a, const far_field &f, int pad, const aligned96 &b,
                     const largest &l, const beyond &x, unsigned i) {
  double s = pad;
  for (unsigned char c : a.c) s += c;
  for (float v : f.variable) s += v;
  for (auto &row : f.momentum)
    for (float v : row) s += v;
  for (double v : b.v) s += v;
  return s + double(l.v[i % 128]) + double(x.v[128 - i % 129]);
}

OFFLOAD_KERNEL void sum_values(nine a, far_field f, int pad, aligned96 b, largest l, beyond x,
                               offload::device_ptr<double> out) {
  const unsigned i = offload::global_id_x();
  out[i] = sum_of(a, f, pad, b, l, x, i);
}

OFFLOAD_KERNEL void with_barrier(far_field f, with_buffer w) {
  auto &tile = offload::shared<double[64]>([] {});
  const unsigned t = offload::thread_id_x();
  tile[t] = f.variable[t % 5] * w.scale[t % 3];
  offload::barrier();
  w.out[offload::global_id_x()] = tile[(t + 1) % 64] + w.n;
}

int main() {
  nine a{};
  for (int k = 0; k < 9; ++k) a.c[k] = static_cast<unsigned char>(k + 1);
  far_field f{};
  for (int k = 0; k < 5; ++k) f.variable[k] = 0.5f * k;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) f.momentum[r][c] = float(r * 3 + c);
  aligned96 b{};
  for (int k = 0; k < 12; ++k) b.v[k] = 100.0 * k;
  static largest l;
  static beyond x;
  for (int k = 0; k < 128; ++k) l.v[k] = 1000u * k;
  for (int k = 0; k < 129; ++k) x.v[k] = 7u * k;
  const unsigned n = 256;
  offload::buffer<double> out(n);
  std::vector<double> got(n);
  int failures = 0;
  auto check = [&](const char *how) {
    out.copy_to(std::span<double>(got));
    for (unsigned i = 0; i < n; ++i)
      if (got[i] != sum_of(a, f, 3, b, l, x, i)) {
        std::printf("%s: out[%u] = %g, expected %g\n", how, i, got[i], sum_of(a, f, 3, b, l, x, i));
        ++failures;
        return;
      }
  };
  offload::launch(sum_values, {.workgroups = {4}, .threads = {64}}, a, f, 3, b, l, x, out.data());
  check("launch");
  {
    offload::queue q;
    out.copy_from(std::span<const double>(std::vector<double>(n, 0.0)));
    for (int r = 0; r < 3; ++r)  // deferred launches keep each value's slots
      q.launch(sum_values, {.workgroups = {4}, .threads = {64}}, a, f, 3, b, l, x, out.data());
    q.wait();
    check("queue");
  }
  offload::launch(with_barrier, {.workgroups = {4}, .threads = {64}}, f, with_buffer{out.data(), {1, 2, 3}, 5});
  out.copy_to(std::span<double>(got));
  for (unsigned i = 0; i < n; ++i) {
    const unsigned t = (i % 64 + 1) % 64;
    const double want = f.variable[t % 5] * (1 + t % 3) + 5;
    if (got[i] != want) {
      std::printf("barrier: out[%u] = %g, expected %g\n", i, got[i], want);
      ++failures;
      break;
    }
  }
  // A lambda's captured struct travels the same way.
  offload::device_ptr<double> o = out.data();
  offload::parallel_for(offload::range{n}, [=](std::size_t i) { o[i] = f.momentum[i % 4][i % 3] + b.v[i % 12]; });
  out.copy_to(std::span<double>(got));
  for (unsigned i = 0; i < n; ++i)
    if (got[i] != f.momentum[i % 4][i % 3] + b.v[i % 12]) {
      std::printf("lambda: out[%u] = %g\n", i, got[i]);
      ++failures;
      break;
    }
  std::printf("wide_values: %s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
