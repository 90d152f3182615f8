#include <vecops/vecops.hpp>

#include <vector>

namespace vecops {

template <class T> static T scaled_sum_of(T factor) {
  std::vector<T> v(1000, T(1));
  offload::launch(scale<T>, {.workgroups = {4}, .threads = {256}}, std::span(v), factor);
  T sum = 0;
  for (T x : v) sum += x;
  return sum;
}

double scaled_sum(double factor) { return scaled_sum_of(factor); }
float scaled_sum(float factor) { return scaled_sum_of(factor); }

} // namespace vecops
