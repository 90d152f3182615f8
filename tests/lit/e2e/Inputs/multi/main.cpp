#include "kernels.hpp"

#include <cstdio>

int main() {
  double a = run_a(), b = run_b();
  float s = run_saxpy();
  long l = run_library();
  bool ok = a == 3000 && b == 200 && s == 1024 && l == 44850;
  std::printf("multi_tu: a=%g b=%g saxpy=%g library=%ld: %s on %s\n", a, b, double(s), l,
              ok ? "all checks passed" : "FAILED", offload::last_launch_device().c_str());
  return ok ? 0 : 1;
}
