#include <offload/offload.hpp>
#include <cstdio>
int helper(int x);
OFFLOAD_KERNEL void k(int *out, int v) { *out = helper(v); }
int main() { int r = 0; offload::launch(k, {}, &r, 5); std::printf("kernel %d host %d\n", r, helper(5)); }
