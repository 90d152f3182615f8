// Options that change a type's layout on one compiler's side only (fourteenth adversarial pass).
// -pthread's and -fopenmp's _REENTRANT and _OPENMP reach the kernel's compiles with g++'s values;
// a macro only g++ defines (-Xhost -D) picking a by-value or mapped parameter's type is refused
// at the launch, naming the kernel and the parameter, the host's data as it was (a -specs
// file's macros reach the kernel's compiles); -fpack-struct and -malign-double, which change offload-cxx's own records too, are refused
// for a file that uses offload, in one line.
// RUN: %offload-cxx -pthread %s -o %t-pthread && %t-pthread | FileCheck %s --check-prefix=SAME
// RUN: %offload-cxx -fopenmp -DPICK_BY_OPENMP %s -o %t-omp && %t-omp | FileCheck %s --check-prefix=SAME
// SAME: sum 3, set 7 8
// RUN: printf '*cpp:\n+ -DHOST_ONLY_MACRO\n\n' > %t.specs
// RUN: %offload-cxx -specs=%t.specs -DPICK_BY_SPECS %s -o %t-specs && %t-specs | FileCheck %s --check-prefix=SAME
// RUN: %offload-cxx -Xhost -DHOST_ONLY_MACRO -DPICK_BY_SPECS %s -o %t-pick && not %t-pick 2>&1 | FileCheck %s --check-prefix=PICK
// PICK: error: kernel 'set' launched at {{.*}}layout_options.cpp:[[#]]: parameter 'p' is 16 bytes in the host's compile but 32 bytes in the kernel's
// PICK-NEXT: untouched 0 0
// PICK-NEXT: error: kernel 'sum' launched at {{.*}}layout_options.cpp:[[#]]: parameter 'p' is 16 bytes
// RUN: not %offload-cxx -fpack-struct=4 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=PACK
// PACK: offload-cxx: error: {{.*}}layout_options.cpp: -fpack-struct=4 changes the layout of every struct
// PACK-NOT: error
// RUN: not %offload-cxx -malign-double %s -o %t-ad 2>&1 | FileCheck %s --check-prefix=DOUBLE
// DOUBLE: offload-cxx: error: {{.*}}layout_options.cpp: -malign-double changes the layout
// RUN: %offload-cxx -fpack-struct -fno-pack-struct -pthread %s -o %t-unpacked && %t-unpacked | FileCheck %s --check-prefix=SAME
#include <offload/offload.hpp>

#include <cstdio>

#if defined(PICK_BY_SPECS) ? defined(HOST_ONLY_MACRO) \
                           : defined(PICK_BY_OPENMP) ? _OPENMP == 201511 : defined(_REENTRANT)
struct pair_t { double a, b; };
#else
struct pair_t { double a, b, c, d; };
#endif

OFFLOAD_KERNEL void sum(pair_t p, double *out) { *out = p.a + p.b; }
OFFLOAD_KERNEL void set(pair_t *p) { p->a = 7; p->b = 8; }

int main() {
  double out = 0;
  pair_t q{};
  int failed = 0;
  try {
    offload::launch(set, {}, &q);
  } catch (const offload::error &e) {
    std::printf("%s\nuntouched %g %g\n", e.what(), q.a, q.b);
    ++failed;
  }
  try {
    offload::launch(sum, {}, pair_t{1, 2}, &out);
  } catch (const offload::error &e) {
    std::printf("%s\n", e.what());
    ++failed;
  }
  if (failed)
    return 1;
  std::printf("sum %g, set %g %g\n", out, q.a, q.b);
}
