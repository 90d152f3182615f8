#include <vecops/vecops.hpp>

#include <cstdio>
#include <vector>

int main() {
  using namespace vecops;
  bool ok = check("scale<double> (library)", scaled_sum(3.0), 3000);
  ok &= check("scale<float> (library)", scaled_sum(0.5f), 500);

  std::vector<float> v(100, 2.0f);  // scale<float> launched here too
  offload::launch(scale<float>, {.workgroups = {1}, .threads = {128}}, std::span(v), 4.0f);
  float sum = 0;
  for (float x : v) sum += x;
  ok &= check("scale<float> (program)", sum, 800);

  ok &= check("iota (library)", double(sum_iota(300)), 300 + 44850);

  std::vector<long> w(10);  // a kernel the library defines, launched from the program
  offload::launch(iota, {.workgroups = {1}, .threads = {16}}, std::span(w), 5L);
  ok &= check("iota (program)", double(w[9]), 14);

  std::printf("cmake-project: %s on %s\n", ok ? "all checks passed" : "FAILED",
              offload::last_launch_device().c_str());
  return ok ? 0 : 1;
}
