#include <offload/offload.hpp>
#include <vector>
struct field { std::span<double> values; double scale; };
int main() {
  std::vector<double> v(100);
  field f{v, 2.0};
  offload::parallel_for(offload::range{100}, [=](std::size_t i) { f.values[i] *= f.scale; }); // case:lambda-struct-span
}
