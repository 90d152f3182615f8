#include <offload/offload.hpp>
struct level0 { int value; int *hidden; };
struct level1 { level0 inner; };
struct level2 { level1 inner; };
struct level3 { level2 inner; };
struct level4 { level3 inner; };
struct level5 { level4 inner; };
struct level6 { level5 inner; };
struct level7 { level6 inner; };
struct level8 { level7 inner; };
struct level9 { level8 inner; };
struct level10 { level9 inner; };
struct level11 { level10 inner; };
struct level12 { level11 inner; };
struct level13 { level12 inner; };
struct level14 { level13 inner; };
struct level15 { level14 inner; };
struct level16 { level15 inner; };
struct level17 { level16 inner; };
OFFLOAD_KERNEL void deep(level17 l, int *out) { *out = l.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.value; }
int main() {
  int out = 0;
  offload::launch(deep, {}, level17{}, &out); // case:pointer-17-deep
}
