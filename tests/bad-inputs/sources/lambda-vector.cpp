#include <offload/offload.hpp>
#include <vector>
int main() {
  std::vector<float> v(100);
  float total = offload::parallel_reduce(offload::range{100}, 0.0f, [=](std::size_t i) { return v[i]; }); // case:lambda-vector
  return total > 0;
}
