// offload/launch.hpp — one call launches a kernel and maps its arguments by their types.
//
//   offload::launch(fill<double>, {.workgroups = {256, 1, 1}}, &x, 2.5);
//
// The argument list is checked against the kernel's parameters at compile time; each parameter
// is classified by offload/abi.hpp. On a GPU the runtime maps the arguments through
// libomptarget; on the CPU device it calls the host-compiled kernel once per work-item.
#pragma once

#include <offload/abi.hpp>
#include <offload/detail/runtime_api.hpp>
#include <offload/device.hpp>

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

/// The device chosen by the runtime: the first GPU that holds an image of the kernel, else the
/// CPU device.
inline constexpr int default_device = -1;
/// The CPU device: runs the host-compiled kernel on the host's cores, whether or not a GPU is
/// present. GPUs are numbered 0, 1, ... in the order libomptarget finds them.
inline constexpr int cpu_device = -2;

/// The device that ran the calling thread's last successful launch, e.g. "CUDA device 0 (sm_90)"
/// or "CPU device (4 threads)"; empty before the first launch.
std::string last_launch_device();

/// How to launch: every field is optional. `workgroups` is the number of workgroups in each
/// dimension, `threads` the threads (work-items) in each workgroup.
struct launch_config {
  dim3 workgroups{1, 1, 1};
  dim3 threads{1, 1, 1};
  std::uint32_t dynamic_shared_bytes = 0;
  int device = default_device;
  /// Filled in at the launch: a default member initializer's source_location::current() is the
  /// place of the aggregate initialization, i.e. the launch's `{...}`.
  std::source_location where = std::source_location::current();
};

namespace detail {

/// Describes parameter P, whose value (already converted from the user's argument) is `param`.
template <class P> arg_desc describe_param(const std::remove_reference_t<P> &param) {
  constexpr abi::param_kind kind = abi::param_kind_v<P>;
  if constexpr (kind == abi::param_kind::map_tofrom || kind == abi::param_kind::map_to) {
    using object = typename abi::param_traits<P>::object;
    const void *address;
    if constexpr (std::is_pointer_v<P>)
      address = static_cast<const void *>(param);
    else
      address = static_cast<const void *>(std::addressof(param));
    return {kind, address, sizeof(object), 0};
  } else if constexpr (kind == abi::param_kind::literal) {
    return {kind, nullptr, sizeof(P), abi::literal_to_slot(param)};
  } else {
    return {kind, std::addressof(param), sizeof(P), 0};  // value_copy: map a copy of the value
  }
}

template <class... P, std::size_t... I>
void launch_converted(void (*kernel)(P...), const launch_config &config,
                      std::tuple<P...> &params, std::index_sequence<I...>) {
  arg_desc descs[sizeof...(P) + 1] = {describe_param<P>(std::get<I>(params))...};

  struct cpu_context {
    void (*kernel)(P...);
    std::tuple<P...> *params;
  } context{kernel, &params};
  cpu_body_fn cpu_body = [](void *raw) {
    auto *ctx = static_cast<cpu_context *>(raw);
    ctx->kernel(static_cast<P>(std::get<I>(*ctx->params))...);
  };

  launch_request request{reinterpret_cast<const void *>(kernel),
                         config.workgroups,
                         config.threads,
                         config.dynamic_shared_bytes,
                         config.device,
                         {config.where.file_name(), config.where.function_name(),
                          config.where.line(), config.where.column()},
                         descs,
                         static_cast<std::uint32_t>(sizeof...(P)),
                         cpu_body,
                         &context};
  launch(request);
}

} // namespace detail

/// Launches `kernel` with `args` and waits for it. Each argument converts to the kernel's
/// parameter as in a call; pointed-to and referenced objects are copied to the device and back
/// (to only, for const), values travel by value. Throws offload::error on failure.
template <class... P, class... A>
void launch(void (*kernel)(P...), const launch_config &config, A &&...args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "offload::launch: the number of arguments differs from the kernel's parameters");
  static_assert((std::is_convertible_v<A &&, P> && ...),
                "offload::launch: an argument does not convert to its kernel parameter");
#if !defined(OFFLOAD_IMPL_HOST_METADATA_PASS)  // the tool reports it with the parameter's name
  static_assert(((abi::param_kind_v<P> != abi::param_kind::unmappable) && ...),
                "offload::launch: a kernel parameter cannot be mapped to the device: pass "
                "arithmetic or enum values, trivially copyable structs by value, or pointers/"
                "references to trivially copyable objects without pointer members");
#endif
  std::tuple<P...> params(static_cast<P>(std::forward<A>(args))...);
  detail::launch_converted(kernel, config, params, std::index_sequence_for<P...>{});
}

} // namespace offload
