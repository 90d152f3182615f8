// offload/detail/lambda_kernels.hpp — what makes a lambda a kernel (offload/parallel_for.hpp
// says how it is used, docs/design.md "Lambdas as kernels" why it is built this way): the site tag
// offload-cxx's rewrite adds to each call, the layout of a closure with an explicit capture list,
// and the kernels — lambda_kernel and reduce_kernel, templates of namespace-scope types only, so
// that g++ and clang name them alike — which rebuild the closure from its captures.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/device.hpp>
#include <offload/launch.hpp>
#include <offload/range.hpp>
#include <offload/workgroup.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

namespace offload {
namespace detail {

/// The types of a lambda's captures, in the order of its (rewritten) capture list.
template <class... C_> struct captures {};
/// A template parameter pack of the enclosing context, as one type of the site's context.
template <class... T_> struct pack {};

/// The tag offload-cxx adds to a parallel_for call (see the file's comment).
template <unsigned long long Id, class Captures, class... Context> struct lambda_site {};

/// Where a closure of captures C... keeps each: in order, each at the next multiple of its
/// alignment — how g++ and clang lay out a closure with an explicit capture list (checked for
/// each lambda by its size and alignment below, and by the host-metadata pass's offsets).
template <class... C_> struct capture_layout {
  static constexpr std::size_t count = sizeof...(C_);
  static constexpr std::size_t align = std::max({std::size_t(1), alignof(C_)...});
  /// Where capture k starts (k == count: where the last one ends).
  static constexpr std::size_t place(std::size_t k) {
    const std::size_t sizes[] = {sizeof(C_)..., 0};
    const std::size_t aligns[] = {alignof(C_)..., 1};
    std::size_t end = 0, at = 0;
    for (std::size_t i = 0; i <= k && i < count; ++i) {
      at = (end + aligns[i] - 1) / aligns[i] * aligns[i];
      end = at + sizes[i];
    }
    return k < count ? at : end;
  }
  /// As values (a device has no copy of a host table): offset<I>.
  template <std::size_t I_> static constexpr std::size_t offset = place(I_);
  /// (A closure without captures is an empty class: one byte.)
  static constexpr std::size_t size =
      count == 0 ? 1 : (place(count) + align - 1) / align * align;
};

/// How many indices F takes: 1 (`(std::size_t i)`, or `auto`), 2 (x, y) or 3 (x, y, z); 0 if
/// none of these.
template <class F_>
inline constexpr unsigned lambda_rank =
    std::is_invocable_v<const F_ &, std::size_t>                                    ? 1
    : std::is_invocable_v<const F_ &, std::size_t, std::size_t>                     ? 2
    : std::is_invocable_v<const F_ &, std::size_t, std::size_t, std::size_t>        ? 3
                                                                                    : 0;

/// f called with as many of the indices as it takes.
template <class F_>
decltype(auto) call_with_indices(const F_ &f, std::size_t x, [[maybe_unused]] std::size_t y,
                                 [[maybe_unused]] std::size_t z) {
  if constexpr (lambda_rank<F_> == 1)
    return f(x);
  else if constexpr (lambda_rank<F_> == 2)
    return f(x, y);
  else
    return f(x, y, z);
}

template <class Site> struct lambda_slot;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-template-friend"
#endif
/// Declares run_lambda for a site: the lambda of that site, rebuilt from its captures, called
/// with one index (its value stored at `result` unless null: parallel_reduce's). Defined by
/// lambda_definition<Site, F> where parallel_for knows F.
template <unsigned long long Id, class... C_, class... E_>
struct lambda_slot<lambda_site<Id, captures<C_...>, E_...>> {
  friend void run_lambda(lambda_slot, std::size_t x, std::size_t y, std::size_t z, void *result,
                         const C_ &...captured);
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

template <class Site, class F_> struct lambda_definition;
template <unsigned long long Id, class... C_, class... E_, class F_>
struct lambda_definition<lambda_site<Id, captures<C_...>, E_...>, F_> {
  using site = lambda_site<Id, captures<C_...>, E_...>;
  friend void run_lambda(lambda_slot<site>, std::size_t x, std::size_t y, std::size_t z,
                         void *result, const C_ &...captured) {
    using layout = capture_layout<C_...>;
    // The closure rebuilt in place: its captures copied to their offsets in storage of its size
    // (a closure of trivially copyable captures is an implicit-lifetime type: the copies make
    // it). Not std::bit_cast from an array: on a GPU that returned the whole closure by value,
    // and a 40 KB capture took ptxas more than 10 minutes and 10 GB (adversarial pass).
    alignas(F_) unsigned char storage[sizeof(F_)];
    [&]<std::size_t... I_>(std::index_sequence<I_...>) {
      (std::memcpy(storage + layout::template offset<I_>, std::addressof(captured), sizeof(C_)), ...);
    }(std::index_sequence_for<C_...>{});
    const F_ &f = *std::launder(reinterpret_cast<const F_ *>(storage));
    using R_ = decltype(call_with_indices(f, x, y, z));
    if constexpr (std::is_void_v<R_>)
      call_with_indices(f, x, y, z);
    else if (result)
      *static_cast<std::remove_cvref_t<R_> *>(result) = call_with_indices(f, x, y, z);
    else
      (void)call_with_indices(f, x, y, z);
  }
};

/// The kernel of every lambda: work-item i of `count` runs the lambda for `first + i`.
template <class Site, class... C_>
OFFLOAD_KERNEL void lambda_kernel(C_... captured, std::size_t first, std::size_t count) {
  const std::size_t i =
      std::size_t(offload::block_id_x()) * offload::block_dim_x() + offload::thread_id_x();
  if (i < count)
    run_lambda(lambda_slot<Site>{}, first + i, 0, 0, nullptr, captured...);
}

/// The kernel of a 2-D or 3-D parallel_for: a grid of workgroups over (nx, ny, nz), work-item
/// (x, y, z) runs the lambda for those indices when inside.
template <class Site, class... C_>
OFFLOAD_KERNEL void lambda_kernel_nd(C_... captured, std::size_t nx, std::size_t ny, std::size_t nz) {
  const std::size_t x = std::size_t(offload::block_id_x()) * offload::block_dim_x() + offload::thread_id_x();
  if (x >= nx)
    return;
  // y and z beyond the grid's limit (65535 workgroups) in steps of the grid: most ranges run
  // each loop once.
  const std::size_t y_step = std::size_t(offload::grid_dim_y()) * offload::block_dim_y();
  const std::size_t z_step = std::size_t(offload::grid_dim_z()) * offload::block_dim_z();
  for (std::size_t z = std::size_t(offload::block_id_z()) * offload::block_dim_z() + offload::thread_id_z();
       z < nz; z += z_step)
    for (std::size_t y = std::size_t(offload::block_id_y()) * offload::block_dim_y() + offload::thread_id_y();
         y < ny; y += y_step)
      run_lambda(lambda_slot<Site>{}, x, y, z, nullptr, captured...);
}

/// The kernel of parallel_reduce: workgroups of reduce_threads work-items, each folding with
/// `op`, in the result's type T (as the host loop `init = op(init, f(i))` does), the values of
/// its indices (a grid-stride loop), then the workgroup's tree in shared memory; work-item 0
/// stores the workgroup's value in partials[workgroup] (the host folds them into the initial
/// value). Every workgroup has at least one index (the host launches at most count /
/// reduce_threads, rounded up); only the work-items that have one take part. R: the lambda's
/// value.
inline constexpr std::uint32_t reduce_threads = 256;
template <class Site, class T_, class R_, class Op, class... C_>
OFFLOAD_KERNEL void reduce_kernel(C_... captured, std::size_t first, std::size_t count, Op op,
                                  offload::device_ptr<T_> partials) {
  auto &scratch = offload::shared<T_[reduce_threads]>([] {});
  const std::uint32_t t = offload::thread_id_x();
  const std::size_t block_first = std::size_t(offload::block_id_x()) * reduce_threads;
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * reduce_threads;
  std::size_t i = block_first + t;
  T_ acc{};
  if (i < count) {
    R_ v{};
    run_lambda(lambda_slot<Site>{}, first + i, 0, 0, &v, captured...);
    acc = static_cast<T_>(v);
    for (i += stride; i < count; i += stride) {
      R_ w{};
      run_lambda(lambda_slot<Site>{}, first + i, 0, 0, &w, captured...);
      acc = static_cast<T_>(op(acc, static_cast<T_>(w)));
    }
  }
  scratch[t] = acc;
  offload::barrier();
  const std::size_t left = count - block_first;
  const std::uint32_t active = left >= reduce_threads ? reduce_threads : std::uint32_t(left);
  for (std::uint32_t half = reduce_threads / 2; half > 0; half >>= 1) {
    if (t < half && t + half < active)
      scratch[t] = static_cast<T_>(op(scratch[t], scratch[t + half]));
    offload::barrier();
  }
  if (t == 0)
    partials[offload::block_id_x()] = scratch[0];
}

template <class Site, class F_> struct lambda_checks;
template <unsigned long long Id, class... C_, class... E_, class F_>
struct lambda_checks<lambda_site<Id, captures<C_...>, E_...>, F_> {
  static_assert(lambda_rank<F_> != 0,
                "offload::parallel_for: the lambda must take its indices (one std::size_t, or "
                "auto; two or three for a range2d or range3d) and not be mutable");
  static_assert(std::is_trivially_copyable_v<F_>,
                "offload::parallel_for: the lambda's captures must be trivially copyable: "
                "numbers, structs of numbers, std::span, offload::device_ptr (a std::span of a "
                "container, not the container; a std::pair's or std::tuple's members, not it)");
  static_assert(sizeof(F_) == capture_layout<C_...>::size && alignof(F_) == capture_layout<C_...>::align,
                "offload::parallel_for: the lambda's closure is not laid out as offload-cxx "
                "expects: is a #pragma pack in effect where the lambda is written? (end it "
                "before the lambda; otherwise please report it with the lambda)");
  static constexpr bool ok = true;
};

/// The steps every lambda launch takes first (parallel_for, parallel_reduce, a queue's
/// parallel_for): the lambda's checks, and the definition of its site's run_lambda.
template <class Site, class F_> struct lambda_launch;
template <unsigned long long Id, class... C_, class... E_, class F_>
struct lambda_launch<lambda_site<Id, captures<C_...>, E_...>, F_> {
  using site = lambda_site<Id, captures<C_...>, E_...>;
  static_assert(lambda_checks<site, F_>::ok);
  static constexpr std::size_t defined = sizeof(lambda_definition<site, F_>);  // run_lambda

