#include <offload/offload.hpp>
int uval();
OFFLOAD_KERNEL void k(float (*x)[4]) { auto i = offload::thread_id_x(); if (i < 4) (*x)[i] *= 2; }
int main() { float x[4] = {1,2,3,4}; offload::launch(k, {.threads = {4}}, &x); return uval() - 1; }
