// offload/abi.hpp — the kernel-parameter ABI, defined once.
//
// Every kernel parameter travels to the device as one 8-byte launch slot. This header says, for
// each C++ parameter type, what the slot holds and how the host maps the argument:
//
//   parameter type                         slots                          host mapping
//   U* / U(*)[N] / U& (U non-const)        device address of the object   to+from, sizeof(U) bytes
//   const U* / const U(*)[N] / const U&    device address of the object   to, sizeof(U) bytes
//   std::span<U> (U non-const / const)     device address, then length    to+from / to, the data
//   offload::device_ptr<U>                 the device address, as is      none (already there)
//   arithmetic, enum, or a class that is   the value's bytes, zero-padded literal (no mapping)
//     trivially copy-constructible and     (over ceil(size / 8) slots)
//     destructible, of at most 1 KiB
//   such a value of more than 1 KiB        device address of a copy       to (a copy of the value)
//
// A value is only ever copied, never assigned, so std::pair, std::tuple and std::optional of
// such types travel by value as a call would pass them. Pointed-to objects are copied both ways
// and must be trivially copyable.
//
// A parameter takes one slot, except a span, which takes two (data, length), and a value of more
// than 8 bytes, which takes one per 8 of its bytes: a struct passed by value travels in the
// launch's parameters, as CUDA passes it (no copy to the device before each launch).
//
// The host packer (offload/launch.hpp), the device entries that offload-cxx generates
// (offload/detail/device_entry.hpp) and the tool's manifest checks all read this table, so the
// three can never disagree. It depends on no LLVM version: libomptarget's map-type bits live in
// runtime/omptarget_abi.hpp.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

namespace offload {

/// A pointer into a device's memory (offload::buffer::data()); a kernel parameter of this type
/// receives it as is, with no mapping. On the CPU device it is a host pointer.
template <class T_> struct device_ptr {
  T_ *raw = nullptr;

  /// device_ptr<T> converts to device_ptr<const T>, as T* converts to const T*.
  template <class U_>
    requires(!std::is_same_v<U_, T_> && std::is_convertible_v<T_ *, U_ *>)
  operator device_ptr<U_>() const {
    return {raw};
  }

  T_ &operator[](std::size_t i) const { return raw[i]; }
  T_ &operator*() const { return *raw; }
  T_ *operator->() const { return raw; }
  T_ *get() const { return raw; }
  device_ptr operator+(std::ptrdiff_t n) const { return {raw + n}; }
  explicit operator bool() const { return raw != nullptr; }
};

/// A device pointer the kernel only reads, and whose memory no other argument writes during the
/// launch: CUDA's `const T* __restrict__`. GPUs load through it on their read-only data path
/// (NVIDIA's ld.global.nc, as nvcc does for `const __restrict__`). Made from a device_ptr
/// (`buffer.data()`); a kernel that writes the memory through another argument is undefined, as
/// in CUDA. A mapped `const T* __restrict__` parameter is the same for host data.
template <class T_> struct readonly_ptr {
  const T_ *raw = nullptr;

  readonly_ptr() = default;
  explicit readonly_ptr(const T_ *p) : raw(p) {}
  template <class U_>
    requires std::is_convertible_v<U_ *, const T_ *>
  readonly_ptr(device_ptr<U_> p) : raw(p.raw) {}

  const T_ &operator[](std::size_t i) const { return raw[i]; }
  const T_ &operator*() const { return *raw; }
  const T_ *operator->() const { return raw; }
  const T_ *get() const { return raw; }
  readonly_ptr operator+(std::ptrdiff_t n) const { return readonly_ptr(raw + n); }
  explicit operator bool() const { return raw != nullptr; }
};

} // namespace offload

