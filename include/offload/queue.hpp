// offload/queue.hpp — in-order streams: launches and copies enqueued on a queue return at once
// and run in order; wait() synchronises, copies mapped data back, and throws the first error
// (naming the kernel and its launch's file:line). Host objects a queued launch maps must stay
// alive, and unchanged by the host, until the queue's wait().
//
//   offload::queue q;
//   q.launch(step, cfg, &a);      // returns at once
//   q.launch(step, cfg, &a);      // runs after the first; a stays on the device
//   auto e = q.record();          // an event: e.wait(), e.done()
//   q.wait();                     // a copied back here
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/buffer.hpp>
#include <offload/detail/data_api.hpp>
#include <offload/detail/lambda_kernels.hpp>
#include <offload/launch.hpp>
#include <offload/parallel_for.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <source_location>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

namespace offload {

namespace detail {
template <class T_> struct is_std_span : std::false_type {};
template <class T_, std::size_t N_> struct is_std_span<std::span<T_, N_>> : std::true_type {};
} // namespace detail

/// A point in a queue; done once the queue has run everything enqueued before it.
class event {
public:
  event() = default;
  void wait() const {
    if (state_)
      detail::event_wait(*state_);
  }
  bool done() const { return !state_ || detail::event_done(*state_); }

private:
  friend class queue;
  friend double elapsed_ms(const event &, const event &, std::source_location);
  explicit event(std::shared_ptr<detail::event_state> s) : state_(std::move(s)) {}
  std::shared_ptr<detail::event_state> state_;
};

class event;
/// Milliseconds between two events of a queue (as cudaEventElapsedTime): the time from the
/// queue reaching `start`, everything before it done, to its reaching `end`. Waits for both.
/// On a GPU the events are marks on the queue's stream, timed by the device (cuEventElapsedTime:
/// about half a microsecond); on the CPU device, the host's clock when the queue reaches each.
double elapsed_ms(const event &start, const event &end,
                  std::source_location where = std::source_location::current());

class queue {
public:
  explicit queue(int device = default_device,
                 std::source_location where = std::source_location::current())
      : device_(detail::resolve_device(device, "queue", detail::to_source_loc(where))),
        state_(detail::queue_create(device_)) {}
  queue(const queue &) = delete;
  queue &operator=(const queue &) = delete;
  /// Waits for the queue. An error nobody waited for is reported on stderr and ends the program
  /// with exit status 1 (as an uncaught offload::error would), unless another exception is
  /// already on its way.
  ~queue() {
    if (detail::queue_inherited_by_fork(*state_))
      return;  // a child of fork(): the launches are the parent's (waiting here is an error)
#if OFFLOAD_DETAIL_EXCEPTIONS
    try {
      wait();
    } catch (const std::exception &e) {
      std::fprintf(stderr, "%s (found when the queue was destroyed without wait())\n", e.what());
      if (std::uncaught_exceptions() == 0)
        std::exit(1);
    }
#else
    wait();
#endif
  }

  /// Enqueues a launch (arguments as for offload::launch) and returns at once.
  template <class... P_, class... A_>
  void launch(void (*kernel)(P_...), detail::config_literal &&config, A_ &&...args) {
    enqueue_launch(nullptr, kernel, config.config(), std::forward<A_>(args)...);
  }
  template <class... P_, class... A_>
  void launch(void (*kernel)(P_...), detail::config_at config, A_ &&...args) {
    enqueue_launch(nullptr, kernel, config.config, std::forward<A_>(args)...);
  }
  /// Enqueues a launch over `range{n}` (as offload::launch's; the queue's device chooses).
  template <class... P_, class... A_>
  void launch(void (*kernel)(P_...), detail::range_at r, A_ &&...args) {
    enqueue_launch(&r.items, kernel, r.config(), std::forward<A_>(args)...);
  }

  /// Enqueues a copy from host memory into a buffer (host must stay alive until it runs). The
  /// host side is anything a std::span views (a std::vector, a std::array, a span).
  template <class T_>
  void copy(const buffer<T_> &dst, std::type_identity_t<std::span<const T_>> host,
            std::source_location where = std::source_location::current()) {
    enqueue_copy(dst.data().get(), host.data(), host.size(), dst.size(), true, where);
  }
  /// Enqueues a copy from a buffer into host memory.
  template <class T_>
  void copy(std::type_identity_t<std::span<T_>> host, const buffer<T_> &src,
            std::source_location where = std::source_location::current()) {
    enqueue_copy(host.data(), src.data().get(), host.size(), src.size(), false, where);
  }
  /// A temporary container (not a span) would be gone before the copy runs: refused — keep the
  /// data in a variable that lives until the queue has run the copy.
  template <class T_, class R_>
    requires(!std::is_lvalue_reference_v<R_> && !detail::is_std_span<std::remove_cvref_t<R_>>::value)
  void copy(const buffer<T_> &dst, R_ &&temporary_host_data,
            std::source_location where = std::source_location::current()) = delete;

