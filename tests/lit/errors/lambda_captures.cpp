// What a lambda kernel cannot capture is an error at the capture, naming it and saying what to
// capture instead (offload/parallel_for.hpp); nothing is built.
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t
#include <offload/offload.hpp>

#include <span>
#include <vector>

struct holder {
  int base = 3;
  void run(std::span<int> s) {
    offload::parallel_for(offload::range{s.size()}, [=](std::size_t i) { s[i] = base; });
  }
};

int main() {
  std::vector<int> v(8);
  std::span<int> s(v);
  int array[4] = {};
  int total = 0;
  offload::parallel_for(offload::range{8}, [&](std::size_t i) { total += s[i]; });
  offload::parallel_for(offload::range{4}, [=](std::size_t i) { s[i] = array[i]; });
  offload::parallel_for(offload::range{8}, [=](std::size_t i) { s[i] = int(v.size()); });
  offload::parallel_for(offload::range{8}, [p = s.data()](std::size_t i) { p[i] = 1; });
  auto body = [=](std::size_t i) { s[i] = 2; };
  offload::parallel_for(offload::range{8}, body);
  holder{}.run(s);
  (void)offload::parallel_reduce(offload::range{8}, 0, [=](std::size_t i) { return s[i]; },
                                 [](int a, int b) { return a + b; });
}
// CHECK-DAG: lambda_captures.cpp:13:81: error: offload::parallel_for: the lambda uses 'this'; a kernel cannot reach the host object: copy the members it needs into locals and capture those
// CHECK-DAG: lambda_captures.cpp:22:65: error: offload::parallel_for: the lambda captures 'total' by reference ([&]); capture by value ([=])
// CHECK-DAG: lambda_captures.cpp:23:72: error: offload::parallel_for: the lambda captures the array 'array'; capture a std::span of it (std::span(array))
// CHECK-DAG: lambda_captures.cpp:24:76: error: offload::parallel_for: the lambda captures 'v' of type 'std::vector<int>', which cannot be mapped to the device
// CHECK-DAG: lambda_captures.cpp:25:45: error: offload::parallel_for: the init-capture 'p' is not supported yet
// CHECK-DAG: lambda_captures.cpp:27:3: error: offload::parallel_for: write the lambda in the call
// CHECK-DAG: lambda_captures.cpp:30:34: error: offload::parallel_reduce: the operation cannot be a lambda (the device must name its type): use std::plus<>{}, offload::minimum<>{}, offload::maximum<>{} or a struct with operator()
// CHECK-NOT: warning:
