// Barriers reached through code the kernel's body does not spell as a call: a constructor, a
// destructor (a local's, a temporary's, a member's), a default argument and a default member
// initialiser. The host-metadata pass must see them (compiler/KernelDecl.cpp BarrierFinder),
// or the CPU device runs the kernel as a plain loop and the barrier has nothing to wait for.
// RUN: %offload-cxx -O2 -v %s -o %t 2>&1 | FileCheck %s --check-prefix=BUILD
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// BUILD-DAG: kernel 'in_constructor' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'in_destructor' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'in_temporary' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'in_member' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'in_default_argument' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'in_member_initialiser' on the CPU device: work-item loops split at its barriers
// CHECK: in_constructor: ok
// CHECK: in_destructor: ok
// CHECK: in_temporary: ok
// CHECK: in_member: ok
// CHECK: in_default_argument: ok
// CHECK: in_member_initialiser: ok
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

constexpr unsigned wg = 64;

// Each kernel: work-item t writes slot t, meets a barrier hidden as named, then reads its
// neighbour's slot (written by another work-item before the barrier).
struct Sync {
  Sync() { offload::barrier(); }
};
struct SyncAtEnd {
  ~SyncAtEnd() { offload::barrier(); }
};
struct Holder {
  SyncAtEnd member;
};
inline int synced(int v) {
  offload::barrier();
  return v;
}
inline int read_after(int v, int unused = synced(0)) { return v + unused; }
struct Initialised {
  int zero = synced(0);
};

template <class Meet>
inline void exchange(std::span<int> out, Meet meet) {
  auto &slot = offload::shared<int[wg]>([] {});
  const unsigned t = offload::thread_id_x();
  slot[t] = int(offload::global_id_x());
  const int extra = meet();
  out[offload::global_id_x()] = slot[(t + 1) % wg] + extra;
}

OFFLOAD_KERNEL void in_constructor(std::span<int> out) {
  exchange(out, [] { Sync s; return 0; });
}
OFFLOAD_KERNEL void in_destructor(std::span<int> out) {
  auto &slot = offload::shared<int[wg]>([] {});
  const unsigned t = offload::thread_id_x();
  {
    SyncAtEnd guard;
    slot[t] = int(offload::global_id_x());
  }
  out[offload::global_id_x()] = slot[(t + 1) % wg];
}
OFFLOAD_KERNEL void in_temporary(std::span<int> out) {
  exchange(out, [] { return (SyncAtEnd(), 0); });
}
OFFLOAD_KERNEL void in_member(std::span<int> out) {
  exchange(out, [] { Holder h; (void)h; return 0; });
}
OFFLOAD_KERNEL void in_default_argument(std::span<int> out) {
  exchange(out, [] { return read_after(0); });
}
OFFLOAD_KERNEL void in_member_initialiser(std::span<int> out) {
  exchange(out, [] { Initialised i; return i.zero; });
}

template <class K>
void check(const char *name, K kernel) {
  const unsigned groups = 5;
  std::vector<int> out(groups * wg, -1);
  offload::launch(kernel, {.workgroups = {groups}, .threads = {wg}}, std::span<int>(out));
  for (unsigned g = 0; g < groups; ++g)
    for (unsigned t = 0; t < wg; ++t)
      if (out[g * wg + t] != int(g * wg + (t + 1) % wg)) {
        std::printf("%s: wrong at %u: %d\n", name, g * wg + t, out[g * wg + t]);
        return;
      }
  std::printf("%s: ok\n", name);
}

int main() {
  check("in_constructor", in_constructor);
  check("in_destructor", in_destructor);
  check("in_temporary", in_temporary);
  check("in_member", in_member);
  check("in_default_argument", in_default_argument);
  check("in_member_initialiser", in_member_initialiser);
}
