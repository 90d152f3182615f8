// offload/detail/device_entry.hpp — used only by the device translation unit that offload-cxx
// generates: turns launch slots back into the kernel's arguments (offload/abi.hpp) and calls it.
//
// Each generated entry looks like
//   extern "C" OFFLOAD_IMPL_ENTRY void __offload_entry_<mangled>(void *dyn_ptr, slot_t s0, ...)
//   { offload::detail::call_from_slots<&kernel>(s0, ...); }
// The leading dyn_ptr is the implicit argument that libomptarget's KernelArgs version 3 passes
// before the user's arguments (see runtime/omptarget_abi.hpp).
#pragma once

#include <offload/abi.hpp>

#if defined(__NVPTX__) || defined(__AMDGPU__)
#define OFFLOAD_IMPL_ENTRY [[clang::device_kernel]]
#else
#define OFFLOAD_IMPL_ENTRY
#endif

namespace offload::detail {

template <class F> struct kernel_signature;
template <class... P> struct kernel_signature<void (*)(P...)> {
  static constexpr unsigned arity = sizeof...(P);
  template <unsigned I> using param = __type_pack_element<I, P...>;
};

template <auto Kernel, class... Slots> inline void call_from_slots(Slots... slots) {
  using sig = kernel_signature<decltype(Kernel)>;
  static_assert(sig::arity == sizeof...(Slots), "offload: entry and kernel arity differ");
  [&]<unsigned... I>(std::integer_sequence<unsigned, I...>) {
    Kernel(abi::from_slot<typename sig::template param<I>>(slots)...);
  }(std::make_integer_sequence<unsigned, sizeof...(Slots)>{});
}

/// Checked by every generated entry: the tool's classification (a param_kind_name) agrees with
/// this header's for parameter I of kernel type F.
template <class F, unsigned I> constexpr bool param_kind_is(const char *expected) {
  const char *actual =
      abi::param_kind_name(abi::param_kind_v<typename kernel_signature<F>::template param<I>>);
  for (; *actual && *actual == *expected; ++actual, ++expected) {
  }
  return *actual == *expected;
}

} // namespace offload::detail
