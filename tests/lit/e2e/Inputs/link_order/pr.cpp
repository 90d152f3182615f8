#include <cstdio>
float helper(float);
int main() { std::printf("helper(0)=%g\n", helper(0)); }
