// offload/map.hpp — explicit directions for one argument of a launch, a data region or a queue:
//
//   offload::launch(k, cfg, offload::from(&out), offload::to(in_span), 3);
//
// `to` copies in only, `from` copies back only, `tofrom` both, `alloc` neither (device memory
// shaped like the host object). They apply to pointers, references and spans; values always
// travel by value.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/detail/runtime_api.hpp>

#include <type_traits>
#include <utility>

namespace offload {

/// An argument with an explicit direction (made by offload::to, from, tofrom, alloc).
template <class A_, detail::transfer How> struct mapped {
  A_ value;
  static constexpr detail::transfer how = How;
};

template <class A_> mapped<A_, detail::transfer::to> to(A_ &&a) { return {std::forward<A_>(a)}; }
template <class A_> mapped<A_, detail::transfer::from> from(A_ &&a) { return {std::forward<A_>(a)}; }
template <class A_> mapped<A_, detail::transfer::tofrom> tofrom(A_ &&a) {
  return {std::forward<A_>(a)};
}
template <class A_> mapped<A_, detail::transfer::alloc> alloc(A_ &&a) {
  return {std::forward<A_>(a)};
}

namespace detail {
template <class A_> struct map_traits {
  using value_type = A_;
  static constexpr bool explicit_direction = false;
  static constexpr transfer how = transfer::literal;  // unused
  template <class X_> static X_ &&value(X_ &&a) { return std::forward<X_>(a); }
};
template <class A_, transfer How> struct map_traits<mapped<A_, How>> {
  using value_type = A_;
  static constexpr bool explicit_direction = true;
  static constexpr transfer how = How;
  template <class X_> static decltype(auto) value(X_ &&m) {
    return std::forward<decltype(m.value)>(m.value);
  }
};
template <class A_> using map_traits_of = map_traits<std::remove_cvref_t<A_>>;
} // namespace detail

} // namespace offload

#pragma pack(pop)
