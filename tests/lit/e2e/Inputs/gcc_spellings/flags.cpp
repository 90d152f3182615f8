// Flags that change what the code means (a forced include through the preprocessor, short
// enums, trigraphs): every device compiles what g++ compiles.
#include <offload/offload.hpp>
#include <cstdio>
#ifndef SCALE
#define SCALE 1
#endif
enum small_e { A, B };
struct P { char a; small_e e; char b; double d; };
OFFLOAD_KERNEL void k(std::span<int> o, P p) { o[0] = SCALE; o[1] = int(sizeof(P)); o[2] = p.e; o[3] = "??!"[0]; }
int main() { int r[4] = {}; P p{1, B, 2, 3.0}; offload::launch(k, {}, std::span<int>(r), p);
  std::printf("%d %d %d %d host %d %d\n", r[0], r[1], r[2], r[3], int(sizeof(P)), "??!"[0]); }
