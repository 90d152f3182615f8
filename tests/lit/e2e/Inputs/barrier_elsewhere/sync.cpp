// No kernel here: a plain function that meets the workgroup, for main.cpp's kernel.
#include <offload/offload.hpp>
void sync_all() { offload::barrier(); }