  /// The number of indices of `items`; `what` names the call in the error of a range that ends
  /// before it begins.
  static std::size_t count(const range_at &r, const char *what) {
    if (r.items.end < r.items.begin)
      throw_error_at(what, r.where.file_name(), r.where.line(),
                     "the range [" + std::to_string(r.items.begin) + ", " +
                         std::to_string(r.items.end) + ") ends before it begins");
    return r.items.end - r.items.begin;
  }

  /// Calls `use(captured...)` with f's captures, as the kernel's parameters take them.
  template <class Use> static void with_captures(const F_ &f, Use &&use);
};

/// The captures of f, read at their places in its closure.
template <class... C_, class F_> std::tuple<C_...> captures_of(const F_ &f) {
  using layout = capture_layout<C_...>;
  const auto bytes = std::bit_cast<std::array<unsigned char, sizeof(F_)>>(f);
  return [&]<std::size_t... I_>(std::index_sequence<I_...>) {
    return std::tuple<C_...>{[&] {
      std::array<unsigned char, sizeof(C_)> one;
      std::memcpy(one.data(), bytes.data() + layout::template offset<I_>, sizeof(C_));
      return std::bit_cast<std::remove_cv_t<C_>>(one);
    }()...};
  }(std::index_sequence_for<C_...>{});
}

template <unsigned long long Id, class... C_, class... E_, class F_>
template <class Use>
void lambda_launch<lambda_site<Id, captures<C_...>, E_...>, F_>::with_captures(const F_ &f, Use &&use) {
  static_assert(defined != 0);
  std::apply([&](const std::remove_cv_t<C_> &...captured) { use(captured...); },
             captures_of<C_...>(f));
}

} // namespace detail

} // namespace offload

#pragma pack(pop)
