#include <offload/offload.hpp>
double host_only(double); // defined in no file the device compile sees
OFFLOAD_KERNEL void uses_host_only(double *x) { *x = host_only(*x); }
int main() {
  double x = 1;
  offload::launch(uses_host_only, {}, &x); // case:device-undefined-function
}
