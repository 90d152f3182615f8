#include <offload/offload.hpp>
template <class F> OFFLOAD_KERNEL void apply(F f, int *x) { *x = f(); }
int main() {
  int x = 0;
  auto seven = [] { return 7; };
  offload::launch(apply<decltype(seven)>, {}, seven, &x); // case:lambda-type
}
