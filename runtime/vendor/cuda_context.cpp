// runtime/vendor/cuda_context.cpp — the runtime's one direct use of a vendor API, kept apart:
// before libomptarget initialises its CUDA plugin, activate each CUDA device's primary context
// with CUDA's own default scheduling (CU_CTX_SCHED_AUTO: spin while the GPU is busy when there are
// more cores than contexts). Left inactive, libomptarget sets CU_CTX_SCHED_BLOCKING_SYNC, the
// waiting host thread sleeps, and every synchronous launch pays the wake-up: measured on the H200,
// an empty launch + wait cost 24 µs instead of 10 µs and BabelStream's copy ran at 0.90 of CUDA
// instead of 1.0 (bench/NOTES.md). libomptarget keeps the flags of an active primary context.
//
// libcuda is opened with dlopen: no link dependency, nothing happens without a driver, and
// OFFLOAD_CUDA_SCHEDULE=auto|spin|yield|blocking chooses another policy ("blocking" leaves the
// context to libomptarget).
#include "cuda_context.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace offload::rt::vendor {
namespace {
using cu_init_fn = int (*)(unsigned);
using cu_device_get_count_fn = int (*)(int *);
using cu_device_get_fn = int (*)(int *, int);
using cu_primary_ctx_set_flags_fn = int (*)(int, unsigned);
using cu_primary_ctx_get_state_fn = int (*)(int, unsigned *, int *);
using cu_primary_ctx_retain_fn = int (*)(void **, int);

constexpr unsigned sched_auto = 0, sched_spin = 1, sched_yield = 2;

bool schedule_from_environment(unsigned &flags) {
  const char *env = std::getenv("OFFLOAD_CUDA_SCHEDULE");
  if (!env || !*env || std::strcmp(env, "auto") == 0)
    flags = sched_auto;
  else if (std::strcmp(env, "spin") == 0)
    flags = sched_spin;
  else if (std::strcmp(env, "yield") == 0)
    flags = sched_yield;
  else
    return false;  // "blocking" (or anything else): leave the choice to libomptarget
  return true;
}
} // namespace

void *libcuda() {
  static void *const handle = [] {
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return h ? h : dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
  }();
  return handle;
}

void prepare_cuda_primary_contexts() {
  static bool done = false;
  if (done)
    return;
  done = true;
  unsigned flags;
  if (!schedule_from_environment(flags))
    return;
  void *cuda = libcuda();
  if (!cuda)
    return;  // no NVIDIA driver: nothing to prepare
  auto init = reinterpret_cast<cu_init_fn>(dlsym(cuda, "cuInit"));
  auto count = reinterpret_cast<cu_device_get_count_fn>(dlsym(cuda, "cuDeviceGetCount"));
  auto get = reinterpret_cast<cu_device_get_fn>(dlsym(cuda, "cuDeviceGet"));
  auto set_flags =
      reinterpret_cast<cu_primary_ctx_set_flags_fn>(dlsym(cuda, "cuDevicePrimaryCtxSetFlags_v2"));
  auto state =
      reinterpret_cast<cu_primary_ctx_get_state_fn>(dlsym(cuda, "cuDevicePrimaryCtxGetState"));
  auto retain =
      reinterpret_cast<cu_primary_ctx_retain_fn>(dlsym(cuda, "cuDevicePrimaryCtxRetain"));
  int devices = 0;
  if (!init || !count || !get || !set_flags || !state || !retain || init(0) != 0 ||
      count(&devices) != 0)
    return;
  for (int i = 0; i < devices; ++i) {
    int device = 0, active = 0;
    unsigned current = 0;
    void *context = nullptr;
    if (get(&device, i) != 0 || state(device, &current, &active) != 0 || active)
      continue;  // someone else chose already
    // Retained for the life of the process, as libomptarget retains it too.
    if (set_flags(device, flags) == 0)
      retain(&context, device);
  }
}

std::string cuda_device_arch(int ordinal) {
  void *cuda = libcuda();
  if (!cuda)
    return {};
  using cu_device_get_attribute_fn = int (*)(int *, int, int);
  auto init = reinterpret_cast<cu_init_fn>(dlsym(cuda, "cuInit"));
  auto get = reinterpret_cast<cu_device_get_fn>(dlsym(cuda, "cuDeviceGet"));
  auto attribute =
      reinterpret_cast<cu_device_get_attribute_fn>(dlsym(cuda, "cuDeviceGetAttribute"));
  constexpr int compute_capability_major = 75, compute_capability_minor = 76;
  int device = 0, major = 0, minor = 0;
  if (!init || !get || !attribute || init(0) != 0 || get(&device, ordinal) != 0 ||
      attribute(&major, compute_capability_major, device) != 0 ||
      attribute(&minor, compute_capability_minor, device) != 0)
    return {};
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

} // namespace offload::rt::vendor
