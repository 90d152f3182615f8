// offload/region.hpp — a scoped data region: maps host objects to the device once, for many
// launches. Launches inside find the data there and copy nothing; the region's end copies back.
//
//   {
//     offload::data_region region({}, &a, offload::to(&b));   // a to+from, b to
//     for (int i = 0; i < 10; ++i) offload::launch(step, cfg, &a, &b);   // no copies
//     region.update_from(&a);                                  // explicit copy back, mid-way
//   }                                                          // a copied back here
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/detail/data_api.hpp>
#include <offload/launch.hpp>
#include <offload/map.hpp>

#include <exception>
#include <memory>
#include <source_location>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace offload {

/// Where a data region lives; every field optional.
struct region_config {
  int device = default_device;
  std::source_location where = std::source_location::current();
};

namespace detail {
/// Describes one mapped object: a pointer to an object (or to a whole array), or anything a
/// std::span can view (a span, std::vector, std::array, a C array).
template <class M_> arg_desc describe_map(M_ &&m) {
  using traits = map_traits_of<M_>;
  auto &&v = traits::value(std::forward<M_>(m));
  using V_ = std::remove_cvref_t<decltype(v)>;
  transfer how;
  const void *ptr;
  std::uint64_t bytes;
  bool is_const;
  if constexpr (std::is_pointer_v<V_>) {
    using object = std::remove_pointer_t<V_>;
    static_assert(abi::detail::mappable_object_v<std::remove_cv_t<object>>,
                  "offload: a region maps trivially copyable objects without pointers");
    ptr = v;
    bytes = sizeof(object);
    is_const = std::is_const_v<object>;
  } else {
    auto s = std::span(v);
    using element = typename decltype(s)::element_type;
    static_assert(abi::detail::mappable_object_v<std::remove_cv_t<element>>,
                  "offload: a region maps trivially copyable objects without pointers");
    ptr = s.data();
    bytes = s.size_bytes();
    is_const = std::is_const_v<element>;
  }
  if constexpr (traits::explicit_direction)
    how = traits::how;
  else
    how = is_const ? transfer::to : transfer::tofrom;
  return {how, ptr, bytes, 0};
}
} // namespace detail

/// Maps objects on a device for the region's lifetime (to+from by default; const → to; or as
/// offload::to/from/tofrom/alloc say). On the CPU device it copies nothing.
class data_region {
public:
  template <class... M_>
  explicit data_region(const region_config &config, M_ &&...maps)
      : where_(detail::to_source_loc(config.where)),
        device_(detail::resolve_device(config.device, "data region", where_)),
        maps_{detail::describe_map(std::forward<M_>(maps))...} {
    detail::region_data(device_, detail::data_op::begin, maps_.data(),
                        static_cast<std::uint32_t>(maps_.size()), where_);
  }
  data_region(const data_region &) = delete;
  data_region &operator=(const data_region &) = delete;
  /// Ends the region. Its end may report a failure (a copy back that fails, or a launch inside it
  /// that returned before its kernel failed on a GPU): the error is thrown to the code around the
  /// region, unless another exception is already on its way (then it is dropped: that one wins).
  ~data_region() noexcept(false) {
    if (std::uncaught_exceptions() == 0) {
      end();
      return;
    }
#if OFFLOAD_DETAIL_EXCEPTIONS
    try {
      end();
    } catch (...) {
    }
#endif
  }

  /// Copies the host's current values of `m` (one of the region's objects) to the device.
  template <class M_>
  void update_to(M_ &&m, std::source_location where = std::source_location::current()) {
    update(detail::data_op::update_to, detail::describe_map(std::forward<M_>(m)), where);
  }
  /// Copies the device's current values of `m` back to the host.
  template <class M_>
  void update_from(M_ &&m, std::source_location where = std::source_location::current()) {
    update(detail::data_op::update_from, detail::describe_map(std::forward<M_>(m)), where);
  }
  /// Ends the region now (copying back what maps from); the destructor then does nothing.
  void end() {
    if (std::exchange(ended_, true))
      return;
    detail::region_data(device_, detail::data_op::end, maps_.data(),
                        static_cast<std::uint32_t>(maps_.size()), where_);
  }

  /// The device number (a GPU), or offload::cpu_device.
  int device() const { return device_.gpu >= 0 ? device_.gpu : cpu_device; }

private:
  void update(detail::data_op op, detail::arg_desc map, const std::source_location &where) {
    map.how = detail::transfer::tofrom;
    detail::region_data(device_, op, &map, 1, detail::to_source_loc(where));
  }

  detail::source_loc where_;
  detail::device_handle device_;
  std::vector<detail::arg_desc> maps_;
  bool ended_ = false;
};

} // namespace offload

#pragma pack(pop)
