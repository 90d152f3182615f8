// The seed's example in C++: a generic kernel that fills an array, launched with 256 workgroups of
// one thread on `double x[256]` with 2.5. Build and run:
//   offload-cxx -O2 examples/fill.cpp -o fill && ./fill
#include <offload/offload.hpp>

#include <cstdio>

template <class T>
OFFLOAD_KERNEL void fill(T (*x)[256], T value) {
  auto i = offload::thread_id_x() + offload::block_id_x() * offload::block_dim_x();
  if (i < 256) (*x)[i] = value;
}

int main() {
  double x[256] = {};
  offload::launch(fill<double>, {.workgroups = {256, 1, 1}}, &x, 2.5);  // maps x to+from
  for (double v : x)
    if (v != 2.5) {
      std::printf("wrong value %g\n", v);
      return 1;
    }
  std::printf("all checks passed on %s\n", offload::last_launch_device().c_str());
}
