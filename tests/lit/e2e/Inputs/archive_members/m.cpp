#include <cstdio>
void run_used(int &);
int main() { int x = 0; run_used(x); std::printf("x=%d\n", x); }
