// A launch whose span's host memory can be read but not written (a read-only mapping, in part or
// whole): the copy back is the launch's error, one line naming the kernel and the launch's
// file:line, and the host memory is as it was — not one byte written (adversarial pass: the
// program died of SIGSEGV in the runtime's copy back).
// RUN: %offload-cxx -O1 %s -o %t
// RUN: env OFFLOAD_DEVICE=cpu %t part | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t whole | FileCheck %s
// CHECK: caught: offload-cxx: error: kernel 'inc' launched at readonly_host_memory.cpp:[[@LINE+20]]: copying 8192 bytes back from CPU device{{.*}} failed: the host memory it goes to cannot be written (read-only)
// CHECK-NEXT: host memory unchanged: 2048 zeros
#include <offload/offload.hpp>

#include <cstdio>
#include <cstring>
#include <span>
#include <sys/mman.h>

OFFLOAD_KERNEL void inc(std::span<int> v) {
  if (offload::global_id_x() < v.size())
    v[offload::global_id_x()] += 1;
}

int main(int argc, char **argv) {
  void *m = mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  int *p = static_cast<int *>(m);
  const bool whole = argc > 1 && std::strcmp(argv[1], "whole") == 0;
  mprotect(whole ? m : static_cast<char *>(m) + 4096, whole ? 8192 : 4096, PROT_READ);
  try {
    offload::launch(inc, offload::range{2048}, std::span<int>(p, 2048));
    std::printf("no error\n");
  } catch (const offload::error &e) {
    std::printf("caught: %s\n", e.what());
  }
  int zeros = 0;
  for (int i = 0; i < 2048; ++i)
    zeros += p[i] == 0;
  std::printf("host memory unchanged: %d zeros\n", zeros);
}
