#include <offload/offload.hpp>
struct node { int value; node *next; };
OFFLOAD_KERNEL void walk(node n, int *out) { *out = n.value; }
int main() {
  int out = 0;
  offload::launch(walk, {}, node{1, nullptr}, &out); // case:raw-pointer-member
}
