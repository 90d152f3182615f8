// offload/range.hpp — a half-open range of indices [begin, end): what offload::partition hands
// each device, and what a 1-D launch covers (`offload::launch(k, offload::range{n}, ...)`, the
// workgroup size chosen for the device; launch.hpp).
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

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
  template <class N_>
    requires std::is_integral_v<N_>
  constexpr range(N_ n) : end(index(n)) {}
  template <class B_, class E_>
    requires(std::is_integral_v<B_> && std::is_integral_v<E_>)
  constexpr range(B_ b, E_ e) : begin(index(b)), end(index(e)) {}

  constexpr std::size_t size() const { return end - begin; }
  constexpr bool empty() const { return end == begin; }
  friend constexpr bool operator==(const range &, const range &) = default;

private:
  template <class I_> static constexpr std::size_t index(I_ v) {
    if constexpr (I_(-1) < I_(0))
      if (v < 0)
        return SIZE_MAX;
    if constexpr (sizeof(I_) > sizeof(std::size_t))  // an __int128: never truncated
      if (v > I_(SIZE_MAX))
        return SIZE_MAX;
    return static_cast<std::size_t>(v);
  }
};

} // namespace offload

#pragma pack(pop)
