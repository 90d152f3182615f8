// offload/range.hpp — a half-open range of indices [begin, end): what offload::partition hands
// each device, and what a 1-D launch covers (`offload::launch(k, offload::range{n}, ...)`, the
// workgroup size chosen for the device; launch.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace offload {

/// A half-open index range [begin, end). `range{n}` is [0, n); any integer types (a negative or
/// too large count or end is kept as SIZE_MAX, which a launch refuses).
struct range {
  std::size_t begin = 0;
  std::size_t end = 0;

  constexpr range() = default;
  template <class N>
    requires std::is_integral_v<N>
  constexpr range(N n) : end(index(n)) {}
  template <class B, class E>
    requires(std::is_integral_v<B> && std::is_integral_v<E>)
  constexpr range(B b, E e) : begin(index(b)), end(index(e)) {}

  constexpr std::size_t size() const { return end - begin; }
  constexpr bool empty() const { return end == begin; }
  friend constexpr bool operator==(const range &, const range &) = default;

private:
  template <class I> static constexpr std::size_t index(I v) {
    if constexpr (I(-1) < I(0))
      if (v < 0)
        return SIZE_MAX;
    if constexpr (sizeof(I) > sizeof(std::size_t))  // an __int128: never truncated
      if (v > I(SIZE_MAX))
        return SIZE_MAX;
    return static_cast<std::size_t>(v);
  }
};

} // namespace offload
