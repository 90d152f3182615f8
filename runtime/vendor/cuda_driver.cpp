// runtime/vendor/cuda_driver.cpp — see cuda_driver.hpp.
//
// Scheduling: the CUDA primary contexts are activated with CUDA's own default scheduling
// (CU_CTX_SCHED_AUTO: spin while the GPU is busy when there are more cores than contexts).
// Measured on the H200 when libomptarget created them with CU_CTX_SCHED_BLOCKING_SYNC: an empty
// launch + wait cost 24 µs instead of 10 µs and BabelStream's copy ran at 0.90 of CUDA instead of
// 1.0 (bench/NOTES.md). OFFLOAD_CUDA_SCHEDULE=auto|spin|yield|blocking chooses another policy.
#include "cuda_driver.hpp"

#include "../errors.hpp"
#include "../settings.hpp"
#include "../system_dlopen.hpp"

#include <dlfcn.h>

#include <type_traits>

namespace offload::rt::vendor {
namespace {
// The node's driver, by the node's search (system_dlopen.hpp: a bundled program's DT_RPATH
// names folders of the build machine).
void *open_libcuda() {
  void *h = offload_cxx_dlopen_system("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  return h ? h : offload_cxx_dlopen_system("libcuda.so", RTLD_NOW | RTLD_LOCAL);
}
} // namespace

const cuda_driver *cuda_driver::get() {
  static const cuda_driver *const driver = []() -> const cuda_driver * {
    void *cuda = open_libcuda();
    if (!cuda)
      return nullptr;
    static cuda_driver d{};
    auto load = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(cuda, name));
      return fn != nullptr;
    };
    const bool ok =
        load(d.init, "cuInit") && load(d.device_get_count, "cuDeviceGetCount") &&
        load(d.device_get, "cuDeviceGet") && load(d.device_get_attribute, "cuDeviceGetAttribute") &&
        load(d.device_get_uuid, "cuDeviceGetUuid") &&
        load(d.primary_ctx_retain, "cuDevicePrimaryCtxRetain") &&
        load(d.primary_ctx_set_flags, "cuDevicePrimaryCtxSetFlags_v2") &&
        load(d.primary_ctx_get_state, "cuDevicePrimaryCtxGetState") &&
        load(d.ctx_get_current, "cuCtxGetCurrent") && load(d.ctx_set_current, "cuCtxSetCurrent") &&
        load(d.stream_create, "cuStreamCreate") && load(d.stream_destroy, "cuStreamDestroy_v2") &&
        load(d.stream_synchronize, "cuStreamSynchronize") &&
        load(d.module_load_data, "cuModuleLoadData") &&
        load(d.module_get_function, "cuModuleGetFunction") &&
        load(d.func_set_attribute, "cuFuncSetAttribute") &&
        load(d.launch_kernel, "cuLaunchKernel") && load(d.mem_alloc, "cuMemAlloc_v2") &&
        load(d.mem_free, "cuMemFree_v2") && load(d.memcpy_htod, "cuMemcpyHtoD_v2") &&
        load(d.memcpy_dtoh, "cuMemcpyDtoH_v2") &&
        load(d.memcpy_dtoh_async, "cuMemcpyDtoHAsync_v2") && load(d.memcpy_dtod, "cuMemcpyDtoD_v2") &&
        load(d.memcpy_dtod_async, "cuMemcpyDtoDAsync_v2") &&
        load(d.get_error_string, "cuGetErrorString");
    load(d.occupancy_max_potential_block_size, "cuOccupancyMaxPotentialBlockSize");
    // Profiling's device times (profile.hpp); without them launches are timed on the host.
    if (!(load(d.event_create, "cuEventCreate") && load(d.event_record, "cuEventRecord") &&
          load(d.event_query, "cuEventQuery") &&
          load(d.event_synchronize, "cuEventSynchronize") &&
          load(d.event_destroy, "cuEventDestroy_v2") &&
          (load(d.event_elapsed_time, "cuEventElapsedTime_v2") ||
           load(d.event_elapsed_time, "cuEventElapsedTime"))))
      d.event_create = nullptr;
    if (!(load(d.memset_d8, "cuMemsetD8_v2") && load(d.memset_d16, "cuMemsetD16_v2") &&
          load(d.memset_d32, "cuMemsetD32_v2") && load(d.memset_d8_async, "cuMemsetD8Async") &&
          load(d.memset_d16_async, "cuMemsetD16Async") &&
          load(d.memset_d32_async, "cuMemsetD32Async")))
      d.memset_d8 = nullptr;
    if (!d.event_create || !load(d.stream_wait_event, "cuStreamWaitEvent"))
      d.stream_wait_event = nullptr;
    if (!ok || d.init(0) != 0)
      return nullptr;
    return &d;
  }();
  return driver;
}

std::string cuda_driver::reason(int result) const {
  const char *text = nullptr;
  if (get_error_string && get_error_string(result, &text) == 0 && text)
    return text;
  return "CUDA error " + std::to_string(result);
}

void cuda_driver::check(int result) const {
  if (result != 0)
    device_fails(reason(result));
}

std::string cuda_driver::arch(int ordinal) const {
  constexpr int compute_capability_major = 75, compute_capability_minor = 76;
  int device = 0, major = 0, minor = 0;
  if (device_get(&device, ordinal) != 0 ||
      device_get_attribute(&major, compute_capability_major, device) != 0 ||
      device_get_attribute(&minor, compute_capability_minor, device) != 0)
    return {};
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

std::string cuda_driver::uuid(int ordinal) const {
  int device = 0;
  unsigned char bytes[16];
  if (device_get(&device, ordinal) != 0 || device_get_uuid(bytes, device) != 0)
    return {};
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (unsigned char b : bytes) {
    text += digits[b >> 4];
    text += digits[b & 15];
  }
  return text;
}

void prepare_cuda_primary_contexts(bool retain) {
  static const bool done = [retain] {
    using schedule = settings::cuda_schedule;
    const schedule s = current_settings().schedule;
    const cuda_driver *d = cuda_driver::get();
    if (!d)
      return true;
    const unsigned flags = s == schedule::spin       ? 1u  // CU_CTX_SCHED_SPIN
                           : s == schedule::yield    ? 2u  // CU_CTX_SCHED_YIELD
                           : s == schedule::blocking ? 4u  // CU_CTX_SCHED_BLOCKING_SYNC
                                                     : 0u; // CU_CTX_SCHED_AUTO
    int devices = 0;
    if (d->device_get_count(&devices) != 0)
      return true;
    for (int i = 0; i < devices; ++i) {
      int device = 0, active = 0;
      unsigned current = 0;
      void *context = nullptr;
      if (d->device_get(&device, i) != 0 || d->primary_ctx_get_state(device, &current, &active) != 0 ||
          active)
        continue;  // someone else chose already
      // Retained here, for the life of the process, only for liboffload (its CUDA plugin would
      // otherwise make the contexts with its own scheduling); the CUDA driver's devices retain
      // theirs at their first use (cuda_device.cpp).
      if (d->primary_ctx_set_flags(device, flags) == 0 && retain)
        d->primary_ctx_retain(&context, device);
    }
    return true;
  }();
  (void)done;
}

} // namespace offload::rt::vendor
