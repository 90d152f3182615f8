// A generic kernel used with double and float: two manifest entries, two PTX .entry symbols,
// two AMDGPU kernel symbols and two registration entries; the three passes run one by one and
// the program they make runs.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %offload-cxx --pass=host-metadata %s -o %t/k.manifest
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/k.manifest
// RUN: %offload-cxx --pass=device --manifest=%t/k.manifest --offload-arch=sm_90,gfx90a,host --save-temps -o %t/dev.bin
// RUN: FileCheck %s --check-prefix=DEVSRC < %t/dev.device.cpp
// RUN: FileCheck %s --check-prefix=PTX < %t/dev.sm_90.ptx
// RUN: llvm-readelf --dyn-syms %t/dev.gfx90a.hsaco | FileCheck %s --check-prefix=AMD
// RUN: llvm-readelf -h %t/dev.gfx90a.hsaco | FileCheck %s --check-prefix=AMDHDR
// RUN: llvm-offload-binary %t/dev.bin --image=file=%t/out.sm_90.cubin,arch=sm_90 --image=file=%t/out.gfx90a.o,arch=gfx90a
// RUN: cmp %t/out.sm_90.cubin %t/dev.sm_90.cubin
// RUN: %offload-cxx --pass=host --device-image=%t/dev.bin --save-temps %s -o %t/prog
// RUN: llvm-readelf -r %t/prog.registration.o | FileCheck %s --check-prefix=ENTRIES
// RUN: llvm-readelf --string-dump=.rodata.str1.1 %t/prog.registration.o | FileCheck %s --check-prefix=NAMES
// RUN: llvm-readelf -r %t/prog.registration.o | FileCheck %s --check-prefix=CTORS
// RUN: env OFFLOAD_INFO=-1 %t/prog 2>&1 | FileCheck %s --check-prefix=EXEC

#include <offload/offload.hpp>

#include <cstdio>

template <class T>
OFFLOAD_KERNEL void scale(T (*x)[64], T factor) {
  auto i = offload::global_id_x();
  if (i < 64) (*x)[i] *= factor;
}

int main() {
  double d[64];
  float f[64];
  for (int i = 0; i < 64; ++i) d[i] = f[i] = float(i);
  offload::launch(scale<double>, {.workgroups = {2}, .threads = {32}}, &d, 2.0);
  offload::launch(scale<float>, {.workgroups = {4}, .threads = {16}}, &f, 0.5f);
  for (int i = 0; i < 64; ++i)
    if (d[i] != 2.0 * i || f[i] != 0.5f * float(i)) return 1;
  std::puts("scaled");
}

// MANIFEST:      "callee": "static_cast<void (*)(double (*)[64], double)>(&::scale<double>)",
// MANIFEST:      "entry": "__offload_entry_Z5scaleIdEvPA64_T_S0_",
// MANIFEST:      "host_symbol": "_Z5scaleIdEvPA64_T_S0_",
// MANIFEST:      "name": "scale<double>",
// MANIFEST:          "kind": "tofrom",
// MANIFEST-NEXT:     "name": "x",
// MANIFEST-NEXT:     "type": "double (*)[64]"
// MANIFEST:          "kind": "literal",
// MANIFEST-NEXT:     "name": "factor",
// MANIFEST-NEXT:     "type": "double"
// MANIFEST:      "entry": "__offload_entry_Z5scaleIfEvPA64_T_S0_",
// MANIFEST:      "name": "scale<float>",
// MANIFEST-NOT:  "host_symbol":

// DEVSRC: #pragma omp begin declare target
// DEVSRC: void __offload_entry_Z5scaleIdEvPA64_T_S0_(void *dyn_ptr, offload::abi::slot_t s0, offload::abi::slot_t s1)
// DEVSRC: static_assert(offload::detail::param_kind_is<kernel_t, 0>("tofrom")
// DEVSRC: offload::detail::call_from_slots<static_cast<void (*)(double (*)[64], double)>(&::scale<double>)>(s0, s1);
// DEVSRC: void __offload_entry_Z5scaleIfEvPA64_T_S0_(

// PTX: .target sm_90
// PTX-DAG: .visible .entry __offload_entry_Z5scaleIdEvPA64_T_S0_(
// PTX-DAG: .visible .entry __offload_entry_Z5scaleIfEvPA64_T_S0_(
// PTX-NOT: .entry

// AMD-DAG: FUNC GLOBAL PROTECTED {{.*}} __offload_entry_Z5scaleIdEvPA64_T_S0_{{$}}
// AMD-DAG: FUNC GLOBAL PROTECTED {{.*}} __offload_entry_Z5scaleIfEvPA64_T_S0_{{$}}
// AMD-DAG: OBJECT GLOBAL PROTECTED {{.*}} __offload_entry_Z5scaleIdEvPA64_T_S0_.kd
// AMD-DAG: OBJECT GLOBAL PROTECTED {{.*}} __offload_entry_Z5scaleIfEvPA64_T_S0_.kd
// AMDHDR: Machine: EM_AMDGPU
// AMDHDR: Flags: {{.*}}gfx90a

// ENTRIES: Relocation section '.rela.data.rel.ro'
// ENTRIES-DAG: _Z5scaleIdEvPA64_T_S0_
// ENTRIES-DAG: _Z5scaleIfEvPA64_T_S0_
// The program record's constructor is the program's only registration: the runtime loads the
// images itself (no libomptarget registration, no second load).
// CTORS: Relocation section '.rela.init_array.101' at offset {{.*}} contains 1 entries:
// CTORS-NEXT: Offset
// CTORS-NEXT: 0000000000000000 {{.*}} .text + 0

// NAMES-DAG: __offload_entry_Z5scaleIdEvPA64_T_S0_
// NAMES-DAG: __offload_entry_Z5scaleIfEvPA64_T_S0_

// EXEC: launching kernel scale<double> at generic-two-types.cpp:35 on {{.*}} with 2x1x1 workgroups of 32x1x1 threads
// EXEC: launching kernel scale<float> at generic-two-types.cpp:36 on {{.*}} with 4x1x1 workgroups of 16x1x1 threads
// EXEC: scaled
