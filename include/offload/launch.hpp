// offload/launch.hpp — one call launches a kernel and maps its arguments by their types.
//
//   offload::launch(fill<double>, {.workgroups = {256, 1, 1}}, &x, 2.5);
//
// The argument list is checked against the kernel's parameters at compile time; each parameter
// is classified by offload/abi.hpp (an argument wrapped in offload::to/from/tofrom/alloc takes
// that direction instead). On a GPU the runtime maps the arguments through libomptarget; on the
// CPU device it calls the host-compiled kernel once per work-item.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/abi.hpp>
#include <offload/detail/runtime_api.hpp>
#include <offload/device.hpp>
#include <offload/range.hpp>
#include <offload/map.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <source_location>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace offload {

/// A failed launch or other runtime error. what() is one line naming the kernel and the
/// launch's file:line.
class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Whether the including file has exceptions (g++'s -fno-exceptions defines neither). Without
// them offload's headers still compile; an error then ends the program with its message and exit
// status 1, as an uncaught offload::error does (tests/lit/e2e/strict_headers.test).
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define OFFLOAD_DETAIL_EXCEPTIONS 1
#else
#define OFFLOAD_DETAIL_EXCEPTIONS 0
#endif
namespace detail {
/// Throws offload::error(message), from the runtime (a header's `throw` is refused under
/// -fno-exceptions).
[[noreturn]] void throw_error(const std::string &message);
/// Throws offload::error "offload-cxx: error: WHAT at FILE:LINE: WHY", as the runtime's own.
[[noreturn]] void throw_error_at(const char *what, const char *file, unsigned line,
                                 const std::string &why);
} // namespace detail

/// The device chosen by the runtime: the first GPU that holds an image of the kernel, else the
/// CPU device.
inline constexpr int default_device = -1;
/// The CPU device: runs the host-compiled kernel on the host's cores, whether or not a GPU is
/// present. GPUs are numbered 0, 1, ... in the order libomptarget finds them.
inline constexpr int cpu_device = -2;

/// Launch limits every device enforces alike (those of NVIDIA and AMD GPUs), so that a launch
/// that runs on the CPU device runs on any GPU: at most 1024 threads in a workgroup (64 in z);
/// at most 2^31-1 workgroups in x and 65535 in y and z; at most 227 KiB of dynamic shared memory
/// per workgroup (the most any supported GPU grants: NVIDIA sm_90; AMD GPUs grant 64 KiB, and
/// a launch above a GPU's own limit fails there).
inline constexpr std::uint32_t max_workgroup_threads = 1024;
inline constexpr std::uint32_t max_dynamic_shared_bytes = 227 * 1024;
inline constexpr std::uint32_t max_workgroup_threads_z = 64;
inline constexpr std::uint32_t max_workgroups_x = 2147483647u;
inline constexpr std::uint32_t max_workgroups_yz = 65535;

/// Waits for every launch that returned before its kernel ended (offload::launch), on every
/// device; throws offload::error naming the launch when one failed. Launches that wait, and
/// queues (queue::wait), need no call.
void synchronize();

/// The device that ran the calling thread's last successful launch, e.g. "CUDA device 0"
/// or "CPU device (4 threads)"; empty before the first launch.
std::string last_launch_device();

/// How to launch: every field is optional. `workgroups` is the number of workgroups in each
/// dimension, `threads` the threads (work-items) in each workgroup.
struct launch_config {
  dim3 workgroups{1, 1, 1};
  dim3 threads{1, 1, 1};
  byte_count dynamic_shared_bytes = 0;
  int device = default_device;
  /// The launch's place, filled in by offload::launch / queue::launch: a braced `{...}` written
  /// in the call records its own place (a default member initializer's current() is the
  /// aggregate initialization's); a named config passed to a launch records the launch call's
  /// (detail::config_at).
  std::source_location where = std::source_location::current();
};

namespace detail {

inline source_loc to_source_loc(const std::source_location &where) {
  return {where.file_name(), where.function_name(), where.line(), where.column()};
}

/// Whether an object of type T cannot be written through a const view: no class can hold a
/// `mutable` member (which a kernel may write through `const T&`), so only scalars and arrays
/// of them. Such objects a plain launch on the CPU device may read in place
/// (runtime/cpu_in_place.hpp); a class is copied, as on a GPU.
template <class T_>
inline constexpr bool read_only_through_const = std::is_scalar_v<std::remove_all_extents_t<T_>>;

/// Describes parameter P (its converted value `param`) as abi::slot_count_v<P> launch slots.
template <class P_, bool Explicit, transfer How>
void describe_param(const std::remove_reference_t<P_> &param, arg_desc *out) {
  constexpr abi::param_kind kind = abi::param_kind_v<P_>;
  using object = typename abi::param_traits<P_>::object;
  if constexpr (kind == abi::param_kind::map_tofrom || kind == abi::param_kind::map_to) {
    const void *address;
    if constexpr (std::is_pointer_v<P_>)  // const_cast: the pointee may be volatile
      address = const_cast<const void *>(static_cast<const volatile void *>(param));
    else
      address = const_cast<const void *>(static_cast<const volatile void *>(std::addressof(param)));
    constexpr transfer fallback = kind == abi::param_kind::map_to ? transfer::to : transfer::tofrom;
    out[0] = {Explicit ? How : fallback, address, sizeof(object), 0, 0,
              kind == abi::param_kind::map_to && read_only_through_const<object>};
  } else if constexpr (kind == abi::param_kind::span_tofrom || kind == abi::param_kind::span_to) {
    constexpr transfer fallback = kind == abi::param_kind::span_to ? transfer::to : transfer::tofrom;
    // A span whose byte size does not fit 64 bits says so (refused at the launch) rather than
    // wrapping to a small copy.
    const std::uint64_t bytes = param.size() > SIZE_MAX / sizeof(object) ? UINT64_MAX
                                                                          : param.size_bytes();
    out[0] = {Explicit ? How : fallback, param.data(), bytes, 0, sizeof(object),
              kind == abi::param_kind::span_to && read_only_through_const<object>};
    out[1] = {transfer::literal, nullptr, sizeof(abi::slot_t), abi::slot_t(param.size())};
  } else if constexpr (kind == abi::param_kind::device) {
    std::uint64_t element = 0;
    if constexpr (!std::is_void_v<object> && requires { sizeof(object); })
      element = sizeof(object);
    out[0] = {transfer::literal, nullptr, sizeof(void *), abi::address_slot(param.get()), element};
  } else if constexpr (kind == abi::param_kind::literal) {
    // A value of more than 8 bytes: one literal slot per 8 of its bytes, each saying the whole
    // value's size (so that none is taken for a buffer's address passed as a value).
    abi::slot_t slots[abi::slot_count_v<P_>];
    abi::literal_to_slots(param, slots);
    for (unsigned i = 0; i < abi::slot_count_v<P_>; ++i)
      out[i] = {transfer::literal, nullptr, sizeof(P_), slots[i]};
  } else {
    out[0] = {transfer::to, std::addressof(param), sizeof(P_), 0};  // a mapped copy of the value
  }
}

/// A launch_config written in the launch call, `{.workgroups = ..., .threads = ...}`: the same
/// fields, in the same order, and an aggregate, so a braced list initialises it and its `where`
/// is the call's. Not a launch_config, so that a launch_config value (a named one, one a
/// function returns, a moved one) takes config_at instead and records the call's place.
struct config_literal {
  dim3 workgroups{1, 1, 1};
  dim3 threads{1, 1, 1};
  byte_count dynamic_shared_bytes = 0;
  int device = default_device;
  std::source_location where = std::source_location::current();

  launch_config config() const {
    return {workgroups, threads, dynamic_shared_bytes, device, where};
  }
};
static_assert(sizeof(config_literal) == sizeof(launch_config),
              "config_literal mirrors launch_config: add a field to both");

/// A launch_config value passed to a launch, with the place of the launch call: the default
/// argument of this converting constructor is evaluated where the conversion happens, i.e. at
/// the `offload::launch(k, cfg, ...)` call, so a config reused by many launches names each one.
struct config_at {
  launch_config config;
  config_at(const launch_config &c, std::source_location where = std::source_location::current())
      : config(c) {
    config.where = where;
  }
};

/// The type argument A reaches its parameter as: A&& for a plain argument (so an lvalue binds a
/// non-const reference and a container converts to a span, as in a call), the wrapped argument
/// for offload::to/from/tofrom/alloc.
template <class A_>
using forwarded_arg_t = decltype(map_traits_of<A_>::value(std::declval<A_>()));

/// Checks one (parameter, argument) pair at compile time.
template <class P_, class A_> constexpr bool check_argument() {
  using M_ = map_traits_of<A_>;
  static_assert(std::is_convertible_v<forwarded_arg_t<A_>, P_>,
                "offload::launch: an argument does not convert to its kernel parameter");
#if !defined(OFFLOAD_IMPL_HOST_METADATA_PASS)  // the tool reports it with the parameter's name
  static_assert(abi::param_kind_v<P_> != abi::param_kind::unmappable,
                "offload::launch: a kernel parameter cannot be mapped to the device: pass "
                "arithmetic or enum values, trivially copyable structs by value, pointers/"
                "references/spans of trivially copyable objects without pointer members, or "
                "offload::device_ptr");
#endif
  constexpr abi::param_kind k = abi::param_kind_v<P_>;
  constexpr bool maps = k == abi::param_kind::map_tofrom || k == abi::param_kind::map_to ||
                        k == abi::param_kind::span_tofrom || k == abi::param_kind::span_to;
  static_assert(!M_::explicit_direction || maps,
                "offload::to/from/tofrom/alloc apply to pointer, reference and span parameters; "
                "values always travel by value");
  static_assert(!M_::explicit_direction ||
                    !(k == abi::param_kind::map_to || k == abi::param_kind::span_to) ||
                    M_::how == transfer::to || M_::how == transfer::alloc,
                "offload::from/tofrom on a const parameter: the kernel cannot write the data "
                "that would be copied back");
  return true;
}

/// Whether argument A reaches parameter P as a reference into a temporary (a container, array
/// or object made in the call, e.g. `make_vector()` for a std::span parameter). offload::launch
/// is done with it before the temporary dies; a queued launch runs later, after it has died.
template <class P_, class A_> constexpr bool maps_a_temporary() {
  constexpr abi::param_kind k = abi::param_kind_v<P_>;
  if constexpr (std::is_pointer_v<P_> ||
                !(k == abi::param_kind::map_tofrom || k == abi::param_kind::map_to ||
                  k == abi::param_kind::span_tofrom || k == abi::param_kind::span_to)) {
    return false;  // a pointer argument is an address, and values are copied
  } else {
    using F_ = forwarded_arg_t<A_>;
    using V_ = std::remove_cvref_t<F_>;
    // A span or pointer made in the call refers to memory that outlives it.
    return !std::is_lvalue_reference_v<F_> && !std::is_pointer_v<V_> &&
           !abi::is_special_class<V_>::value;
  }
}

/// A launch with its converted arguments and slot descriptions, owning everything the runtime
/// reads: kept on the stack for offload::launch, on the heap for a queue.
class launch_job {
public:
  virtual ~launch_job() = default;
  virtual const launch_request &request() const = 0;
};

template <class... P_> class prepared_launch final : public launch_job {
public:
  static constexpr unsigned total_slots = (0u + ... + abi::slot_count_v<P_>);

  template <class... A_>
  prepared_launch(void (*kernel)(P_...), const launch_config &config, A_ &&...args)
      : kernel_(kernel),
        params_(static_cast<P_>(map_traits_of<A_>::value(std::forward<A_>(args)))...) {
    describe<A_...>(std::index_sequence_for<P_...>{});
    request_ = {reinterpret_cast<const void *>(kernel),
                config.workgroups,
                config.threads,
                config.dynamic_shared_bytes,
                config.device,
                to_source_loc(config.where),
                descs_.data(),
                total_slots,
                &run_on_cpu,
                this};
  }
  prepared_launch(const prepared_launch &) = delete;
  prepared_launch &operator=(const prepared_launch &) = delete;

  const launch_request &request() const override { return request_; }

  /// Makes this a launch over `items` (the runtime shapes it for the device).
  void over_range(const range &items) {
    request_.is_range = true;
    request_.range_begin = items.begin;
    request_.range_end = items.end;
  }

private:
  template <class... A_, std::size_t... I_> void describe(std::index_sequence<I_...>) {
    constexpr unsigned counts[] = {abi::slot_count_v<P_>..., 0u};
    unsigned first[sizeof...(P_) + 1] = {};
    for (std::size_t i = 0; i < sizeof...(P_); ++i)
      first[i + 1] = first[i] + counts[i];
    (describe_param<P_, map_traits_of<A_>::explicit_direction, map_traits_of<A_>::how>(
         std::get<I_>(params_), descs_.data() + first[I_]),
     ...);
  }

  /// One work-item on the CPU device: the arguments as a GPU would rebuild them from the slots,
  /// which point at the CPU device's copies of mapped objects (so that a write through an
  /// offload::to argument never reaches the host object, as on a GPU).
  static void run_on_cpu(void *self, const abi::slot_t *slots) {
    auto *job = static_cast<prepared_launch *>(self);
    // (An unmappable parameter is reported by check_argument, once.)
    if constexpr (((abi::param_kind_v<P_> != abi::param_kind::unmappable) && ...))
      [&]<std::size_t... I_>(std::index_sequence<I_...>) {
        job->kernel_(abi::from_slots<P_>(slots + first_slot<I_>())...);
      }(std::index_sequence_for<P_...>{});
  }

  /// The first slot of parameter I.
  template <std::size_t I_> static constexpr unsigned first_slot() {
    constexpr unsigned counts[] = {abi::slot_count_v<P_>..., 0u};
    unsigned offset = 0;
    for (std::size_t k = 0; k < I_; ++k)
      offset += counts[k];
    return offset;
  }

  void (*kernel_)(P_...);
  std::tuple<P_...> params_;
  std::array<arg_desc, total_slots + 1> descs_{};
  launch_request request_{};
};

} // namespace detail

namespace detail {
template <class... P_, class... A_>
void launch_and_wait(void (*kernel)(P_...), const launch_config &config, A_ &&...args) {
  static_assert(sizeof...(P_) == sizeof...(A_),
                "offload::launch: the number of arguments differs from the kernel's parameters");
  static_assert((detail::check_argument<P_, A_>() && ...));
  detail::prepared_launch<P_...> job(kernel, config, std::forward<A_>(args)...);
  detail::launch(job.request());
}
/// An offload::range passed to a launch, with the place of the launch call (as config_at).
struct range_at {
  range items;
  range_at(const range &r, std::source_location at = std::source_location::current())
      : items(r), where(at) {}
  std::source_location where;
  launch_config config() const { return {{1, 1, 1}, {1, 1, 1}, 0, default_device, where}; }
};

template <class... P_, class... A_>
void launch_range_and_wait(void (*kernel)(P_...), const range_at &r, A_ &&...args) {
  static_assert(sizeof...(P_) == sizeof...(A_),
                "offload::launch: the number of arguments differs from the kernel's parameters");
  static_assert((detail::check_argument<P_, A_>() && ...));
  detail::prepared_launch<P_...> job(kernel, r.config(), std::forward<A_>(args)...);
  job.over_range(r.items);
  detail::launch(job.request());
}
} // namespace detail

/// Launches `kernel` with `args`. Each argument converts to the kernel's parameter as in a
/// call; pointed-to, referenced and spanned objects are copied to the device and back (to only,
/// for const; or as offload::to/from/tofrom/alloc say), values travel by value, device pointers
/// as they are. When something comes back to the host (or a copy is freed) the launch waits for
/// the kernel; otherwise — values, device pointers, buffers, objects a data region holds — on a
/// GPU it returns once the kernel is enqueued, as a CUDA launch does, and whatever could see the
/// kernel's effects waits for it first: a copy between host and device, a region's end, a
/// launch from another thread or queue, releasing a buffer, offload::synchronize(), the
/// program's exit (OFFLOAD_LAUNCH_BLOCKING=1: every launch waits). Throws offload::error on
/// failure, naming the launch's file:line — for a launch that returned early, at that next wait.
/// A config written in the call (`{.workgroups = ...}`) binds the first overload, a
/// launch_config value the second (which records the call's place).
template <class... P_, class... A_>
void launch(void (*kernel)(P_...), detail::config_literal &&config, A_ &&...args) {
  detail::launch_and_wait(kernel, config.config(), std::forward<A_>(args)...);
}
template <class... P_, class... A_>
void launch(void (*kernel)(P_...), detail::config_at config, A_ &&...args) {
  detail::launch_and_wait(kernel, config.config, std::forward<A_>(args)...);
}

/// Launches `kernel` over `range{n}` (n work-items, 1-D) on the default device (waiting as the
/// launch above): the
/// workgroup size is the device's choice — on GPUs the one with the highest occupancy for this
/// kernel (as cudaOccupancyMaxPotentialBlockSize), on the CPU device large workgroups — and the
/// grid is rounded up to whole workgroups, so the kernel compares global_id_x() with n, as any
/// CUDA kernel does. `offload::launch(scale, offload::range{n}, std::span(v), 2.0);`
template <class... P_, class... A_>
void launch(void (*kernel)(P_...), detail::range_at r, A_ &&...args) {
  detail::launch_range_and_wait(kernel, r, std::forward<A_>(args)...);
}

/// A function that returns a value is not a kernel: this overload only says so.
template <class R_, class... P_, class... A_>
  requires(!std::is_void_v<R_>)
void launch(R_ (*)(P_...), const launch_config &, A_ &&...) {
  static_assert(std::is_void_v<R_>,
                "offload::launch: a kernel must return void; write its results through its "
                "parameters");
}

} // namespace offload

#pragma pack(pop)
