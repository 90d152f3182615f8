// offload/map.hpp — explicit directions for one argument of a launch, a data region or a queue:
//
//   offload::launch(k, cfg, offload::from(&out), offload::to(in_span), 3);
//
// `to` copies in only, `from` copies back only, `tofrom` both, `alloc` neither (device memory
// shaped like the host object). They apply to pointers, references and spans; values always
// travel by value.
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <type_traits>
#include <utility>

namespace offload {

/// An argument with an explicit direction (made by offload::to, from, tofrom, alloc).
template <class A, detail::transfer How> struct mapped {
  A value;
  static constexpr detail::transfer how = How;
};

template <class A> mapped<A, detail::transfer::to> to(A &&a) { return {std::forward<A>(a)}; }
template <class A> mapped<A, detail::transfer::from> from(A &&a) { return {std::forward<A>(a)}; }
template <class A> mapped<A, detail::transfer::tofrom> tofrom(A &&a) {
  return {std::forward<A>(a)};
}
template <class A> mapped<A, detail::transfer::alloc> alloc(A &&a) {
  return {std::forward<A>(a)};
}

namespace detail {
template <class A> struct map_traits {
  using value_type = A;
  static constexpr bool explicit_direction = false;
  static constexpr transfer how = transfer::literal;  // unused
  template <class X> static X &&value(X &&a) { return std::forward<X>(a); }
};
template <class A, transfer How> struct map_traits<mapped<A, How>> {
  using value_type = A;
  static constexpr bool explicit_direction = true;
  static constexpr transfer how = How;
  template <class X> static decltype(auto) value(X &&m) {
    return std::forward<decltype(m.value)>(m.value);
  }
};
template <class A> using map_traits_of = map_traits<std::remove_cvref_t<A>>;
} // namespace detail

} // namespace offload
