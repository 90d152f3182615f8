// The CPU device reads in place what a plain launch's kernel only reads (runtime/cpu_in_place.hpp),
// and results stay those of a GPU's copies: an object another argument writes, or that a data
// region holds, is still copied (the read sees the write, or the region's copy); a const span
// with a bad pointer is the copy's error, not a fault.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_INFO=8 %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env OFFLOAD_DEVICE=cpu not %t bad-pointer 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: cpu_in_place_reads: all checks passed
// INFO: CPU device ({{[0-9]+}} threads): Reading in place HstPtrBegin=0x{{[0-9a-f]+}}, Size=8000, Name=x at cpu_in_place_reads.cpp:[[#]]
// INFO: CPU device ({{[0-9]+}} threads): Reading in place HstPtrBegin=0x{{[0-9a-f]+}}, Size=8, Name=scale at cpu_in_place_reads.cpp:[[#]]
// INFO-NOT: Reading in place{{.*}}Name=seen
// INFO-NOT: Reading in place{{.*}}Name=cells
// INFO-NOT: Reading in place{{.*}}Name=one
// INFO-NOT: Reading in place{{.*}}Name=held
// INFO: cpu_in_place_reads: all checks passed
// BAD: offload-cxx: error: kernel 'axpy' launched at cpu_in_place_reads.cpp:[[#]]: an argument's memory at address 0x0000000000000010 (800 bytes) cannot be read
#include <offload/offload.hpp>

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

OFFLOAD_KERNEL void axpy(std::span<const double> x, const double &scale, std::span<double> y) {
  if (std::size_t i = offload::global_id_x(); i < y.size())
    y[i] += scale * x[i];
}

// One work-item writes through `out`, then reads through `seen`: when both name one object, a
// GPU reads its own write (one copy), so the CPU device must too.
OFFLOAD_KERNEL void write_then_read(std::span<int> out, std::span<const int> seen, int *got) {
  out[0] = 5;
  *got = seen[0];
}

// A `mutable` member is written through a const view (legal C++, no cast): on a GPU the write
// goes to a copy that never comes back, so the CPU device copies classes (the adversarial pass).
struct cell {
  int value;
  mutable int hits;
};
OFFLOAD_KERNEL void look(std::span<const cell> cells, const cell &one, std::span<int> out) {
  if (std::size_t i = offload::global_id_x(); i < cells.size()) {
    cells[i].hits += 1;
    out[i] = cells[i].value;
  }
  one.hits = 9;
}

OFFLOAD_KERNEL void add_one(std::span<double> v) {
  if (std::size_t i = offload::global_id_x(); i < v.size())
    v[i] += 1;
}
OFFLOAD_KERNEL void copy_of(std::span<const double> held, std::span<double> to) {
  if (std::size_t i = offload::global_id_x(); i < to.size())
    to[i] = held[i];
}

int main(int argc, char **argv) {
  int failures = 0;
  auto check = [&](bool ok, const char *what) {
    if (!ok) {
      std::printf("FAILED: %s\n", what);
      ++failures;
    }
  };
  std::vector<double> x(1000), y(1000, 1.0);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = double(i);
  const double scale = 2.0;
  if (argc > 1 && !std::strcmp(argv[1], "bad-pointer")) {
    offload::launch(axpy, offload::range{100},
                    std::span<const double>(reinterpret_cast<const double *>(0x10), 100), scale,
                    std::span(y).first(100));
    return 0;
  }
  offload::launch(axpy, offload::range{x.size()}, std::span<const double>(x), scale, std::span(y));
  bool ok = true;
  for (std::size_t i = 0; i < x.size(); ++i)
    ok = ok && y[i] == 1.0 + 2.0 * double(i);
  check(ok, "axpy");

  std::vector<int> v{1, 2, 3};
  int got = 0;
  offload::launch(write_then_read, {}, std::span(v), std::span<const int>(v), &got);
  check(got == 5 && v[0] == 5, "a read of an object another argument writes sees the write");

  std::vector<cell> cells(4, cell{7, 0});
  cell one{1, 0};
  std::vector<int> values(4);
  offload::launch(look, {.threads = {32}}, std::span<const cell>(cells), one, std::span(values));
  check(cells[0].hits == 0 && cells[3].hits == 0 && one.hits == 0 && values[3] == 7,
        "a mutable member written through a const view stays on the device");

  // A data region's copy is newer than the host's bytes: a launch inside reads the copy.
  std::vector<double> held(64, 1.0), to(64, 0.0);
  {
    offload::data_region region({}, std::span(held));
    offload::launch(add_one, offload::range{held.size()}, std::span(held));
    offload::launch(copy_of, offload::range{held.size()}, std::span<const double>(held), std::span(to));
  }
  check(to[0] == 2.0 && to[63] == 2.0 && held[0] == 2.0, "a read of a region's object reads its copy");

  if (failures == 0)
    std::printf("cpu_in_place_reads: all checks passed\n");
  return failures != 0;
}
