#include <offload/offload.hpp>
#include <vector>
OFFLOAD_KERNEL void sum(std::span<const int> in, int *out) { *out = in[0]; }
std::vector<int> make_vector() { return std::vector<int>(16, 1); }
int main() {
  int out = 0;
  offload::queue q;
  q.launch(sum, {}, make_vector(), &out); // case:queued-temporary
  q.wait();
}
