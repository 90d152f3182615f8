#include <offload/offload.hpp>

#include <cstdio>
#include <span>

#include "shapes.h"

__attribute__((weak)) int strong_or_weak(int x) { return x * 0; }

OFFLOAD_KERNEL void members(std::span<int> out, geo::Box b) {
  out[0] = b.area();
  out[1] = b.grow(1);
  out[2] = geo::Box::unit(3);
  geo::Box c{1, 1};
  c += b;
  out[3] = c.w * 10 + c.h;
  out[4] = geo::scale(7) + geo::scale(2.5);
  out[5] = geo::cube(3);
  out[6] = strong_or_weak(5);
  out[7] = configured(7);
}

int main() {
  int out[8] = {};
  geo::Box b{2, 3};
  offload::launch(members, {}, std::span<int>(out), b);
  geo::Box h{2, 3};  // as the kernel does, on the host
  const int area = h.area(), grown = h.grow(1);
  geo::Box c{1, 1};
  c += h;
  const int want[8] = {area, grown, geo::Box::unit(3), c.w * 10 + c.h,
                       geo::scale(7) + geo::scale(2.5), geo::cube(3), strong_or_weak(5),
                       configured(7)};
  int wrong = 0;
  for (int i = 0; i < 8; ++i)
    if (out[i] != want[i]) {
      std::printf("out[%d] = %d, want %d\n", i, out[i], want[i]);
      ++wrong;
    }
  std::printf("cross_file_more: %s\n", wrong ? "WRONG" : "all checks passed");
  return wrong != 0;
}
