// offload/parallel_for.hpp — lambdas as kernels.
//
//   offload::parallel_for(offload::range{n}, [=](std::size_t i) { y[i] += a * x[i]; });
//
// The lambda runs once for each index of the range, on the default device (a GPU whose image
// holds it, else the CPU device), on a chosen device (`parallel_for(device, range, lambda)`), or
// on a queue (`q.parallel_for(range, lambda)`). Its captures are mapped as a kernel's parameters
// of the same types are (offload/abi.hpp): a std::span copied in and back (in only for
// std::span<const T>), offload::device_ptr as it is, values by value.
//
// How (docs/design.md, "Lambdas as kernels"): offload-cxx's host-metadata pass rewrites each
// call for the host and device compiles, in place (the same lines): the lambda's captures become
// an explicit list `[x, y, n]`, which g++ and clang lay out alike, and the call gains a first
// argument, a lambda_site tag that names the lambda (Id: a hash of the file and the lambda's
// place), its captures' types in that order and the enclosing templates' arguments. The kernel is
// then lambda_kernel<Site, C...>, a template of namespace-scope types that g++ and clang name
// alike, and everything after is an ordinary range launch of it.
#pragma once

#include <offload/device.hpp>
#include <offload/launch.hpp>
#include <offload/range.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

namespace offload {
namespace detail {

/// The types of a lambda's captures, in the order of its (rewritten) capture list.
template <class... C> struct captures {};
/// A template parameter pack of the enclosing context, as one type of the site's context.
template <class... T> struct pack {};

/// The tag offload-cxx adds to a parallel_for call (see the file's comment).
template <unsigned long long Id, class Captures, class... Context> struct lambda_site {};

/// Where a closure of captures C... keeps each: in order, each at the next multiple of its
/// alignment — how g++ and clang lay out a closure with an explicit capture list (checked for
/// each lambda by its size and alignment below, and by the host-metadata pass's offsets).
template <class... C> struct capture_layout {
  static constexpr std::size_t count = sizeof...(C);
  static constexpr std::size_t align = std::max({std::size_t(1), alignof(C)...});
  /// Where capture k starts (k == count: where the last one ends).
  static constexpr std::size_t place(std::size_t k) {
    const std::size_t sizes[] = {sizeof(C)..., 0};
    const std::size_t aligns[] = {alignof(C)..., 1};
    std::size_t end = 0, at = 0;
    for (std::size_t i = 0; i <= k && i < count; ++i) {
      at = (end + aligns[i] - 1) / aligns[i] * aligns[i];
      end = at + sizes[i];
    }
    return k < count ? at : end;
  }
  /// As values (a device has no copy of a host table): offset<I>.
  template <std::size_t I> static constexpr std::size_t offset = place(I);
  static constexpr std::size_t size = (place(count) + align - 1) / align * align;
};

template <class Site> struct lambda_slot;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-template-friend"
#endif
/// Declares run_lambda for a site: the lambda of that site, rebuilt from its captures, called
/// with one index. Defined by lambda_definition<Site, F> where parallel_for knows F.
template <unsigned long long Id, class... C, class... E>
struct lambda_slot<lambda_site<Id, captures<C...>, E...>> {
  friend void run_lambda(lambda_slot, std::size_t index, const C &...captured);
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

template <class Site, class F> struct lambda_definition;
template <unsigned long long Id, class... C, class... E, class F>
struct lambda_definition<lambda_site<Id, captures<C...>, E...>, F> {
  using site = lambda_site<Id, captures<C...>, E...>;
  friend void run_lambda(lambda_slot<site>, std::size_t index, const C &...captured) {
    using layout = capture_layout<C...>;
    std::array<unsigned char, sizeof(F)> bytes{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (std::memcpy(bytes.data() + layout::template offset<I>, std::addressof(captured), sizeof(C)), ...);
    }(std::index_sequence_for<C...>{});
    const F f = std::bit_cast<F>(bytes);
    f(index);
  }
};

/// The kernel of every lambda: work-item i of `count` runs the lambda for `first + i`.
template <class Site, class... C>
OFFLOAD_KERNEL void lambda_kernel(C... captured, std::size_t first, std::size_t count) {
  const std::size_t i =
      std::size_t(offload::block_id_x()) * offload::block_dim_x() + offload::thread_id_x();
  if (i < count)
    run_lambda(lambda_slot<Site>{}, first + i, captured...);
}

template <class Site, class F> struct lambda_checks;
template <unsigned long long Id, class... C, class... E, class F>
struct lambda_checks<lambda_site<Id, captures<C...>, E...>, F> {
  static_assert(std::is_invocable_v<const F &, std::size_t>,
                "offload::parallel_for: the lambda must take one index (std::size_t, or auto) "
                "and not be mutable");
  static_assert(std::is_trivially_copyable_v<F>,
                "offload::parallel_for: the lambda's captures must be trivially copyable (a "
                "std::span of a container, not the container)");
  static_assert(sizeof(F) == capture_layout<C...>::size && alignof(F) == capture_layout<C...>::align,
                "offload::parallel_for: the lambda's closure is not laid out as offload-cxx "
                "expects (please report it with the lambda)");
  static constexpr bool ok = true;
};

/// The captures of f, read at their places in its closure.
template <class... C, class F> std::tuple<C...> captures_of(const F &f) {
  using layout = capture_layout<C...>;
  const auto bytes = std::bit_cast<std::array<unsigned char, sizeof(F)>>(f);
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::tuple<C...>{[&] {
      std::array<unsigned char, sizeof(C)> one;
      std::memcpy(one.data(), bytes.data() + layout::template offset<I>, sizeof(C));
      return std::bit_cast<std::remove_cv_t<C>>(one);
    }()...};
  }(std::index_sequence_for<C...>{});
}

template <unsigned long long Id, class... C, class... E, class F>
void parallel_for_on(int device, lambda_site<Id, captures<C...>, E...>, const range_at &r,
                     const F &f) {
  using site = lambda_site<Id, captures<C...>, E...>;
  static_assert(lambda_checks<site, F>::ok);
  (void)sizeof(lambda_definition<site, F>);  // defines run_lambda for this site
  if (r.items.end < r.items.begin)
    detail::throw_error("offload::parallel_for: the range ends before it begins");
  const std::size_t count = r.items.end - r.items.begin;
  if (count == 0)  // an empty range runs nothing (a range launch needs a work-item)
    return;
  std::apply(
      [&](const C &...captured) {
        launch_config config = r.config();
        config.device = device;
        prepared_launch<C..., std::size_t, std::size_t> job(&lambda_kernel<site, C...>, config,
                                                            captured..., r.items.begin, count);
        job.over_range(range{count});
        launch(job.request());
      },
      captures_of<C...>(f));
}

} // namespace detail

/// Runs `f(i)` for every i of `items` on the default device (see the file's comment). Waits
/// as offload::launch does: when a captured span comes back, for the kernel.
template <unsigned long long Id, class... C, class... E, class F>
void parallel_for(detail::lambda_site<Id, detail::captures<C...>, E...> site, detail::range_at items,
                  const F &f) {
  detail::parallel_for_on(default_device, site, items, f);
}
/// The same on `device` (offload::cpu_device, or a GPU's number).
template <unsigned long long Id, class... C, class... E, class F>
void parallel_for(detail::lambda_site<Id, detail::captures<C...>, E...> site, int device,
                  detail::range_at items, const F &f) {
  detail::parallel_for_on(device, site, items, f);
}

/// Without offload-cxx's rewrite (a host compiler alone): runs on the host, in order.
template <class F>
  requires std::is_invocable_v<const F &, std::size_t>
void parallel_for(const range &items, const F &f) {
  for (std::size_t i = items.begin; i < items.end; ++i)
    f(i);
}
template <class F>
  requires std::is_invocable_v<const F &, std::size_t>
void parallel_for(int, const range &items, const F &f) {
  parallel_for(items, f);
}

} // namespace offload
