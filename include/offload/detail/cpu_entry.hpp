// offload/detail/cpu_entry.hpp — used only by the CPU image that offload-cxx's device pass
// generates for the CPU device (arch "host"): one entry per kernel that runs a whole workgroup,
// the loop over its work-items calling the kernel by name, so that the compiler inlines it and
// can vectorise across work-items (what the per-work-item indirect call of the generic path
// prevents). The runtime sets the workgroup's block index and dimensions before the call.
//
//   extern "C" void __offload_cpu_entry<mangled>(const offload::abi::slot_t *slots)
//   { offload::detail::run_workgroup_on_cpu<&kernel>(slots); }
//
// Slots are the launch's, as on a GPU (offload/abi.hpp), with host addresses: on the CPU device
// host memory is device memory.
#pragma once

#include <offload/detail/device_entry.hpp>
#include <offload/device.hpp>

#include <cstddef>
#include <tuple>
#include <utility>

namespace offload::detail {

/// The type of a generated CPU entry (the program record holds one per kernel).
using cpu_workgroup_fn = void (*)(const abi::slot_t *slots);

template <auto Kernel> void run_workgroup_on_cpu(const abi::slot_t *slots) {
  using sig = kernel_signature<decltype(Kernel)>;
  [&]<unsigned... I>(std::integer_sequence<unsigned, I...>) {
    // Decoded once per workgroup; every work-item gets the same arguments, as on a GPU.
    std::tuple<typename sig::template param<I>...> args(
        abi::from_slots<typename sig::template param<I>>(slots + sig::template first_slot<I>())...);
    cpu_item &item = current_cpu_item;
    const dim3 block = item.block_dim;
    for (std::uint32_t z = 0; z < block.z; ++z)
      for (std::uint32_t y = 0; y < block.y; ++y)
        for (std::uint32_t x = 0; x < block.x; ++x) {
          item.thread = {x, y, z};
          Kernel(static_cast<typename sig::template param<I>>(std::get<I>(args))...);
        }
  }(std::make_integer_sequence<unsigned, sig::arity>{});
}

/// One work-item of a kernel that reaches barriers. The device pass turns it into loops over
/// the workgroup's work-items split at the barriers (compiler/CpuWorkItemLoops.cpp, which finds
/// it by name and reads `current_cpu_item` at the offsets asserted below), or, where it cannot,
/// makes the entry run the workgroup as fibers.
template <auto Kernel, class... P> [[gnu::noinline]] void cpu_work_items(P... args) {
  Kernel(static_cast<P>(args)...);
}
static_assert(offsetof(cpu_item, thread) == 0 && offsetof(cpu_item, block_dim) == 24 &&
                  sizeof(dim3) == 12 && sizeof(cpu_item) == 48,
              "compiler/CpuWorkItemLoops.cpp reads offload::detail::cpu_item at these offsets");

/// The entry of a kernel that reaches barriers: the arguments decoded once, then the
/// work-item function (which the device pass makes a loop over the workgroup's work-items).
template <auto Kernel> void run_workgroup_as_loops(const abi::slot_t *slots) {
  using sig = kernel_signature<decltype(Kernel)>;
  [&]<unsigned... I>(std::integer_sequence<unsigned, I...>) {
    std::tuple<typename sig::template param<I>...> args(
        abi::from_slots<typename sig::template param<I>>(slots + sig::template first_slot<I>())...);
    cpu_work_items<Kernel, typename sig::template param<I>...>(
        static_cast<typename sig::template param<I>>(std::get<I>(args))...);
  }(std::make_integer_sequence<unsigned, sig::arity>{});
}

} // namespace offload::detail
