// What a lambda kernel cannot capture is an error at the capture, naming it and saying what to
// capture instead (offload/parallel_for.hpp); nothing is built.
// RUN: not %offload-cxx %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t
#include <offload/offload.hpp>

#include <span>
#include <utility>
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
  int *p = v.data();
  offload::parallel_for(offload::range{8}, [=](std::size_t i) { p[i] = 3; });
  struct local { int a; } loc{1};
  offload::parallel_for(offload::range{8}, [=](std::size_t i) { s[i] = loc.a; });
  const std::pair<int, int> pr{1, 2};
  offload::parallel_for(offload::range{8}, [=](std::size_t i) { s[i] = pr.first; });
  (offload::parallel_for)(offload::range{8}, [=](std::size_t i) { s[i] = 4; });
  static int counter = 7;
  static const int fixed = 9;
  offload::parallel_for(offload::range{8}, [=](std::size_t i) { s[i] = counter + fixed; });
}
// CHECK-DAG: lambda_captures.cpp:14:81: error: offload::parallel_for: the lambda uses 'this'; a kernel cannot reach the host object: copy the members it needs into locals and capture those
// CHECK-DAG: lambda_captures.cpp:23:65: error: offload::parallel_for: the lambda captures 'total' by reference ([&]); capture by value ([=]): a std::span of the data for an array or container, an offload::device_ptr for a buffer's data
// CHECK-DAG: lambda_captures.cpp:24:72: error: offload::parallel_for: the lambda captures the array 'array'; capture a std::span of it (std::span(array))
// CHECK-DAG: lambda_captures.cpp:25:76: error: offload::parallel_for: the lambda captures 'v' of type 'std::vector<int>', which cannot be mapped to the device: capture a std::span of its data (std::span(v)) instead
// CHECK-DAG: lambda_captures.cpp:33:65: error: offload::parallel_for: the lambda captures the pointer 'p', a host address the device cannot use: capture a std::span of the data it points to (std::span(p, n)), or an offload::device_ptr for a buffer's data
// CHECK-DAG: lambda_captures.cpp:26:45: error: offload::parallel_for: the init-capture 'p' is not supported yet
// CHECK-DAG: lambda_captures.cpp:28:3: error: offload::parallel_for: write the lambda in the call
// CHECK-DAG: lambda_captures.cpp:31:34: error: offload::parallel_reduce: the operation cannot be a lambda (the device must name its type): use std::plus<>{}, offload::minimum<>{}, offload::maximum<>{} or a struct with operator()
// CHECK-DAG: lambda_captures.cpp:35:72: error: offload::parallel_for: the lambda captures 'loc' of type 'struct local', which the device's code cannot name (a local, unnamed or anonymous-namespace type, or a lambda): declare the type at namespace scope
// CHECK-DAG: lambda_captures.cpp:37:72: error: offload::parallel_for: the lambda captures 'pr' of type 'const std::pair<int, int>', which is not trivially copyable (a lambda's captures travel as its bytes): capture its members as separate variables, or a trivially copyable struct
// CHECK-DAG: lambda_captures.cpp:41:72: error: offload::parallel_for: the lambda uses 'counter', a static variable of the function around it, which lives in the host's memory (a GPU has no copy of its value): copy it into a local variable and capture that
// CHECK-NOT: 'fixed'
// CHECK-NOT: warning:
