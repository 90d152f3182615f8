// offload/parallel_for.hpp — lambdas as kernels.
//
//   offload::parallel_for(offload::range{n}, [=](std::size_t i) { y[i] += a * x[i]; });
//   double dot = offload::parallel_reduce(offload::range{n}, 0.0,
//                                         [=](std::size_t i) { return x[i] * y[i]; });
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
// then lambda_kernel<Site, C...> (offload/detail/lambda_kernels.hpp), and everything after is an
// ordinary launch of it.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/buffer.hpp>
#include <offload/detail/lambda_kernels.hpp>
#include <offload/range.hpp>

#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace offload {

/// The smaller and the larger of two values, for parallel_reduce (as std::plus<> is the sum).
template <class T_ = void> struct minimum {
  constexpr T_ operator()(const T_ &a, const T_ &b) const { return b < a ? b : a; }
};
template <> struct minimum<void> {
  template <class A_, class B_> constexpr auto operator()(const A_ &a, const B_ &b) const {
    return b < a ? b : a;
  }
};
template <class T_ = void> struct maximum {
  constexpr T_ operator()(const T_ &a, const T_ &b) const { return a < b ? b : a; }
};
template <> struct maximum<void> {
  template <class A_, class B_> constexpr auto operator()(const A_ &a, const B_ &b) const {
    return a < b ? b : a;
  }
};

/// The indices of a 2-D and a 3-D parallel_for: x in [0, nx), y in [0, ny) (z in [0, nz)); x
/// varies fastest among neighbouring work-items (as CUDA's threadIdx.x). Extents of any integer
/// type, as range's (a negative or too large one is kept as SIZE_MAX, which a launch refuses).
struct range2d {
  std::size_t nx = 0, ny = 0;
  constexpr range2d() = default;
  template <class X_, class Y_>
    requires(std::is_integral_v<X_> && std::is_integral_v<Y_>)
  constexpr range2d(X_ x, Y_ y) : nx(range(x).end), ny(range(y).end) {}
};
struct range3d {
  std::size_t nx = 0, ny = 0, nz = 0;
  constexpr range3d() = default;
  template <class X_, class Y_, class Z_>
    requires(std::is_integral_v<X_> && std::is_integral_v<Y_> && std::is_integral_v<Z_>)
  constexpr range3d(X_ x, Y_ y, Z_ z) : nx(range(x).end), ny(range(y).end), nz(range(z).end) {}
};

namespace detail {

/// Throws offload::error at `where` when a lambda of F's indices is given a range of `rank`,
/// or an extent is negative or too large (range2d/range3d keep those as SIZE_MAX).
template <class F_>
void check_nd(unsigned rank, std::size_t nx, std::size_t ny, std::size_t nz,
              const std::source_location &where) {
  auto refuse = [&](const std::string &why) {
    detail::throw_error_at("offload::parallel_for", where.file_name(), where.line(),
                           "a range" + std::to_string(rank) + "d " + why);
  };
  if (lambda_rank<F_> != rank)
    refuse("needs a lambda of " + std::to_string(rank) + " indices");
  if (nx == SIZE_MAX || ny == SIZE_MAX || nz == SIZE_MAX)
    refuse("with a negative or out-of-range extent");
  if (nx / 32 >= UINT32_MAX)
    refuse("of x extent " + std::to_string(nx) + " needs more than 2^32 workgroups");
}
/// A 2-D or 3-D lambda's launch over nx x ny x nz (none zero): workgroups of 32 x 8 (x 1) or
/// 32 x 4 x 2 work-items.
inline launch_config nd_launch_config(int device, std::size_t nx, std::size_t ny, std::size_t nz,
                                      unsigned rank, const std::source_location &where) {
  const dim3 threads = rank == 2 ? dim3(32, 8, 1) : dim3(32, 4, 2);
  auto groups = [](std::size_t n, std::uint32_t t) { return (n + t - 1) / t; };
  // y and z above the grid's limit: the kernel steps over the rest (lambda_kernel_nd).
  auto capped = [&](std::size_t n, std::uint32_t t) {
    return std::min<std::size_t>(groups(n, t), max_workgroups_yz);
  };
  return {dim3(groups(nx, threads.x), capped(ny, threads.y), capped(nz, threads.z)), threads, 0,
          device, where};
}

/// A 2-D or 3-D lambda over nx x ny x nz (nd_launch_config).
template <unsigned long long Id, class... C_, class... E_, class F_>
void parallel_for_nd_on(int device, lambda_site<Id, captures<C_...>, E_...>, std::size_t nx,
                        std::size_t ny, std::size_t nz, unsigned rank, const F_ &f,
                        const std::source_location &where) {
  using site = lambda_site<Id, captures<C_...>, E_...>;
  using steps = lambda_launch<site, F_>;
  check_nd<F_>(rank, nx, ny, nz, where);
  if (nx == 0 || ny == 0 || nz == 0)
    return;
  const launch_config config = nd_launch_config(device, nx, ny, nz, rank, where);
  steps::with_captures(f, [&](const std::remove_cv_t<C_> &...captured) {
    prepared_launch<std::remove_cv_t<C_>..., std::size_t, std::size_t, std::size_t> job(
        &lambda_kernel_nd<site, std::remove_cv_t<C_>...>, config, captured..., nx, ny, nz);
    launch(job.request());
  });
}

template <unsigned long long Id, class... C_, class... E_, class F_>
void parallel_for_on(int device, lambda_site<Id, captures<C_...>, E_...>, const range_at &r,
                     const F_ &f) {
  using site = lambda_site<Id, captures<C_...>, E_...>;
  using steps = lambda_launch<site, F_>;
  const std::size_t count = steps::count(r, "offload::parallel_for");
  if (count == 0)  // an empty range runs nothing (a range launch needs a work-item)
    return;
  launch_config config = r.config();
  config.device = device;
  steps::with_captures(f, [&](const std::remove_cv_t<C_> &...captured) {
    prepared_launch<std::remove_cv_t<C_>..., std::size_t, std::size_t> job(
        &lambda_kernel<site, std::remove_cv_t<C_>...>, config, captured..., r.items.begin, count);
    job.over_range(range{count});
    launch(job.request());
  });
}


template <unsigned long long Id, class... C_, class... E_, class T_, class F_, class Op>
T_ parallel_reduce_on(int device, lambda_site<Id, captures<C_...>, E_...>, const range_at &r, T_ init,
                     const F_ &f, Op op) {
  using site = lambda_site<Id, captures<C_...>, E_...>;
  using steps = lambda_launch<site, F_>;
  using R_ = std::remove_cvref_t<std::invoke_result_t<const F_ &, std::size_t>>;
  static_assert(!std::is_void_v<R_>,
                "offload::parallel_reduce: the lambda must return the value of its index");
  static_assert(std::is_trivially_copyable_v<R_> && std::is_default_constructible_v<R_> &&
                    std::is_trivially_copyable_v<T_>,
                "offload::parallel_reduce: the values and the result must be trivially "
                "copyable and default-constructible (numbers, or structs of numbers)");
  // The partial results live in workgroup memory, which is not initialised.
  static_assert(std::is_trivially_default_constructible_v<T_>,
                "offload::parallel_reduce: the result's type must be trivially "
                "default-constructible (a struct without default member initialisers or a "
                "constructor of its own): give its identity as the initial value instead");
  static_assert(std::is_convertible_v<R_, T_>,
                "offload::parallel_reduce: the lambda's value must convert to the initial "
                "value's type, in which the values are combined");
  static_assert(std::is_invocable_v<const Op &, const T_ &, const T_ &>,
                "offload::parallel_reduce: the operation must combine two values (std::plus<>, "
                "offload::minimum<>, offload::maximum<>, or a struct with operator())");
  const std::size_t count = steps::count(r, "offload::parallel_reduce");
  if (count == 0)
    return init;
  const std::size_t groups = std::min<std::size_t>((count + reduce_threads - 1) / reduce_threads, 1024);
  buffer<T_> partials(groups, device, r.where);  // (its messages name the call)
  launch_config config = r.config();
  config.device = device;
  config.workgroups = dim3(groups);
  config.threads = dim3(reduce_threads);
  steps::with_captures(f, [&](const std::remove_cv_t<C_> &...captured) {
    prepared_launch<std::remove_cv_t<C_>..., std::size_t, std::size_t, Op, device_ptr<T_>> job(
        &reduce_kernel<site, T_, R_, Op, std::remove_cv_t<C_>...>, config, captured...,
        r.items.begin, count, op, partials.data());
    launch(job.request());
  });
  const std::unique_ptr<T_[]> values(new T_[groups]);  // (not a vector: vector<bool> has no data)
  partials.copy_to(std::span<T_>(values.get(), groups), r.where);
  T_ total = init;
  for (std::size_t g = 0; g < groups; ++g)
    total = static_cast<T_>(op(total, values[g]));
  return total;
}

} // namespace detail

/// Runs `f(i)` for every i of `items` on the default device (see the file's comment). Waits
/// as offload::launch does: when a captured span comes back, for the kernel.
template <unsigned long long Id, class... C_, class... E_, class F_>
void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...> site, detail::range_at items,
                  const F_ &f) {
  detail::parallel_for_on(default_device, site, items, f);
}
/// The same on `device` (offload::cpu_device, or a GPU's number).
template <unsigned long long Id, class... C_, class... E_, class F_>
void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...> site, int device,
                  detail::range_at items, const F_ &f) {
  detail::parallel_for_on(device, site, items, f);
}

