// offload/detail/device_entry.hpp — used only by the device translation unit that offload-cxx
// generates: turns launch slots back into the kernel's arguments (offload/abi.hpp) and calls it.
//
// Each generated entry looks like
//   extern "C" OFFLOAD_IMPL_ENTRY void __offload_entry_<mangled>(void *dyn_ptr, slot_t s0, ...)
//   { offload::detail::call_from_slots<&kernel>(s0, ...); }
// The leading dyn_ptr is the implicit argument that libomptarget's KernelArgs version 3 passes
// before the user's arguments (see runtime/omptarget_abi.hpp).
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/abi.hpp>

#include <utility>

#if defined(__NVPTX__) || defined(__AMDGPU__)
#define OFFLOAD_IMPL_ENTRY [[clang::device_kernel]]
#define OFFLOAD_IMPL_GLOBAL __attribute__((address_space(1)))
#else
#define OFFLOAD_IMPL_ENTRY
#define OFFLOAD_IMPL_GLOBAL
#endif

namespace offload::detail {

template <class F_> struct kernel_signature;
template <class... P_> struct kernel_signature<void (*)(P_...)> {
  static constexpr unsigned arity = sizeof...(P_);
  template <unsigned I_> using param = __type_pack_element<I_, P_...>;
  /// Slots taken by all parameters, and the first slot of parameter I.
  static constexpr unsigned total_slots = (0u + ... + abi::slot_count_v<P_>);
  template <unsigned I_> static constexpr unsigned first_slot() {
    constexpr unsigned counts[] = {abi::slot_count_v<P_>..., 0u};
    unsigned offset = 0;
    for (unsigned i = 0; i < I_; ++i)
      offset += counts[i];
    return offset;
  }
};
template <class... P_>
struct kernel_signature<void (*)(P_...) noexcept> : kernel_signature<void (*)(P_...)> {};

template <auto Kernel, class... Slots> __attribute__((always_inline)) inline void call_from_slots(Slots... slots) {
  using sig = kernel_signature<decltype(Kernel)>;
  static_assert(sig::total_slots == sizeof...(Slots), "offload: entry and kernel slots differ");
  const abi::slot_t all[] = {abi::slot_t(slots)..., 0};
  [&]<unsigned... I_>(std::integer_sequence<unsigned, I_...>) __attribute__((always_inline)) {
    // The kernel's body is the entry's, whatever its size (as nvcc's __global__ function): a
    // call left here costs a call frame, and the callee sees its pointers as generic ones.
    [[clang::always_inline]] Kernel(
        abi::from_slots<typename sig::template param<I_>>(all + sig::template first_slot<I_>())...);
  }(std::make_integer_sequence<unsigned, sig::arity>{});
}

/// Checked by every generated entry: the tool's classification (a param_kind_name) agrees with
/// this header's for parameter I of kernel type F.
template <class F_, unsigned I_> constexpr bool param_kind_is(const char *expected) {
  const char *actual =
      abi::param_kind_name(abi::param_kind_v<typename kernel_signature<F_>::template param<I_>>);
  for (; *actual && *actual == *expected; ++actual, ++expected) {
  }
  return *actual == *expected;
}

} // namespace offload::detail

#pragma pack(pop)
