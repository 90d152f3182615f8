#include <offload/offload.hpp>
OFFLOAD_KERNEL void takes_rvalue(int &&v) {}
int main() {
  offload::launch(takes_rvalue, {}, 3); // case:rvalue-reference
}
