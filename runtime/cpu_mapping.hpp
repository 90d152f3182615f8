// runtime/cpu_mapping.hpp — the CPU device maps a launch's host objects as a GPU does: into
// memory of its own. A GPU kernel works on device copies of the objects its pointer, reference
// and span arguments name, and only what a direction copies back (tofrom, from) reaches the host,
// after the kernel has finished. Handing the CPU kernel the host objects themselves (they are in
// the same memory) made results depend on where a program ran: a write through offload::to or
// offload::alloc landed in the host object, and a kernel that failed half-way left host data
// half-written. So on the CPU device too each mapped object gets a copy, the kernel's slots point
// at the copies, and copy_back() — called only after the whole grid succeeded — copies back what
// the directions say. Objects that overlap (`k(&x, &x)`, two spans of one array) share one copy,
// as libomptarget maps an address once. Values and device pointers cost nothing.
#pragma once

#include <offload/detail/data_api.hpp>
#include <offload/detail/runtime_api.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace offload::rt {

class cpu_mapping {
public:
  /// Makes the copies (copying in for to, tofrom and from) and the slots. `context` says which
  /// launch, for the error when a copy cannot be allocated: "kernel 'k' launched at f.cpp:3".
  cpu_mapping(const detail::launch_request &request, std::string (*context)(const void *),
              const void *context_arg);
  ~cpu_mapping();
  cpu_mapping(const cpu_mapping &) = delete;
  cpu_mapping &operator=(const cpu_mapping &) = delete;

  /// The kernel's slots (one per launch slot, then a 0).
  const abi::slot_t *slots() const { return slots_.data(); }
  /// Copies the from/tofrom objects back to the host; call once the kernel has succeeded.
  void copy_back() const;

private:
  struct copied_object {  // one mapped slot whose direction copies back
    void *host;
    const void *copy;
    std::uint64_t bytes;
  };
  std::vector<abi::slot_t> slots_;
  std::vector<void *> allocations_;
  std::vector<copied_object> back_;
};

/// Data regions on the CPU device, as libomptarget keeps them on a GPU: region begin makes a copy
/// of each mapped object (copied in for to/tofrom) and counts it; a launch whose object lies in
/// a region's copy uses that copy and copies nothing (so host writes after the region opened do
/// not reach kernels, and kernels' writes reach the host only at the region's end, by its
/// directions); update_to/update_from copy a present object's bytes; region end copies back
/// (from/tofrom) when the last reference goes. A region over part of an object already present,
/// or extending one, is refused, as libomptarget refuses it.
void cpu_region_data(detail::data_op op, const detail::arg_desc *maps, std::uint32_t n,
                     const std::string &where);

} // namespace offload::rt
