// parallel_reduce's result type lives in uninitialised workgroup memory: a type with default
// member initialisers is refused by name, with what to do (a new user met the shared memory's
// own static_assert instead, about memory they never used).
// RUN: not %offload-cxx -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: offload::parallel_reduce: the result's type must be trivially default-constructible (a struct without default member initialisers or a constructor of its own): give its identity as the initial value instead
#include <offload/offload.hpp>

#include <span>
#include <vector>

struct min_max {
  double lo = 1e300, hi = -1e300;
};
struct min_max_op {
  min_max operator()(const min_max &a, const min_max &b) const {
    return {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  }
};

int main() {
  std::vector<double> x(100, 1.0);
  std::span<const double> xs(x);
  min_max m = offload::parallel_reduce(offload::range{x.size()}, min_max{},
                                       [=](std::size_t i) { return min_max{xs[i], xs[i]}; },
                                       min_max_op{});
  return m.lo < m.hi ? 0 : 1;
}
