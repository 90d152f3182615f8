#include <offload/offload.hpp>
OFFLOAD_KERNEL void widen(double *p) {
  long double x = *p;
  *p = double(x * 2); // case:long-double-gpu
}
int main() {
  double d = 1;
  offload::launch(widen, {}, &d);
}