/// Runs `f(x, y)` for every x < items.nx, y < items.ny (f(x, y, z) for a range3d), on the
/// default device or on `device`.
template <unsigned long long Id, class... C_, class... E_, class F_>
void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...> site, const range2d &items,
                  const F_ &f, std::source_location where = std::source_location::current()) {
  detail::parallel_for_nd_on(default_device, site, items.nx, items.ny, 1, 2, f, where);
}
template <unsigned long long Id, class... C_, class... E_, class F_>
void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...> site, int device,
                  const range2d &items, const F_ &f,
                  std::source_location where = std::source_location::current()) {
  detail::parallel_for_nd_on(device, site, items.nx, items.ny, 1, 2, f, where);
}
template <unsigned long long Id, class... C_, class... E_, class F_>
void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...> site, const range3d &items,
                  const F_ &f, std::source_location where = std::source_location::current()) {
  detail::parallel_for_nd_on(default_device, site, items.nx, items.ny, items.nz, 3, f, where);
}
template <unsigned long long Id, class... C_, class... E_, class F_>
void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...> site, int device,
                  const range3d &items, const F_ &f,
                  std::source_location where = std::source_location::current()) {
  detail::parallel_for_nd_on(device, site, items.nx, items.ny, items.nz, 3, f, where);
}

/// `op` (default: the sum) folded over init and `f(i)` for every i of `items`, on the default
/// device; the result has init's type. `op` must be associative and commutative (the values
/// are combined in a tree, in no set order), as std::reduce's; a type the device can name
/// (std::plus<>, offload::minimum<>, offload::maximum<>, a struct with operator()), not a lambda.
template <unsigned long long Id, class... C_, class... E_, class T_, class F_, class Op = std::plus<>>
T_ parallel_reduce(detail::lambda_site<Id, detail::captures<C_...>, E_...> site, detail::range_at items,
                  T_ init, const F_ &f, Op op = {}) {
  return detail::parallel_reduce_on(default_device, site, items, init, f, op);
}
/// The same on `device`.
template <unsigned long long Id, class... C_, class... E_, class T_, class F_, class Op = std::plus<>>
T_ parallel_reduce(detail::lambda_site<Id, detail::captures<C_...>, E_...> site, int device,
                  detail::range_at items, T_ init, const F_ &f, Op op = {}) {
  return detail::parallel_reduce_on(device, site, items, init, f, op);
}

/// Without offload-cxx's rewrite (a host compiler alone): run on the host, in order.
template <class F_> void parallel_for(const range &items, const F_ &f) {
  static_assert(std::is_invocable_v<const F_ &, std::size_t>,
                "offload::parallel_for: the lambda must take one index (std::size_t, or auto) "
                "and not be mutable (it runs as a kernel: nothing it changes in itself lasts)");
  for (std::size_t i = items.begin; i < items.end; ++i)
    f(i);
}
template <class F_> void parallel_for(int, const range &items, const F_ &f) {
  parallel_for(items, f);
}
template <class F_> void parallel_for(const range2d &items, const F_ &f) {
  static_assert(std::is_invocable_v<const F_ &, std::size_t, std::size_t>,
                "offload::parallel_for: a lambda over a range2d takes two indices (x, y), "
                "std::size_t or auto, and is not mutable");
  if constexpr (std::is_invocable_v<const F_ &, std::size_t, std::size_t>)  // one error, not two
    for (std::size_t y = 0; y < items.ny; ++y)
      for (std::size_t x = 0; x < items.nx; ++x)
        f(x, y);
}
template <class F_> void parallel_for(const range3d &items, const F_ &f) {
  static_assert(std::is_invocable_v<const F_ &, std::size_t, std::size_t, std::size_t>,
                "offload::parallel_for: a lambda over a range3d takes three indices (x, y, z), "
                "std::size_t or auto, and is not mutable");
  if constexpr (std::is_invocable_v<const F_ &, std::size_t, std::size_t, std::size_t>)
    for (std::size_t z = 0; z < items.nz; ++z)
      for (std::size_t y = 0; y < items.ny; ++y)
        for (std::size_t x = 0; x < items.nx; ++x)
          f(x, y, z);
}
template <class F_> void parallel_for(int, const range2d &items, const F_ &f) {
  parallel_for(items, f);
}
template <class F_> void parallel_for(int, const range3d &items, const F_ &f) {
  parallel_for(items, f);
}
template <class T_, class F_, class Op = std::plus<>>
T_ parallel_reduce(const range &items, T_ init, const F_ &f, Op op = {}) {
  static_assert(std::is_invocable_v<const F_ &, std::size_t>,
                "offload::parallel_reduce: the lambda must take one index (std::size_t, or auto) "
                "and not be mutable");
  for (std::size_t i = items.begin; i < items.end; ++i)
    init = op(init, f(i));
  return init;
}
template <class T_, class F_, class Op = std::plus<>>
T_ parallel_reduce(int, const range &items, T_ init, const F_ &f, Op op = {}) {
  return parallel_reduce(items, init, f, op);
}

} // namespace offload

#pragma pack(pop)
