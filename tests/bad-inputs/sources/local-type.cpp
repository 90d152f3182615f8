#include <offload/offload.hpp>
template <class T> OFFLOAD_KERNEL void store(T *x) { *x = T{}; }
int main() {
  struct local { int a; };
  local l{1};
  offload::launch(store<local>, {}, &l); // case:local-type
}
