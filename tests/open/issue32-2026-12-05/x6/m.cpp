#include <offload/offload.hpp>
#include <cstdio>
#include "h.h"
OFFLOAD_KERNEL void k1(int *o) { *o = ns::f(1) + ns::f(1.0); }
OFFLOAD_KERNEL void k2(int *o) { *o = 11; }
OFFLOAD_KERNEL void k3(int *o) { *o = 14; }
OFFLOAD_KERNEL void k4(int *o) { *o = 2; }
OFFLOAD_KERNEL void k5(int *o) { *o = with_static(1); }
int main() { int a=0,b=0,c=0,d=0,e=0; offload::launch(k1, {}, &a); offload::launch(k2, {}, &b); offload::launch(k3, {}, &c);
  offload::launch(k4, {}, &d); offload::launch(k5, {}, &e); std::printf("%d %d %d %d %d\n", a, b, c, d, e); }
