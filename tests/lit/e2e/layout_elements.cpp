// The elements of a span or a device pointer parameter (and a lambda's captured span) are
// checked at the launch as by-value parameters are (fifteenth adversarial pass: a host-only
// macro made them 8 bytes on the host and 4 in the kernel: garbage, exit 0); a -specs file's
// macros and --param destructive-interference-size reach the kernel's compiles as g++ sees
// them; a #pragma pack left open before offload's headers does not change offload's records.
// RUN: %offload-cxx -Xhost -DWIDE %s -o %t-wide && not %t-wide 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: error: kernel 'scale' launched at {{.*}}layout_elements.cpp:[[#]]: the elements of parameter 'v' are 8 bytes in the host's compile but 4 bytes in the kernel's
// WIDE-NEXT: kept 0 1 2 3
// WIDE-NEXT: error: kernel 'scale_device' launched at {{.*}}: the elements of parameter 'v' are 8 bytes
// WIDE-NEXT: error: kernel 'lambda at {{.*}}layout_elements.cpp:[[#]]' launched at {{.*}}: the elements of parameter 'vs' are 8 bytes
// RUN: printf '*cpp:\n+ -DWIDE -DFACTOR=3\n\n' > %t.specs
// RUN: %offload-cxx -specs=%t.specs --param destructive-interference-size=128 %s -o %t-specs && %t-specs | FileCheck %s --check-prefix=SPECS
// RUN: %offload-cxx -DOPEN_PACK %s -o %t-pack && %t-pack | FileCheck %s --check-prefix=SAME
// SPECS: scaled 0 2 4 6, factor 3 3, interference 128 128, packed 8 40
// SAME: scaled 0 2 4 6, factor [[F:[0-9]+]] [[F]], interference [[I:[0-9]+]] [[I]], packed {{5|8}} 40
#ifdef OPEN_PACK
#pragma pack(push, 1)  // left open by a user's header
#endif
struct packed_pair { char c; int i; };
#include <offload/offload.hpp>

#include <cstdio>
#include <new>
#include <span>
#include <vector>

#ifdef WIDE
using real = double;
#else
using real = float;
#endif
struct elem {  // one name, two layouts
  real x;
};
#ifndef FACTOR
#define FACTOR 1
#endif

OFFLOAD_KERNEL void scale(std::span<elem> v) {
  const auto i = offload::thread_id_x();
  if (i < v.size()) v[i].x *= 2;
}
OFFLOAD_KERNEL void scale_device(offload::device_ptr<elem> v, int n) {
  const auto i = int(offload::thread_id_x());
  if (i < n) v[i].x *= 2;
}
OFFLOAD_KERNEL void facts(long (*out)[3], packed_pair p) {
  (*out)[0] = FACTOR;
  (*out)[1] = long(std::hardware_destructive_interference_size);
  (*out)[2] = long(sizeof(packed_pair)) * 100 + p.i;
}
#ifdef OPEN_PACK
#pragma pack(pop)
#endif

int main() {
  std::vector<elem> v = {{0}, {1}, {2}, {3}};
  int failed = 0;
  try {
    offload::launch(scale, {.threads = {4}}, std::span(v));
  } catch (const offload::error &e) {
    std::printf("%s\nkept %g %g %g %g\n", e.what(), double(v[0].x), double(v[1].x), double(v[2].x),
                double(v[3].x));
    ++failed;
  }
  offload::buffer<elem> b(4);
  try {
    offload::launch(scale_device, {.threads = {4}}, b.data(), 4);
  } catch (const offload::error &e) {
    std::printf("%s\n", e.what());
    ++failed;
  }
  std::span<elem> vs(v);
  try {
    offload::parallel_for(offload::range{vs.size()}, [=](std::size_t i) { vs[i].x += 0; });
  } catch (const offload::error &e) {
    std::printf("%s\n", e.what());
    ++failed;
  }
  if (failed)
    return 1;
  long out[3] = {};
  offload::launch(facts, {}, &out, packed_pair{'a', 40});
  std::printf("scaled %g %g %g %g, factor %d %ld, interference %zu %ld, packed %ld %d\n",
              double(v[0].x), double(v[1].x), double(v[2].x), double(v[3].x), FACTOR, out[0],
              std::hardware_destructive_interference_size, out[1], out[2] / 100,
              int(out[2] % 100));
}
