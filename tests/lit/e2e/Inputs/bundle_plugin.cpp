#include <offload/offload.hpp>
#include <dlfcn.h>
#include <cstdio>
OFFLOAD_KERNEL void k(int (*x)[1]) { (*x)[0] = 7; }
int main() {
  int a[1] = {};
  offload::launch(k, {.threads = {1}}, &a);
  void *h = dlopen("libplug.so", RTLD_NOW);
  if (!h) { std::printf("no plugin: %s\n", dlerror()); return 1; }
  auto f = reinterpret_cast<int (*)()>(dlsym(h, "plugin_value"));
  std::printf("kernel %d plugin %d\n", a[0], f());
}
