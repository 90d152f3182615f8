#include <offload/offload.hpp>
#include <cstdio>
__attribute__((weak)) int helper(int x) { return x * 0; }
OFFLOAD_KERNEL void k(int *out, int v) { *out = helper(v); }
int main() { int r = -1; offload::launch(k, {}, &r, 5); std::printf("kernel %d host %d\n", r, helper(5)); }
