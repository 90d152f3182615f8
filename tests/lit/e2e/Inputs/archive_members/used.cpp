#include <offload/offload.hpp>
OFFLOAD_KERNEL void used_k(int *o) { *o = 5; }
void run_used(int &x) { offload::launch(used_k, {}, &x); }
