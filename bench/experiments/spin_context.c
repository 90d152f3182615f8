// bench/experiments/spin_context.c — an LD_PRELOAD experiment, not part of offload-cxx: before any
// constructor of the program runs, activate the CUDA primary context of device 0 with
// CU_CTX_SCHED_SPIN, so that libomptarget finds it active and keeps the flags ("The primary
// context is active, no change to its flags") instead of choosing CU_CTX_SCHED_BLOCKING_SYNC.
// Measures how much of the launch+wait overhead is the sleeping wait (bench/NOTES.md).
//   gcc -O2 -shared -fPIC spin_context.c -o spin_context.so -ldl
#include <dlfcn.h>
#include <stdio.h>

__attribute__((constructor(0))) static void activate_spinning_primary_context(void) {
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!cuda) return;
  int (*init)(unsigned) = (int (*)(unsigned))dlsym(cuda, "cuInit");
  int (*get)(int *, int) = (int (*)(int *, int))dlsym(cuda, "cuDeviceGet");
  int (*set_flags)(int, unsigned) = (int (*)(int, unsigned))dlsym(cuda, "cuDevicePrimaryCtxSetFlags_v2");
  int (*retain)(void **, int) = (int (*)(void **, int))dlsym(cuda, "cuDevicePrimaryCtxRetain");
  int device = 0;
  void *context = 0;
  if (!init || !get || !set_flags || !retain || init(0) || get(&device, 0)) return;
  int rc_flags = set_flags(device, 1 /* CU_CTX_SCHED_SPIN */);
  int rc_retain = retain(&context, device);
  fprintf(stderr, "spin_context: flags %d, retain %d\n", rc_flags, rc_retain);
}
