#include <offload/offload.hpp>
OFFLOAD_KERNEL void takes_void(void *p) {}
int main() {
  int x = 0;
  offload::launch(takes_void, {}, static_cast<void *>(&x)); // case:void-pointer
}
