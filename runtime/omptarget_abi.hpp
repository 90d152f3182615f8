// runtime/omptarget_abi.hpp — everything that depends on the version of LLVM's offload runtime
// (libomptarget 22): the structures and map-type bits of its C interface, and the entry points
// the runtime calls. LLVM 23 changes most of this (dyn_ptr moves to the end, KernelArgs fields
// are renamed, OffloadBinary v3); porting offload-cxx means porting this file.
//
// Layouts: offload/include/Shared/APITypes.h and openmp's kmp.h (ident_t) in llvm-project 22.
#pragma once

#include <cstddef>
#include <cstdint>

namespace offload::rt::omptarget {

/// libomptarget's map-type bits (offload/include/OpenMP/omp.h: tgt_map_type).
enum map_type : std::int64_t {
  map_to = 0x001,
  map_from = 0x002,
  map_always = 0x004,
  map_delete = 0x008,
  map_ptr_and_obj = 0x010,
  map_target_param = 0x020,
  map_return_param = 0x040,
  map_private = 0x080,
  map_literal = 0x100,
  map_implicit = 0x200,
};

/// The OpenMP source-location record; psource is ";file;function;line;column;;".
struct ident_t {
  std::int32_t reserved_1;
  std::int32_t flags;
  std::int32_t reserved_2;
  std::int32_t reserved_3;
  const char *psource;
};

/// KernelArgsTy, version 3 (LLVM 20-22): 104 bytes. Version 3 makes libomptarget pass an
/// implicit first kernel argument (dyn_ptr), which every generated entry declares.
struct kernel_args_t {
  std::uint32_t version;
  std::uint32_t num_args;
  void **arg_base_ptrs;
  void **arg_ptrs;
  std::int64_t *arg_sizes;
  std::int64_t *arg_types;
  void **arg_names;
  void **arg_mappers;
  std::uint64_t tripcount;
  std::uint64_t flags;  // bit 0 NoWait, bit 1 IsCUDA
  std::uint32_t num_teams[3];
  std::uint32_t thread_limit[3];
  std::uint32_t dyn_cgroup_mem;
};
static_assert(sizeof(kernel_args_t) == 104, "KernelArgsTy of LLVM 22 is 104 bytes");
static_assert(offsetof(kernel_args_t, num_teams) == 72, "KernelArgsTy::NumTeams at 72");
static_assert(offsetof(kernel_args_t, dyn_cgroup_mem) == 96, "KernelArgsTy::DynCGroupMem at 96");

inline constexpr std::uint32_t kernel_args_version = 3;

/// The variable holding libomptarget's offload policy (disabled / mandatory / default).
inline constexpr const char *offload_policy_env = "OMP_TARGET_OFFLOAD";

} // namespace offload::rt::omptarget

extern "C" {
// From libomptarget.so.22 (offload/include/omptarget.h).
int __tgt_target_kernel(offload::rt::omptarget::ident_t *loc, std::int64_t device_id,
                        std::int32_t num_teams, std::int32_t thread_limit, void *host_ptr,
                        offload::rt::omptarget::kernel_args_t *args);
void __tgt_set_info_flag(std::uint32_t flags);
void __tgt_target_data_begin_mapper(offload::rt::omptarget::ident_t *loc, std::int64_t device_id,
                                    std::int32_t arg_num, void **args_base, void **args,
                                    std::int64_t *arg_sizes, std::int64_t *arg_types,
                                    void **arg_names, void **arg_mappers);
void __tgt_target_data_end_mapper(offload::rt::omptarget::ident_t *loc, std::int64_t device_id,
                                  std::int32_t arg_num, void **args_base, void **args,
                                  std::int64_t *arg_sizes, std::int64_t *arg_types,
                                  void **arg_names, void **arg_mappers);
void __tgt_target_data_update_mapper(offload::rt::omptarget::ident_t *loc, std::int64_t device_id,
                                     std::int32_t arg_num, void **args_base, void **args,
                                     std::int64_t *arg_sizes, std::int64_t *arg_types,
                                     void **arg_names, void **arg_mappers);
void *omp_target_alloc(std::size_t size, int device_num);
void omp_target_free(void *ptr, int device_num);
int omp_target_memcpy(void *dst, const void *src, std::size_t length, std::size_t dst_offset,
                      std::size_t src_offset, int dst_device, int src_device);
int omp_get_num_devices(void);
int omp_get_initial_device(void);
}
