#include <offload/offload.hpp>
OFFLOAD_KERNEL int answer(int *x) { return *x = 42; }
int main() {
  int x = 0;
  offload::launch(answer, {}, &x); // case:returns-value
}
