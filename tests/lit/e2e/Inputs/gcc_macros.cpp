#include <offload/offload.hpp>
#include <cstdio>
#ifndef VAL
#define VAL 1
#endif
inline int probe() {
  int r = VAL * 1000;
#ifdef __OPTIMIZE__
  r += 100;
#endif
#ifdef linux
  r += 10;
#endif
#if __GNUC__ >= 5
  r += 1;
#endif
  return r;
}
inline int charsign() { char c = (char)200; return c < 0 ? -1 : 1; }
OFFLOAD_KERNEL void k(int *out, int *cs) { *out = probe(); *cs = charsign(); }
int main() {
  int r = 0, cs = 0; offload::launch(k, {}, &r, &cs);
  std::printf("host %d/%d kernel %d/%d %s\n", probe(), charsign(), r, cs, probe()==r && cs==charsign() ? "SAME" : "DIFF");
}
