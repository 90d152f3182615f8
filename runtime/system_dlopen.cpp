// runtime/system_dlopen.cpp — liboffload-cxx-system-dl.so: opens a GPU driver library by the
// node's own search, never through a program's DT_RPATH.
//
// For dlopen, glibc searches the DT_RPATH of the object that calls it, of the objects that
// loaded that one, and of the executable — unless the calling object has a DT_RUNPATH, when it
// searches LD_LIBRARY_PATH, that DT_RUNPATH, ld.so.cache and the system folders only. A bundle's
// programs and libraries carry DT_RPATH (to come before LD_LIBRARY_PATH), and a program keeps
// its own entries in it (folders of the build machine: `-Wl,-rpath`, CMake's build tree), so a
// `libcuda.so.1` in such a folder would be loaded instead of the node's driver. This library is
// the calling object for the driver's dlopen: it has a DT_RUNPATH that names no folder
// (`/dev/null`: not even its own, where a bundle's user could put a library) and needs nothing but
// the C library, so bundles leave it as it is (compiler/BundleCommand.cpp). docs/design.md,
// "Bundles".
#include <dlfcn.h>

extern "C" __attribute__((visibility("default"))) void *offload_cxx_dlopen_system(const char *name,
                                                                                  int flags) {
  void *handle = dlopen(name, flags);
  // Not a tail call: dlopen must see this library as its caller (-fno-optimize-sibling-calls
  // too, in runtime/CMakeLists.txt).
  __asm__ volatile("" : : "r"(handle) : "memory");
  return handle;
}
