// offload/buffer.hpp — memory that lives only on a device (no host copy), sized to gigabytes.
//
//   offload::buffer<double> a(n);                  // on the default device
//   a.copy_from(host);                              // host -> device
//   offload::launch(triad, cfg, a.data(), ...);     // kernels take offload::device_ptr<double>
//   a.copy_to(host);                                // device -> host
//   a.fill(0.0);                                    // every element, on the device
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/abi.hpp>
#include <offload/detail/data_api.hpp>
#include <offload/launch.hpp>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

namespace offload {

/// `count` elements of T in one device's memory. Move-only; frees on destruction.
template <class T_> class buffer {
  static_assert(std::is_trivially_copyable_v<T_>, "offload::buffer holds trivially copyable types");

public:
  explicit buffer(std::size_t count, int device = default_device,
                  std::source_location where = std::source_location::current())
      : device_(detail::resolve_device(device, "buffer", detail::to_source_loc(where))),
        count_(count) {
    if (count > SIZE_MAX / sizeof(T_))
      detail::buffer_size_overflows(count, sizeof(T_), detail::to_source_loc(where));
    ptr_ = static_cast<T_ *>(
        detail::device_allocate(device_, count * sizeof(T_), detail::to_source_loc(where)));
  }
  ~buffer() { detail::device_release(device_, ptr_); }
  buffer(buffer &&other) noexcept
      : device_(other.device_), ptr_(std::exchange(other.ptr_, nullptr)),
        count_(std::exchange(other.count_, 0)) {}
  buffer &operator=(buffer &&other) noexcept {
    if (this != &other) {
      detail::device_release(device_, ptr_);
      device_ = other.device_;
      ptr_ = std::exchange(other.ptr_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  /// The device address, for a kernel parameter of type offload::device_ptr<T>.
  device_ptr<T_> data() const { return {ptr_}; }
  std::size_t size() const { return count_; }
  std::size_t size_bytes() const { return count_ * sizeof(T_); }
  /// The device number (a GPU), or offload::cpu_device.
  int device() const { return device_.gpu >= 0 ? device_.gpu : cpu_device; }

  /// Copies `host` into the buffer's first host.size() elements.
  void copy_from(std::span<const T_> host,
                 std::source_location where = std::source_location::current()) {
    copy_from(host, 0, where);
  }
  /// Copies `host` into the buffer's elements [offset, offset + host.size()).
  void copy_from(std::span<const T_> host, std::size_t offset,
                 std::source_location where = std::source_location::current()) {
    check_fits(host.size(), offset, where);
    detail::copy_to_device(device_, ptr_ + offset, host.data(), host.size_bytes(),
                           detail::to_source_loc(where));
  }
  /// Copies the buffer's first host.size() elements into `host`.
  void copy_to(std::span<T_> host, std::source_location where = std::source_location::current()) const {
    copy_to(host, 0, where);
  }
  /// Copies the buffer's elements [offset, offset + host.size()) into `host`.
  void copy_to(std::span<T_> host, std::size_t offset,
               std::source_location where = std::source_location::current()) const {
    check_fits(host.size(), offset, where);
    detail::copy_to_host(device_, host.data(), ptr_ + offset, host.size_bytes(),
                         detail::to_source_loc(where));
  }

  /// Sets every element to `value` on the device, as cudaMemset (after this thread's launches;
  /// on a GPU a pattern of repeated 1-, 2- or 4-byte words is the driver's memset, any other
  /// value a copy of it repeated).
  void fill(const T_ &value, std::source_location where = std::source_location::current()) {
    fill(value, 0, count_, where);
  }
  /// Sets the elements [offset, offset + count) to `value`.
  void fill(const T_ &value, std::size_t offset, std::size_t count,
            std::source_location where = std::source_location::current()) {
    if (!detail::copy_range_fits(count, offset, count_))
      detail::fill_does_not_fit(count, offset, count_, detail::to_source_loc(where));
    detail::fill_device(device_, ptr_ + offset, &value, sizeof(T_), count, detail::to_source_loc(where));
  }

  /// Whether n elements at `offset` lie in the buffer; else the error at `where`.
  void check_fits(std::size_t n, std::size_t offset, const std::source_location &where) const {
    if (!detail::copy_range_fits(n, offset, count_)) {
      if (offset == 0)
        detail::copy_does_not_fit(n, count_, detail::to_source_loc(where));
      detail::copy_range_does_not_fit(n, offset, count_, detail::to_source_loc(where));
    }
  }
  /// The device and address (for copies between buffers, offload::copy).
  const detail::device_handle &device_handle() const { return device_; }

private:

  detail::device_handle device_;
  T_ *ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// Copies `count` elements from `src` (at element src_offset) to `dst` (at element dst_offset):
/// buffers of one device or of two, without a host round trip where the driver can avoid one.
/// The ranges must lie in their buffers (else offload::error naming this call's file:line).
template <class T_>
void copy(buffer<T_> &dst, std::size_t dst_offset, const buffer<T_> &src, std::size_t src_offset,
          std::size_t count, std::source_location where = std::source_location::current()) {
  dst.check_fits(count, dst_offset, where);
  src.check_fits(count, src_offset, where);
  detail::copy_between_devices(dst.device_handle(), (dst.data() + dst_offset).get(),
                               src.device_handle(), (src.data() + src_offset).get(),
                               count * sizeof(T_), detail::to_source_loc(where));
}

} // namespace offload

#pragma pack(pop)
