// offload/atomic.hpp — atomic read-modify-write on global and shared memory, for 32/64-bit
// integers, float and double, with the same meaning on NVIDIA, AMD and the CPU device.
//
// Each function returns the value before the operation; the value argument converts to the
// object's type, as in an assignment (`atomic_min(&i64, -4000000000ll)` on an int64_t). Memory order: `order` (default
// std::memory_order_relaxed: atomicity only, the usual choice for counters and histograms);
// acquire/release/seq_cst order other memory accesses as in C++, at device scope on a GPU
// (visible to every work-item of the launch) and across all cores on the CPU device. Atomics
// are not ordered against the host while a kernel runs.
//
// Operations: add, sub, exchange, compare-exchange, min, max; and, or, xor (integers); inc and
// dec (unsigned integers, CUDA's atomicInc/atomicDec with their wrap-around limit).
// GPUs: native instructions (atom/red on NVIDIA, global/flat/ds atomics on AMD) for add,
// exchange, compare-exchange, integer min/max and bitwise ops; float/double min/max and inc/dec
// are a compare-exchange loop. The CPU device uses std::atomic_ref.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <atomic>
#include <type_traits>

namespace offload {

template <class T_>
concept atomic_value = (std::is_integral_v<T_> && (sizeof(T_) == 4 || sizeof(T_) == 8)) ||
                       std::is_same_v<T_, float> || std::is_same_v<T_, double>;
/// The integers of atomic_value (for and/or/xor), and the unsigned ones (for inc/dec).
template <class T_>
concept atomic_integer = atomic_value<T_> && std::is_integral_v<T_>;
template <class T_>
concept atomic_unsigned = atomic_integer<T_> && std::is_unsigned_v<T_>;

#if defined(__NVPTX__) || defined(__AMDGPU__)
namespace detail {
constexpr int builtin_order(std::memory_order o) {
  return o == std::memory_order_relaxed   ? __ATOMIC_RELAXED
         : o == std::memory_order_acquire ? __ATOMIC_ACQUIRE
         : o == std::memory_order_release ? __ATOMIC_RELEASE
         : o == std::memory_order_acq_rel ? __ATOMIC_ACQ_REL
                                          : __ATOMIC_SEQ_CST;
}
} // namespace detail

template <atomic_value T_>
inline T_ atomic_add(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  return __scoped_atomic_fetch_add(address, value, detail::builtin_order(order), __MEMORY_SCOPE_DEVICE);
}
// Device scope (every work-item of the launch). The generic forms take float and double too.
template <atomic_value T_>
inline T_ atomic_exchange(T_ *address, std::type_identity_t<T_> value,
                         std::memory_order order = std::memory_order_relaxed) {
  T_ old;
  __scoped_atomic_exchange(address, &value, &old, detail::builtin_order(order),
                           __MEMORY_SCOPE_DEVICE);
  return old;
}
/// Stores `desired` if *address == expected; returns the value found (== expected on success).
template <atomic_value T_>
inline T_ atomic_compare_exchange(T_ *address, std::type_identity_t<T_> expected,
                                 std::type_identity_t<T_> desired,
                                 std::memory_order order = std::memory_order_relaxed) {
  __scoped_atomic_compare_exchange(address, &expected, &desired, false,
                                   detail::builtin_order(order), __ATOMIC_RELAXED,
                                   __MEMORY_SCOPE_DEVICE);
  return expected;
}
namespace detail {
/// Floating-point min/max: replace while `value` is better than what is there.
template <class T_, class Better>
inline T_ atomic_replace_while(T_ *address, std::type_identity_t<T_> value, std::memory_order order, Better better) {
  T_ seen;
  __scoped_atomic_load(address, &seen, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  while (better(value, seen) &&
         !__scoped_atomic_compare_exchange(address, &seen, &value, false, builtin_order(order),
                                           __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)) {
  }
  return seen;
}
} // namespace detail

template <atomic_value T_>
inline T_ atomic_min(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  if constexpr (std::is_integral_v<T_>)
    return __scoped_atomic_fetch_min(address, value, detail::builtin_order(order),
                                     __MEMORY_SCOPE_DEVICE);
  else
    return detail::atomic_replace_while(address, value, order, [](T_ a, T_ b) { return a < b; });
}
template <atomic_value T_>
inline T_ atomic_max(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  if constexpr (std::is_integral_v<T_>)
    return __scoped_atomic_fetch_max(address, value, detail::builtin_order(order),
                                     __MEMORY_SCOPE_DEVICE);
  else
    return detail::atomic_replace_while(address, value, order, [](T_ a, T_ b) { return a > b; });
}
template <atomic_integer T_>
inline T_ atomic_and(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  return __scoped_atomic_fetch_and(address, value, detail::builtin_order(order), __MEMORY_SCOPE_DEVICE);
}
template <atomic_integer T_>
inline T_ atomic_or(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  return __scoped_atomic_fetch_or(address, value, detail::builtin_order(order), __MEMORY_SCOPE_DEVICE);
}
template <atomic_integer T_>
inline T_ atomic_xor(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  return __scoped_atomic_fetch_xor(address, value, detail::builtin_order(order), __MEMORY_SCOPE_DEVICE);
}

#else  // the CPU device (and any host compiler)

namespace detail {
/// Whether a relaxed integer read-modify-write with `value` leaves the object as it is (adding,
/// or-ing or xor-ing 0, and-ing ~0): it is then a relaxed load, which returns a value of the
/// object's modification order as the operation would, without the locked instruction — on a
/// CPU, ~20 cycles each and a cache line taken from every other core. A GPU's histogram that
/// merges a workgroup's bins into the global one adds mostly zeros (issue 31: bincount).
template <class T_> inline bool cpu_rmw_keeps(T_ value, T_ identity, std::memory_order order) {
  if constexpr (std::is_integral_v<T_>)
    return order == std::memory_order_relaxed && value == identity;
  else
    return false;  // x + 0.0 is not x for x = -0.0
}
} // namespace detail

template <atomic_value T_>
inline T_ atomic_add(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  if (detail::cpu_rmw_keeps<T_>(value, T_(0), order))
    return std::atomic_ref<T_>(*address).load(std::memory_order_relaxed);
  return std::atomic_ref<T_>(*address).fetch_add(value, order);
}
template <atomic_value T_>
inline T_ atomic_exchange(T_ *address, std::type_identity_t<T_> value,
                         std::memory_order order = std::memory_order_relaxed) {
  return std::atomic_ref<T_>(*address).exchange(value, order);
}
template <atomic_value T_>
inline T_ atomic_compare_exchange(T_ *address, std::type_identity_t<T_> expected,
                                 std::type_identity_t<T_> desired,
                                 std::memory_order order = std::memory_order_relaxed) {
  std::atomic_ref<T_>(*address).compare_exchange_strong(expected, desired, order,
                                                       std::memory_order_relaxed);
  return expected;
}
template <atomic_value T_>
inline T_ atomic_min(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  std::atomic_ref<T_> ref(*address);
  T_ seen = ref.load(std::memory_order_relaxed);
  while (value < seen && !ref.compare_exchange_weak(seen, value, order, std::memory_order_relaxed)) {
  }
  return seen;
}
template <atomic_value T_>
inline T_ atomic_max(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  std::atomic_ref<T_> ref(*address);
  T_ seen = ref.load(std::memory_order_relaxed);
  while (value > seen && !ref.compare_exchange_weak(seen, value, order, std::memory_order_relaxed)) {
  }
  return seen;
}
template <atomic_integer T_>
inline T_ atomic_and(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  if (detail::cpu_rmw_keeps<T_>(value, T_(~T_(0)), order))
    return std::atomic_ref<T_>(*address).load(std::memory_order_relaxed);
  return std::atomic_ref<T_>(*address).fetch_and(value, order);
}
template <atomic_integer T_>
inline T_ atomic_or(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  if (detail::cpu_rmw_keeps<T_>(value, T_(0), order))
    return std::atomic_ref<T_>(*address).load(std::memory_order_relaxed);
  return std::atomic_ref<T_>(*address).fetch_or(value, order);
}
template <atomic_integer T_>
inline T_ atomic_xor(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  if (detail::cpu_rmw_keeps<T_>(value, T_(0), order))
    return std::atomic_ref<T_>(*address).load(std::memory_order_relaxed);
  return std::atomic_ref<T_>(*address).fetch_xor(value, order);
}

#endif

// Built on the above, the same on every device.

namespace detail {
/// *address = next(*address) atomically (a compare-exchange loop); returns the old value.
template <class T_, class Next> inline T_ atomic_update(T_ *address, std::memory_order order, Next next) {
  T_ seen = *static_cast<volatile T_ *>(address);
  for (;;) {
    const T_ was = atomic_compare_exchange(address, seen, next(seen), order);
    if (was == seen)
      return was;
    seen = was;
  }
}
} // namespace detail

/// Subtracts `value` (CUDA's atomicSub; for float and double too).
template <atomic_value T_>
inline T_ atomic_sub(T_ *address, std::type_identity_t<T_> value, std::memory_order order = std::memory_order_relaxed) {
  if constexpr (std::is_integral_v<T_>)
    return atomic_add(address, T_(T_(0) - value), order);  // wraps as CUDA's does, for unsigned too
  else
    return atomic_add(address, -value, order);
}

/// CUDA's atomicInc: `*address = old >= limit ? 0 : old + 1` (a counter that wraps at limit).
template <atomic_unsigned T_>
inline T_ atomic_inc(T_ *address, std::type_identity_t<T_> limit, std::memory_order order = std::memory_order_relaxed) {
  return detail::atomic_update(address, order, [limit](T_ old) { return old >= limit ? T_(0) : T_(old + 1); });
}

/// CUDA's atomicDec: `*address = (old == 0 || old > limit) ? limit : old - 1`.
template <atomic_unsigned T_>
inline T_ atomic_dec(T_ *address, std::type_identity_t<T_> limit, std::memory_order order = std::memory_order_relaxed) {
  return detail::atomic_update(address, order,
                               [limit](T_ old) { return old == 0 || old > limit ? limit : T_(old - 1); });
}

} // namespace offload

#pragma pack(pop)
