#include <offload/offload.hpp>
OFFLOAD_KERNEL void kb(int *x) { *x += 10; }
void run_b(int &x) { offload::launch(kb, {}, &x); }
