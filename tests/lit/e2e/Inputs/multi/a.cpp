#include "kernels.hpp"

#include <vector>

double run_a() {  // scale<double> here and in b.cpp: one device entry
  std::vector<double> v(1000, 1.0);
  offload::launch(scale<double>, {.workgroups = {4}, .threads = {256}}, std::span(v), 3.0);
  double sum = 0;
  for (double x : v) sum += x;
  return sum;  // 3000
}

float run_saxpy() {  // a kernel defined in another file
  std::vector<float> x(512, 2.0f), y(512, 1.0f);
  offload::launch(saxpy, {.workgroups = {2}, .threads = {256}}, 0.5f, std::span<const float>(x),
                  std::span(y));
  // an explicit instantiation of another file's kernel template: +0 in all
  offload::launch(add_to_each<float>, {.workgroups = {2}, .threads = {256}}, std::span(y), 1.0f);
  offload::launch(add_to_each<float>, {.workgroups = {2}, .threads = {256}}, std::span(y), -1.0f);
  float sum = 0;
  for (float v : y) sum += v;
  return sum;  // 1024
}
