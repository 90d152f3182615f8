#include <offload/offload.hpp>
void plain(int *x) { *x = 1; }
int main() {
  int x = 0;
  offload::launch(plain, {}, &x); // case:unmarked
}
