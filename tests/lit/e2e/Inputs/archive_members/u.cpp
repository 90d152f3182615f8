#include <offload/offload.hpp>
int missing(int);
OFFLOAD_KERNEL void unused_k(int *o) { *o = missing(3); }
void run_unused(int &x) { offload::launch(unused_k, {}, &x); }