  /// Enqueues a fill of the buffer's elements [offset, offset + count) with `value` (all of them
  /// without offset and count), as cudaMemsetAsync; the buffer must stay alive until it runs.
  template <class T_>
  void fill(buffer<T_> &dst, const T_ &value, std::source_location where = std::source_location::current()) {
    fill(dst, value, 0, dst.size(), where);
  }
  template <class T_>
  void fill(buffer<T_> &dst, const T_ &value, std::size_t offset, std::size_t count,
            std::source_location where = std::source_location::current()) {
    if (!detail::copy_range_fits(count, offset, dst.size()))
      detail::fill_does_not_fit(count, offset, dst.size(), detail::to_source_loc(where));
    struct fill_step final : detail::queue_step {
      detail::device_handle device;
      T_ value;
      detail::source_loc where;
      detail::fill_request request{};  // its pattern: value
      void run() override {
        detail::fill_device(device, request.dst, &value, sizeof(T_), request.count, where);
      }
      const detail::fill_request *fill() const noexcept override { return &request; }
      std::uint64_t copy_bytes() const noexcept override { return request.count * sizeof(T_); }
    };
    auto step = std::make_unique<fill_step>();
    step->device = dst.device_handle();
    step->value = value;
    step->where = detail::to_source_loc(where);
    step->request = {(dst.data() + offset).get(), &step->value, sizeof(T_), count};
    detail::queue_host_step(*state_, std::move(step));
  }

  /// Enqueues a copy of `count` elements between buffers (as offload::copy; the buffers must
  /// stay alive until it runs).
  template <class T_>
  void copy(buffer<T_> &dst, std::size_t dst_offset, const buffer<T_> &src, std::size_t src_offset,
            std::size_t count, std::source_location where = std::source_location::current()) {
    dst.check_fits(count, dst_offset, where);
    src.check_fits(count, src_offset, where);
    struct copy_step final : detail::queue_step {
      detail::device_handle to, from;
      void *dst;
      const void *src;
      std::uint64_t bytes;
      detail::source_loc where;
      void run() override { detail::copy_between_devices(to, dst, from, src, bytes, where); }
      std::uint64_t copy_bytes() const noexcept override { return bytes; }
    };
    auto step = std::make_unique<copy_step>();
    step->to = dst.device_handle();
    step->from = src.device_handle();
    step->dst = (dst.data() + dst_offset).get();
    step->src = (src.data() + src_offset).get();
    step->bytes = count * sizeof(T_);
    step->where = detail::to_source_loc(where);
    detail::queue_host_step(*state_, std::move(step));
  }

  /// Enqueues `f(i)` for every i of `items`, a lambda kernel (offload/parallel_for.hpp; the
  /// call as offload-cxx rewrites it), and returns at once. The data its spans capture must
  /// live, unchanged by the host, until the queue's wait().
  template <unsigned long long Id, class... C_, class... E_, class F_>
  void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...>, detail::range_at items,
                    const F_ &f) {
    using site = detail::lambda_site<Id, detail::captures<C_...>, E_...>;
    using steps = detail::lambda_launch<site, F_>;
    const std::size_t count = steps::count(items, "offload::queue::parallel_for");
    if (count == 0)
      return;
    const range over{count};
    steps::with_captures(f, [&](const std::remove_cv_t<C_> &...captured) {
      enqueue_launch(&over, &detail::lambda_kernel<site, std::remove_cv_t<C_>...>, items.config(),
                     captured..., items.items.begin, count);
    });
  }

