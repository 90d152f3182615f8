#include <offload/offload.hpp>
#include <vector>
int main() {
  std::vector<float> v(100);
  std::span<float> s(v);
  offload::parallel_for(offload::range{100}, [&](std::size_t i) { s[i] = 1.0f; }); // case:lambda-by-reference
}
