#include "kernels.hpp"

#include <vector>

double run_b() {
  std::vector<double> d(100, 2.0);
  std::vector<float> f(100, 4.0f);
  offload::launch(scale<double>, {.threads = {128}}, std::span(d), 0.5);
  offload::launch(scale<float>, {.threads = {128}}, std::span(f), 0.25f);
  double sum = 0;
  for (int i = 0; i < 100; ++i) sum += d[i] + f[i];
  return sum;  // 200
}