  /// Enqueues `f(x, y)` for every x < items.nx, y < items.ny (f(x, y, z) for a range3d), as
  /// offload::parallel_for over a range2d or range3d, and returns at once.
  template <unsigned long long Id, class... C_, class... E_, class F_>
  void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...>, const range2d &items,
                    const F_ &f, std::source_location where = std::source_location::current()) {
    enqueue_nd<detail::lambda_site<Id, detail::captures<C_...>, E_...>, C_...>(items.nx, items.ny, 1, 2, f, where);
  }
  template <unsigned long long Id, class... C_, class... E_, class F_>
  void parallel_for(detail::lambda_site<Id, detail::captures<C_...>, E_...>, const range3d &items,
                    const F_ &f, std::source_location where = std::source_location::current()) {
    enqueue_nd<detail::lambda_site<Id, detail::captures<C_...>, E_...>, C_...>(items.nx, items.ny, items.nz, 3, f,
                                                                       where);
  }

  /// Waits for everything enqueued so far (throwing its first error, as wait()), then folds
  /// `op` over init and `f(i)` for every i of `items` on the queue's device and returns the
  /// result, as offload::parallel_reduce (offload/parallel_for.hpp) does: a value the host needs
  /// now, as Kokkos's parallel_reduce into a scalar.
  template <unsigned long long Id, class... C_, class... E_, class T_, class F_, class Op = std::plus<>>
  T_ parallel_reduce(detail::lambda_site<Id, detail::captures<C_...>, E_...> site,
                    detail::range_at items, T_ init, const F_ &f, Op op = {}) {
    wait();
    return detail::parallel_reduce_on(device(), site, items, init, f, op);
  }

  /// Without offload-cxx's rewrite (a host compiler alone): runs on the host, in order, now.
  template <class F_>
    requires std::is_invocable_v<const F_ &, std::size_t>
  void parallel_for(const range &items, const F_ &f) {
    wait();
    for (std::size_t i = items.begin; i < items.end; ++i)
      f(i);
  }
  template <class F_> void parallel_for(const range2d &items, const F_ &f) {
    wait();
    offload::parallel_for(items, f);
  }
  template <class F_> void parallel_for(const range3d &items, const F_ &f) {
    wait();
    offload::parallel_for(items, f);
  }
  template <class T_, class F_, class Op = std::plus<>>
    requires std::is_invocable_v<const F_ &, std::size_t>
  T_ parallel_reduce(const range &items, T_ init, const F_ &f, Op op = {}) {
    wait();
    return offload::parallel_reduce(items, init, f, op);
  }

  /// An event that completes when everything enqueued so far has run.
  event record() { return event(detail::queue_record(*state_)); }
  /// Waits for everything enqueued so far; throws the first error of those operations.
  void wait() { detail::queue_wait(*state_); }
  /// The device number (a GPU), or offload::cpu_device.
  int device() const { return device_.gpu >= 0 ? device_.gpu : cpu_device; }

private:
  template <class... P_, class... A_>
  void enqueue_launch(const range *over, void (*kernel)(P_...), const launch_config &config,
                      A_ &&...args) {
    static_assert(sizeof...(P_) == sizeof...(A_),
                  "queue::launch: the number of arguments differs from the kernel's parameters");
    static_assert((detail::check_argument<P_, A_>() && ...));
    static_assert(!(detail::maps_a_temporary<P_, A_>() || ...),
                  "queue::launch: an argument is a temporary (a container, array or object made "
                  "in the call) that the kernel would map: it is destroyed before the queued "
                  "launch runs; keep it in a variable that lives until the queue's wait()");
    auto job = std::make_unique<detail::prepared_launch<P_...>>(kernel, config,
                                                               std::forward<A_>(args)...);
    if (over)
      job->over_range(*over);
    detail::queue_launch(*state_, std::move(job));
  }

  template <class Site, class... C_, class F_>
  void enqueue_nd(std::size_t nx, std::size_t ny, std::size_t nz, unsigned rank, const F_ &f,
                  const std::source_location &where) {
    detail::check_nd<F_>(rank, nx, ny, nz, where);
    if (nx == 0 || ny == 0 || nz == 0)
      return;
    const launch_config config = detail::nd_launch_config(default_device, nx, ny, nz, rank, where);
    detail::lambda_launch<Site, F_>::with_captures(f, [&](const std::remove_cv_t<C_> &...captured) {
      enqueue_launch(nullptr, &detail::lambda_kernel_nd<Site, std::remove_cv_t<C_>...>, config,
                     captured..., nx, ny, nz);
    });
  }

  template <class T_>
  void enqueue_copy(T_ *dst, const T_ *src, std::size_t n, std::size_t capacity, bool to_device,
                    const std::source_location &where) {
    const detail::source_loc loc = detail::to_source_loc(where);
    if (n > capacity)
      detail::copy_does_not_fit(n, capacity, loc);
    struct copy_step final : detail::queue_step {
      detail::device_handle device;
      void *dst;
      const void *src;
      std::uint64_t bytes;
      bool to_device;
      detail::source_loc where;
      void run() override {
        if (to_device)
          detail::copy_to_device(device, dst, src, bytes, where);
        else
          detail::copy_to_host(device, dst, src, bytes, where);
      }
      std::uint64_t copy_bytes() const noexcept override { return bytes; }
    };
    auto step = std::make_unique<copy_step>();
    step->device = device_;
    step->dst = dst;
    step->src = src;
    step->bytes = n * sizeof(T_);
    step->to_device = to_device;
    step->where = loc;
    detail::queue_host_step(*state_, std::move(step));
  }

  detail::device_handle device_;
  std::shared_ptr<detail::queue_state> state_;
};

inline double elapsed_ms(const event &start, const event &end, std::source_location where) {
  if (!start.state_ || !end.state_)
    detail::throw_error("offload-cxx: error: elapsed_ms at " + std::string(where.file_name()) + ":" +
                std::to_string(where.line()) +
                ": an event that no queue recorded (use the event queue::record() returns)");
  return detail::event_elapsed_ms(*start.state_, *end.state_);
}

} // namespace offload

#pragma pack(pop)
