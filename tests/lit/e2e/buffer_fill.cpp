// buffer::fill and queue::fill (cudaMemset's place): every element type — 1-, 2-, 4- and 8-byte
// values, a value whose bytes repeat (a GPU's memset) and one whose bytes do not (a staged copy),
// a 12-byte struct — whole buffers and ranges, after launches that wrote the buffer (the fill
// comes after them), before launches that read it, on a queue, of zero elements, and a range
// outside the buffer (an error naming this file's line; nothing written).
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: fill at {{.*}}buffer_fill.cpp:[[#]]: 5 elements at element 8 do not fit a buffer of 10
// CHECK: buffer_fill: all checks passed
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

struct rgb {
  float r, g, b;
  bool operator==(const rgb &o) const { return r == o.r && g == o.g && b == o.b; }
};

template <class T> OFFLOAD_KERNEL void write_index(offload::device_ptr<T> out, unsigned n) {
  for (unsigned i = offload::global_id_x(); i < n; i += offload::block_dim_x() * offload::grid_dim_x())
    out[i] = T(i);
}

OFFLOAD_KERNEL void count_not(offload::device_ptr<const double> in, unsigned n, double value,
                              offload::device_ptr<unsigned> wrong) {
  for (unsigned i = offload::global_id_x(); i < n; i += offload::block_dim_x() * offload::grid_dim_x())
    if (in[i] != value)
      offload::atomic_add(&wrong[0], 1u);
}

namespace {
int failures = 0;
void expect(bool ok, const std::string &what) {
  if (!ok && ++failures <= 20)
    std::printf("FAILED: %s\n", what.c_str());
}

template <class T> void whole_and_range(const char *name, T value, T other, std::size_t n) {
  offload::buffer<T> b(n);
  std::vector<T> got(n);
  b.fill(value);
  b.copy_to(got);
  bool ok = true;
  for (const T &v : got)
    ok = ok && std::memcmp(&v, &value, sizeof(T)) == 0;
  expect(ok, std::string(name) + ": the whole buffer");
  // A range in the middle: the rest keeps `value`.
  const std::size_t at = n / 3, count = n / 2;
  b.fill(other, at, count);
  b.copy_to(got);
  ok = true;
  for (std::size_t i = 0; i < n; ++i)
    ok = ok && std::memcmp(&got[i], i >= at && i < at + count ? &other : &value, sizeof(T)) == 0;
  expect(ok, std::string(name) + ": a range");
}
} // namespace

int main() {
  const std::size_t n = (1u << 20) + 7;  // more than one staged piece of 1 MiB
  whole_and_range<std::uint8_t>("uint8_t", 0xab, 0x01, n);
  whole_and_range<std::int16_t>("int16_t", -2, 0x1234, n);
  whole_and_range<int>("int", 0, -1, n);
  whole_and_range<float>("float", 1.0f, -3.5f, n);
  whole_and_range<double>("double", 0.0, 2.718281828459045, n);
  whole_and_range<std::uint64_t>("uint64_t", 0x0101010101010101ull, 0x0102030405060708ull, n);
  whole_and_range<rgb>("rgb", rgb{1, 2, 3}, rgb{0, 0, 0}, n);

  // After launches that wrote the buffer: the fill comes after them, whatever waits.
  const unsigned m = 1u << 22;
  const offload::launch_config cfg{.workgroups = {128}, .threads = {256}};
  offload::buffer<double> d(m);
  offload::buffer<unsigned> wrong(1);
  std::vector<unsigned> w(1);
  for (int round = 0; round < 8; ++round) {
    offload::launch(write_index<double>, cfg, d.data(), m);
    d.fill(0.5 * round);
    wrong.fill(0u);
    offload::launch(count_not, cfg, d.data(), m, 0.5 * round, wrong.data());
    wrong.copy_to(w);
    expect(w[0] == 0, "round " + std::to_string(round) + ": " + std::to_string(w[0]) +
                          " elements not filled after a launch");
  }

  // On a queue: in order with its launches.
  offload::queue q;
  for (int round = 0; round < 8; ++round) {
    q.launch(write_index<double>, cfg, d.data(), m);
    q.fill(d, -1.0 * round);
    q.fill(wrong, 0u);
    q.launch(count_not, cfg, d.data(), m, -1.0 * round, wrong.data());
    q.copy(std::span<unsigned>(w), wrong);
    q.wait();
    expect(w[0] == 0, "queue round " + std::to_string(round) + ": " + std::to_string(w[0]) +
                          " elements not filled");
  }

  // Zero elements: nothing, no error.
  d.fill(7.0, m, 0);
  offload::buffer<int> empty(0);
  empty.fill(3);

  // A range outside the buffer: an error naming the line; the buffer keeps its values.
  offload::buffer<int> small(10);
  small.fill(4);
  try {
    small.fill(9, 8, 5);
    expect(false, "a fill past the end was not refused");
  } catch (const offload::error &e) {
    std::printf("%s\n", e.what());
  }
  std::vector<int> s(10);
  small.copy_to(s);
  bool kept = true;
  for (int v : s)
    kept = kept && v == 4;
  expect(kept, "the refused fill wrote into the buffer");

  if (failures == 0)
    std::printf("buffer_fill: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
