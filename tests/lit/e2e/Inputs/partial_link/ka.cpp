#include <offload/offload.hpp>
OFFLOAD_KERNEL void ka(int *x) { *x += 1; }
void run_a(int &x) { offload::launch(ka, {}, &x); }
