// offload/detail/cpu_entry.hpp — used only by the CPU image that offload-cxx's device pass
// generates for the CPU device (arch "host"): one entry per kernel that runs a whole workgroup:
// the arguments decoded once, then the work-item function calling the kernel by name, which the
// device link turns into loops over the work-items (compiler/CpuWorkItemLoops.h), so that the
// compiler inlines the kernel and can vectorise across work-items (what the per-work-item
// indirect call of the generic path prevents). The runtime sets the workgroup's block index and
// dimensions before the call.
//
//   extern "C" void __offload_cpu_entry<mangled>(const offload::abi::slot_t *slots)
//   { offload::detail::run_workgroup_as_loops<&kernel>(slots); }
//
// Slots are the launch's, as on a GPU (offload/abi.hpp), with host addresses: on the CPU device
// host memory is device memory.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/detail/device_entry.hpp>
#include <offload/device.hpp>

#include <cstddef>
#include <tuple>
#include <utility>

namespace offload::detail {

/// The type of a generated CPU entry (the program record holds one per kernel).
using cpu_workgroup_fn = void (*)(const abi::slot_t *slots);

/// One work-item of a kernel. The device pass turns it into loops over the workgroup's
/// work-items, split at the barriers of a kernel that reaches any (compiler/CpuWorkItemLoops.cpp,
/// which finds it by name and reads `current_cpu_item` at the offsets asserted below), or, where
/// it cannot, makes the entry run the workgroup as fibers.
///
/// The kernel is inlined into it whatever its size, as into the GPU entries: its loops are the
/// kernel's own code, which the compiler can vectorise over the work-items; a call per work-item
/// could not be (a kernel above the inliner's threshold ran 5x slower, and called the program's
/// own copy of the kernel).
template <auto Kernel, class... P_> [[gnu::noinline]] void cpu_work_items(P_... args) {
#if defined(__clang__)
  [[clang::always_inline]] Kernel(static_cast<P_>(args)...);
#else
  Kernel(static_cast<P_>(args)...);
#endif
}
static_assert(offsetof(cpu_item, thread) == 0 && offsetof(cpu_item, block_dim) == 24 &&
                  offsetof(cpu_item, grid_dim) == 36 &&
                  sizeof(dim3) == 12 && sizeof(cpu_item) == 48,
              "compiler/cpu/WorkItemLoopsImpl.h reads offload::detail::cpu_item at these offsets");

/// A kernel's entry: the arguments decoded once, then the work-item function (which the device
/// pass makes loops over the workgroup's work-items).
template <auto Kernel> void run_workgroup_as_loops(const abi::slot_t *slots) {
  using sig = kernel_signature<decltype(Kernel)>;
  [&]<unsigned... I_>(std::integer_sequence<unsigned, I_...>) {
    std::tuple<typename sig::template param<I_>...> args(
        abi::from_slots<typename sig::template param<I_>>(slots + sig::template first_slot<I_>())...);
    cpu_work_items<Kernel, typename sig::template param<I_>...>(
        static_cast<typename sig::template param<I_>>(std::get<I_>(args))...);
  }(std::make_integer_sequence<unsigned, sig::arity>{});
}

} // namespace offload::detail

#pragma pack(pop)
