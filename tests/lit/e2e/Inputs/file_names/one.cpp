#include <offload/offload.hpp>
OFFLOAD_KERNEL void one(int *p) { *p = 1; }
int run_one() { int v = 0; offload::launch(one, {}, &v); return v; }