namespace offload::abi {

/// One launch slot: a device pointer or a literal's bits.
using slot_t = std::uint64_t;

/// How one parameter travels. The numeric values appear in manifests: append, never renumber.
enum class param_kind : std::uint8_t {
  map_tofrom = 0,  ///< pointer/reference to a mutable object: copied in, run, copied back
  map_to = 1,      ///< pointer/reference to a const object: copied in only
  literal = 2,     ///< value of at most max_literal_bytes: its bytes are the slots
  value_copy = 3,  ///< large value: a copy is mapped to the device, the slot is its address
  span_tofrom = 4, ///< span of mutable elements: data mapped to+from, then the length
  span_to = 5,     ///< span of const elements: data mapped to, then the length
  device = 6,      ///< device_ptr: the address is the slot
  unmappable = 255,
};

/// The spelling used in manifests and diagnostics.
constexpr const char *param_kind_name(param_kind k) {
  switch (k) {
  case param_kind::map_tofrom: return "tofrom";
  case param_kind::map_to: return "to";
  case param_kind::literal: return "literal";
  case param_kind::value_copy: return "value";
  case param_kind::span_tofrom: return "span_tofrom";
  case param_kind::span_to: return "span_to";
  case param_kind::device: return "device";
  case param_kind::unmappable: return "unmappable";
  }
  return "unmappable";
}

namespace detail {
template <class U_>
inline constexpr bool mappable_object_v =
    std::is_object_v<U_> && !std::is_pointer_v<std::remove_all_extents_t<U_>> &&
    !std::is_member_pointer_v<std::remove_all_extents_t<U_>> &&
    std::is_trivially_copyable_v<std::remove_all_extents_t<U_>> && !std::is_void_v<U_>;
/// A value parameter: copied (never assigned) to the device, so a trivial copy constructor and
/// destructor are enough.
template <class U_>
inline constexpr bool passable_value_v =
    std::is_object_v<U_> && !std::is_array_v<U_> && !std::is_pointer_v<U_> &&
    !std::is_member_pointer_v<U_> && std::is_trivially_copy_constructible_v<U_> &&
    std::is_trivially_destructible_v<U_> && !std::is_void_v<U_>;
} // namespace detail

/// The largest value that travels in the launch's own parameters (CUDA's kernel parameter space
/// holds 4 KiB on every GPU it supports, 32 KiB on Volta and later); a larger one is copied to
/// the device before the launch and passed by address.
inline constexpr std::size_t max_literal_bytes = 1024;

/// Classification of a kernel parameter type P. `kind` is param_kind::unmappable when P cannot
/// travel; `object` is the pointee (for pointers/references) or P itself (for values).
template <class P_, class = void> struct param_traits {
  using object = P_;
  static constexpr param_kind kind = param_kind::unmappable;
};

// Pointers to one object (a plain object or a whole array, as in `T (*)[N]`).
template <class U_>
struct param_traits<U_ *, std::enable_if_t<detail::mappable_object_v<U_>>> {
  using object = U_;
  static constexpr param_kind kind =
      std::is_const_v<U_> ? param_kind::map_to : param_kind::map_tofrom;
};

// References to one object.
template <class U_>
struct param_traits<U_ &, std::enable_if_t<detail::mappable_object_v<U_>>> {
  using object = U_;
  static constexpr param_kind kind =
      std::is_const_v<U_> ? param_kind::map_to : param_kind::map_tofrom;
};

// Spans of any extent: the data, then the length.
template <class U_, std::size_t Extent>
struct param_traits<std::span<U_, Extent>, std::enable_if_t<detail::mappable_object_v<U_>>> {
  using object = U_;  // the element
  static constexpr param_kind kind =
      std::is_const_v<U_> ? param_kind::span_to : param_kind::span_tofrom;
};

// Device pointers: passed as is.
template <class U_> struct param_traits<device_ptr<U_>> {
  using object = U_;
  static constexpr param_kind kind = param_kind::device;
};
template <class U_> struct param_traits<readonly_ptr<U_>> {
  using object = const U_;
  static constexpr param_kind kind = param_kind::device;
};

template <class P_> struct is_special_class : std::false_type {};
template <class U_, std::size_t E_> struct is_special_class<std::span<U_, E_>> : std::true_type {};
template <class U_> struct is_special_class<device_ptr<U_>> : std::true_type {};
template <class U_> struct is_special_class<readonly_ptr<U_>> : std::true_type {};

// Values: arithmetic, enums and trivially copyable classes without pointer type.
template <class P_>
struct param_traits<P_, std::enable_if_t<!std::is_pointer_v<P_> && !std::is_reference_v<P_> &&
                                        !std::is_array_v<P_> && !is_special_class<P_>::value &&
                                        detail::passable_value_v<P_>>> {
  using object = P_;
  static constexpr param_kind kind =
      sizeof(P_) <= max_literal_bytes ? param_kind::literal : param_kind::value_copy;
};

template <class P_> inline constexpr param_kind param_kind_v = param_traits<P_>::kind;

/// The number of launch slots a parameter of kind k takes; `bytes`: a literal's size.
constexpr unsigned slot_count(param_kind k, std::size_t bytes = sizeof(slot_t)) {
  if (k == param_kind::literal)
    return bytes <= sizeof(slot_t) ? 1u : static_cast<unsigned>((bytes + sizeof(slot_t) - 1) / sizeof(slot_t));
  return k == param_kind::span_tofrom || k == param_kind::span_to ? 2 : 1;
}
template <class P_> constexpr unsigned slot_count_of() {
  if constexpr (param_kind_v<P_> == param_kind::literal)
    return slot_count(param_kind::literal, sizeof(P_));
  else
    return slot_count(param_kind_v<P_>);
}
template <class P_> inline constexpr unsigned slot_count_v = slot_count_of<P_>();

/// Packs a literal into its slots, zero-padded (host side).
template <class P_> inline void literal_to_slots(const P_ &value, slot_t *slots) {
  constexpr unsigned n = slot_count_v<P_>;
  for (unsigned i = 0; i < n; ++i)
    slots[i] = 0;
  std::memcpy(slots, &value, sizeof(P_));
}
/// Packs a literal of at most 8 bytes into its slot.
template <class P_> inline slot_t literal_to_slot(const P_ &value) {
  static_assert(sizeof(P_) <= sizeof(slot_t), "a value of more than 8 bytes takes several slots");
  slot_t s;
  literal_to_slots(value, &s);
  return s;
}

/// The object at the device address in slot `s`. On a GPU every address a launch passes is in
/// global memory (mapped objects, buffers): the pointer is made from a global one, so that the
/// compiler's address-space inference turns the kernel's generic accesses into global ones
/// (`ld.global`/`st.global` on NVIDIA, as nvcc emits for a __global__ function's pointers), and
/// so that the target's alias analysis knows them apart from shared memory while the optimiser
/// runs: a value accumulated through a device pointer in a loop that reads shared memory stays in
/// a register (LICM), as nvcc keeps it (rodinia-lavamd: 4 global loads and 4 stores per
/// iteration otherwise; codegen/global-pointers.test). A `__restrict__` slot is a global pointer
/// parameter of the entry (DevicePass.cpp), so the cast pair folds back to it and keeps its
/// noalias (ld.global.nc for readonly_ptr, codegen/readonly.test).
template <class T_> inline T_ *device_object(slot_t s) {
#if defined(__NVPTX__) || defined(__AMDGPU__)
  using global_t = __attribute__((address_space(1))) T_;
  return (T_ *)(global_t *)static_cast<std::uintptr_t>(s);
#else
  return reinterpret_cast<T_ *>(std::uintptr_t{s});
#endif
}

/// A device address as a launch slot (host side).
inline slot_t address_slot(const volatile void *p) { return reinterpret_cast<std::uintptr_t>(p); }

/// Rebuilds the kernel's argument from its slots (device side, and the CPU device's tests).
template <class P_> inline P_ from_slots(const slot_t *s) {
  constexpr param_kind k = param_kind_v<P_>;
  static_assert(k != param_kind::unmappable, "offload: unmappable kernel parameter type");
  if constexpr (std::is_pointer_v<P_>) {
    return device_object<std::remove_pointer_t<P_>>(s[0]);
  } else if constexpr (std::is_reference_v<P_>) {
    return *device_object<std::remove_reference_t<P_>>(s[0]);
  } else if constexpr (k == param_kind::span_tofrom || k == param_kind::span_to) {
    using element = typename param_traits<P_>::object;
    return P_(device_object<element>(s[0]), static_cast<std::size_t>(s[1]));
  } else if constexpr (k == param_kind::device) {
    using element = typename param_traits<P_>::object;
    return P_{device_object<element>(s[0])};
  } else if constexpr (k == param_kind::literal) {
    // The value's bytes, then a (trivial) copy of the object they hold.
    alignas(P_) unsigned char bytes[sizeof(P_)];
    __builtin_memcpy(bytes, s, sizeof(P_));
    return *__builtin_launder(reinterpret_cast<const P_ *>(bytes));
  } else {
    return *reinterpret_cast<const P_ *>(static_cast<std::uintptr_t>(s[0]));
  }
}

} // namespace offload::abi

#pragma pack(pop)
