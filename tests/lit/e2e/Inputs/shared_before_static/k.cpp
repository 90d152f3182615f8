#include <offload/offload.hpp>
#include <cstdio>
#include <vector>
int h(int);
OFFLOAD_KERNEL void k(std::span<int> v) { v[0] = h(v[0]); }
int main() { std::vector<int> v{1}; offload::launch(k, {1, 1}, std::span<int>(v)); std::printf("%d host %d\n", v[0], h(1)); }
