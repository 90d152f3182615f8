// runtime/system_dlopen.hpp — dlopen by the node's own search (liboffload-cxx-system-dl.so,
// system_dlopen.cpp): for the GPU drivers, never found through a program's DT_RPATH.
#pragma once

extern "C" void *offload_cxx_dlopen_system(const char *name, int flags);
