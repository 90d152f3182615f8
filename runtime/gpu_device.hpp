// runtime/gpu_device.hpp — GPUs, through libomptarget 22. A GPU exists for offload-cxx only
// when libomptarget created a device for it, which it does only for a device that one of the
// program's registered images can run on (the program registers no host-plugin image). So the
// runtime never calls libomptarget for a device that holds no image: libomptarget 22 aborts
// when asked to launch on such a device.
#pragma once

#include "omptarget_abi.hpp"
#include "registry.hpp"

#include <offload/detail/data_api.hpp>
#include <offload/detail/runtime_api.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace offload::rt {

/// The GPUs libomptarget created devices for (0 when none, or when OMP_TARGET_OFFLOAD=disabled).
int gpu_device_count();

/// libomptarget's device number of offload-cxx's GPU `gpu`.
int omp_device_number(int gpu);

/// The plugin's unique id of GPU `gpu` ("CUDA-GPU-…"), as the offload API (liboffload) reports it.
std::string gpu_uid(int gpu);

/// libomptarget's map-type bits for a kernel argument (TARGET_PARAM included).
std::int64_t map_bits(detail::transfer how);

/// Arguments in libomptarget's arrays, with their names (";name;file;line;col;;").
struct packed_args {
  std::vector<void *> pointers;
  std::vector<std::int64_t> sizes, types;
  std::vector<void *> name_ptrs;  ///< interned: they outlive the mappings that keep them
};

/// Packs `descs`; `bits` gives each mapped slot's map type; literal slots are kept (as
/// LITERAL|TARGET_PARAM) only when keep_literals.
packed_args pack_args(const detail::arg_desc *descs, std::uint32_t n,
                      const std::vector<std::string> &slot_names, const detail::source_loc &where,
                      const std::function<std::int64_t(detail::transfer)> &bits,
                      bool keep_literals, bool with_names = true);

/// Prepends to `p` one entry (not a kernel argument) for each run of overlapping mapped entries,
/// so that libomptarget maps their union once (pack_args calls it).
void map_overlaps_once(packed_args &p, const detail::source_loc &where, bool with_names);

/// The ident_t libomptarget prints locations from: ";file;function;line;column;;".
class omp_location {
public:
  omp_location(const detail::source_loc &where, const std::string &function);
  omptarget::ident_t *ident() { return &ident_; }

private:
  std::string psource_;
  omptarget::ident_t ident_;
};

/// Maps, copies or releases host objects on a GPU (detail::region_data); `names`, when given,
/// names each slot in OFFLOAD_INFO's map lines (a kernel's parameter names).
void map_data(detail::device_handle device, detail::data_op op, const detail::arg_desc *maps,
              std::uint32_t n, detail::source_loc where, const std::vector<std::string> *names);

/// e.g. "CUDA device 0".
const std::string &gpu_device_name(int device);

/// The workgroup size with the highest occupancy for `kernel` on GPU `device` with this much
/// dynamic shared memory (the driver's calculator), or 0 when it cannot say.
std::uint32_t gpu_occupancy_workgroup_size(int device, const kernel_info &kernel,
                                           std::uint32_t dynamic_shared_bytes);

/// Launches on GPU `device` and waits; libomptarget maps the arguments (copies in, runs, copies
/// back). Throws offload::error on failure.
void gpu_device_run(int device, const detail::launch_request &request,
                    const kernel_info &kernel);

} // namespace offload::rt
