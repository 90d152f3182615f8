#include <offload/offload.hpp>
OFFLOAD_KERNEL static void hidden(int *x) { *x = 1; }
int main() {
  int x = 0;
  offload::launch(hidden, {}, &x); // case:internal-linkage
}
