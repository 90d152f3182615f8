// runtime/vendor/cuda_driver.hpp — the NVIDIA driver library (libcuda), opened with dlopen and
// resolved once into one typed table, as LLVM's offload plugins do (dynamic_cuda): no link
// dependency, and nothing happens on a machine without the driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace offload::rt::vendor {

using cu_device_ptr = unsigned long long;  // CUdeviceptr

struct cuda_driver {
  int (*init)(unsigned);
  int (*device_get_count)(int *);
  int (*device_get)(int *, int);
  int (*device_get_attribute)(int *, int, int);
  int (*device_get_uuid)(unsigned char *, int);  // cuDeviceGetUuid: 16 bytes
  int (*primary_ctx_retain)(void **, int);
  int (*primary_ctx_set_flags)(int, unsigned);
  int (*primary_ctx_get_state)(int, unsigned *, int *);
  int (*ctx_get_current)(void **);
  int (*ctx_set_current)(void *);
  int (*stream_create)(void **, unsigned);
  int (*stream_destroy)(void *);
  int (*stream_synchronize)(void *);
  int (*module_load_data)(void **, const void *);
  int (*module_get_function)(void **, void *, const char *);
  int (*func_set_attribute)(void *, int, int);
  int (*launch_kernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       unsigned, void *, void **, void **);
  int (*mem_alloc)(cu_device_ptr *, std::size_t);
  int (*mem_free)(cu_device_ptr);
  int (*memcpy_htod)(cu_device_ptr, const void *, std::size_t);
  int (*memcpy_dtoh)(void *, cu_device_ptr, std::size_t);
  int (*memcpy_dtoh_async)(void *, cu_device_ptr, std::size_t, void *);
  int (*memcpy_dtod)(cu_device_ptr, cu_device_ptr, std::size_t);
  int (*memcpy_dtod_async)(cu_device_ptr, cu_device_ptr, std::size_t, void *);
  /// cuMemsetD8/D16/D32 and their Async forms (null when the driver lacks one: fills are then
  /// copies of a staged pattern).
  int (*memset_d8)(cu_device_ptr, unsigned char, std::size_t);
  int (*memset_d16)(cu_device_ptr, unsigned short, std::size_t);
  int (*memset_d32)(cu_device_ptr, unsigned, std::size_t);
  int (*memset_d8_async)(cu_device_ptr, unsigned char, std::size_t, void *);
  int (*memset_d16_async)(cu_device_ptr, unsigned short, std::size_t, void *);
  int (*memset_d32_async)(cu_device_ptr, unsigned, std::size_t, void *);
  int (*get_error_string)(int, const char **);
  /// cuOccupancyMaxPotentialBlockSize (null when the driver lacks it).
  int (*occupancy_max_potential_block_size)(int *, int *, void *, std::size_t (*)(int),
                                            std::size_t, int);
  /// cuEvent*: profiling's device times (event_create null when the driver lacks one of them).
  int (*event_create)(void **, unsigned);
  int (*event_record)(void *, void *);
  int (*event_query)(void *);  // 0: done; 600 (CUDA_ERROR_NOT_READY): not yet
  int (*stream_wait_event)(void *, void *, unsigned);  // null: not loaded
  int (*event_synchronize)(void *);
  int (*event_elapsed_time)(float *, void *, void *);  // milliseconds
  int (*event_destroy)(void *);

  /// The driver, initialised; null without one (or when cuInit fails).
  static const cuda_driver *get();
  /// The driver's words for a result code.
  std::string reason(int result) const;
  /// Throws device_failure with the driver's words when `result` is not success.
  void check(int result) const;
  /// "sm_90" for a device ordinal, from its compute capability (empty when the driver cannot say).
  std::string arch(int ordinal) const;
  /// The device's UUID as 32 lowercase hex digits (empty when the driver cannot say).
  std::string uuid(int ordinal) const;
};

/// Sets every inactive CUDA primary context's scheduling to CUDA's default (or
/// OFFLOAD_CUDA_SCHEDULE's) before anything else uses them, and with `retain` activates them
/// (for liboffload's CUDA plugin). Does nothing without a driver.
void prepare_cuda_primary_contexts(bool retain);

} // namespace offload::rt::vendor
