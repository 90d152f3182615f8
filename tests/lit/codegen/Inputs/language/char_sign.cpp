#include <offload/offload.hpp>
#include <cstdio>
OFFLOAD_KERNEL void k(int *x) { *x = (char)200 > 0 ? 1 : 2; }
int main() { int x = 0; offload::launch(k, {}, &x); std::printf("%d\n", x); }
