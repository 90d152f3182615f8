#include <cstdio>
int main() { std::printf("plain\n"); }
