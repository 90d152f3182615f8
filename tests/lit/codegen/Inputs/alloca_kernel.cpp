// A barrier kernel with a stack array whose size is known only at run time (alloca): the
// work-item loops cannot keep it per work-item, so the kernel keeps the fibers.
#include <offload/offload.hpp>
#include <cstdio>
#include <span>
OFFLOAD_KERNEL void reverse_scratch(std::span<unsigned> v, unsigned n) {
  auto *scratch = static_cast<unsigned *>(__builtin_alloca(n * sizeof(unsigned)));
  const unsigned t = offload::thread_id_x();
  for (unsigned k = 0; k < n; ++k) scratch[k] = v[t] + k;
  offload::barrier();
  v[t] = scratch[n - 1];
}
int main() {
  unsigned v[64];
  for (unsigned i = 0; i < 64; ++i) v[i] = i;
  offload::launch(reverse_scratch, {.threads = {64}}, std::span(v), 3u);
  bool ok = true;
  for (unsigned i = 0; i < 64; ++i) ok &= v[i] == i + 2;
  std::printf("reverse_scratch: %s\n", ok ? "all checks passed" : "FAILED");
  return !ok;
}
