#include <offload/offload.hpp>
#include <vector>
int main() {
  std::vector<float> v(100);
  float *p = v.data();
  offload::parallel_for(offload::range{100}, [=](std::size_t i) { p[i] = 1.0f; }); // case:lambda-raw-pointer
}
