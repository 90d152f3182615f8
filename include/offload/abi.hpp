// offload/abi.hpp — the kernel-parameter ABI, defined once.
//
// Every kernel parameter travels to the device as one 8-byte launch slot. This header says, for
// each C++ parameter type, what the slot holds and how the host maps the argument:
//
//   parameter type                         slot holds                     host mapping
//   U* / U(*)[N] / U& (U non-const)        device address of the object   to+from, sizeof(U) bytes
//   const U* / const U(*)[N] / const U&    device address of the object   to, sizeof(U) bytes
//   arithmetic, enum, trivially copyable   the value's bytes, zero-padded literal (no mapping)
//     type of at most 8 bytes
//   trivially copyable type > 8 bytes      device address of a copy       to (a copy of the value)
//
// The host packer (offload/launch.hpp), the device entries that offload-cxx generates
// (offload/detail/device_entry.hpp) and the tool's manifest checks all read this table, so the
// three can never disagree. It depends on no LLVM version: libomptarget's map-type bits live in
// runtime/omptarget_abi.hpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace offload::abi {

/// One launch slot: a device pointer or a literal's bits.
using slot_t = std::uint64_t;

/// How one parameter travels. The numeric values appear in manifests: append, never renumber.
enum class param_kind : std::uint8_t {
  map_tofrom = 0,  ///< pointer/reference to a mutable object: copied in, run, copied back
  map_to = 1,      ///< pointer/reference to a const object: copied in only
  literal = 2,     ///< small value: its bytes are the slot
  value_copy = 3,  ///< large value: a copy is mapped to the device, the slot is its address
  unmappable = 255,
};

/// The spelling used in manifests and diagnostics.
constexpr const char *param_kind_name(param_kind k) {
  switch (k) {
  case param_kind::map_tofrom: return "tofrom";
  case param_kind::map_to: return "to";
  case param_kind::literal: return "literal";
  case param_kind::value_copy: return "value";
  case param_kind::unmappable: return "unmappable";
  }
  return "unmappable";
}

namespace detail {
template <class U>
inline constexpr bool mappable_object_v =
    std::is_object_v<U> && !std::is_pointer_v<std::remove_all_extents_t<U>> &&
    !std::is_member_pointer_v<std::remove_all_extents_t<U>> &&
    std::is_trivially_copyable_v<std::remove_all_extents_t<U>> && !std::is_void_v<U>;
} // namespace detail

/// Classification of a kernel parameter type P. `kind` is param_kind::unmappable when P cannot
/// travel; `object` is the pointee (for pointers/references) or P itself (for values).
template <class P, class = void> struct param_traits {
  using object = P;
  static constexpr param_kind kind = param_kind::unmappable;
};

// Pointers to one object (a plain object or a whole array, as in `T (*)[N]`).
template <class U>
struct param_traits<U *, std::enable_if_t<detail::mappable_object_v<U>>> {
  using object = U;
  static constexpr param_kind kind =
      std::is_const_v<U> ? param_kind::map_to : param_kind::map_tofrom;
};

// References to one object.
template <class U>
struct param_traits<U &, std::enable_if_t<detail::mappable_object_v<U>>> {
  using object = U;
  static constexpr param_kind kind =
      std::is_const_v<U> ? param_kind::map_to : param_kind::map_tofrom;
};

// Values: arithmetic, enums and trivially copyable classes without pointer type.
template <class P>
struct param_traits<P, std::enable_if_t<!std::is_pointer_v<P> && !std::is_reference_v<P> &&
                                        !std::is_array_v<P> && detail::mappable_object_v<P>>> {
  using object = P;
  static constexpr param_kind kind =
      sizeof(P) <= sizeof(slot_t) ? param_kind::literal : param_kind::value_copy;
};

template <class P> inline constexpr param_kind param_kind_v = param_traits<P>::kind;

/// True when the slot of P is a device address that the runtime must translate.
constexpr bool is_mapped(param_kind k) {
  return k == param_kind::map_tofrom || k == param_kind::map_to || k == param_kind::value_copy;
}

/// Packs a literal into a slot (host side).
template <class P> inline slot_t literal_to_slot(const P &value) {
  static_assert(sizeof(P) <= sizeof(slot_t), "a literal fills at most one slot");
  slot_t s = 0;
  std::memcpy(&s, &value, sizeof(P));
  return s;
}

/// Rebuilds the kernel's argument from its slot (device side, and the CPU device's tests).
template <class P> inline P from_slot(slot_t s) {
  constexpr param_kind k = param_kind_v<P>;
  static_assert(k != param_kind::unmappable, "offload: unmappable kernel parameter type");
  if constexpr (std::is_pointer_v<P>) {
    return reinterpret_cast<P>(static_cast<std::uintptr_t>(s));
  } else if constexpr (std::is_reference_v<P>) {
    return *reinterpret_cast<std::remove_reference_t<P> *>(static_cast<std::uintptr_t>(s));
  } else if constexpr (k == param_kind::literal) {
    struct bytes_of_p { alignas(P) unsigned char b[sizeof(P)]; } bytes;
    __builtin_memcpy(bytes.b, &s, sizeof(P));
    return __builtin_bit_cast(P, bytes);
  } else {
    return *reinterpret_cast<const P *>(static_cast<std::uintptr_t>(s));
  }
}

} // namespace offload::abi
