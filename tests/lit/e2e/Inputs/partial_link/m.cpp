#include <cstdio>
void run_a(int &); void run_b(int &);
int main() { int x = 0; run_a(x); run_b(x); std::printf("x=%d\n", x); }
