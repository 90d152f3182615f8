#include <offload/offload.hpp>
#include <cstdio>
int helper(int x);
OFFLOAD_KERNEL void k(int *x) { *x = helper(*x); }
int main() { int x = 21; offload::launch(k, {}, &x); std::printf("%d\n", x); return x != 42; }
