// tests/unit/counting_device.hpp — a runtime device (runtime/device.hpp) over host memory that
// counts what it is asked to do, and a stream whose waits are counted and can be made to fail:
// the present table's and the deferred launches' tests run on them.
#pragma once

#include "device.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>

namespace offload::rt::testing {

class counting_device final : public device {
public:
  counting_device() : device(0, "counting device") {}
  void *allocate(std::uint64_t bytes) override {
    ++allocations;
    return std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  }
  void release(void *memory) noexcept override {
    ++releases;
    std::free(memory);
  }
  void do_copy_in(void *dst, const void *src, std::uint64_t bytes) override {
    if (fail_copies_in && copies_in + 1 >= fail_copies_in)
      device_fails("refused by the test");
    ++copies_in;
    std::memcpy(dst, src, bytes);
  }
  void do_copy_out(void *dst, const void *src, std::uint64_t bytes) override {
    if (fail_copies_out && copies_out + 1 >= fail_copies_out)
      device_fails("an illegal memory access was encountered (the test's)");
    ++copies_out;
    std::memcpy(dst, src, bytes);
  }
  void do_copy_within(void *dst, const void *src, std::uint64_t bytes) override {
    std::memmove(dst, src, bytes);
  }
  std::unique_ptr<stream> open_stream() override;

  int allocations = 0, releases = 0, copies_in = 0, copies_out = 0;
  int fail_copies_in = 0;   // the n-th copy in fails (0: none)
  int fail_copies_out = 0;  // the n-th copy out fails, writing nothing (0: none)
};

/// A stream of counting_device: launches do nothing; sync() counts, and fails while `failing`.
class counting_stream final : public stream {
public:
  bool can_launch(const kernel_info *) override { return true; }
  void launch(const kernel_info *, const detail::launch_request &, const abi::slot_t *) override {
    ++launches;
  }
  void sync() override {
    ++syncs;
    if (failing)
      device_fails("an illegal memory access was encountered (the test's)");
  }
  bool can_defer() const override { return true; }
  bool copy_out_waits() const override { return waited_by_copy_out; }
  void ended_by_copy_out() override { ++ended_by_copies; }
  bool copy_out_in_order(void *dst, const void *src, std::uint64_t bytes) override {
    sync();
    ++copies_in_order;
    std::memcpy(dst, src, bytes);
    return true;
  }

  std::uint32_t occupancy_workgroup_size(const kernel_info &, std::uint32_t) override {
    return occupancy;
  }
  std::uint32_t compute_units() override { return units; }

  int launches = 0, syncs = 0, copies_in_order = 0, ended_by_copies = 0;
  bool failing = false;
  bool waited_by_copy_out = false;  // copy_out_waits (a GPU's launch on the legacy stream)
  std::uint32_t occupancy = 0, units = 0;  // what a GPU would say (0: it cannot)
};

/// An argument of `bytes` at `p`, mapped as `how` says.
inline detail::arg_desc map_arg(const void *p, std::uint64_t bytes, detail::transfer how) {
  return {how, p, bytes, 0};
}

inline std::unique_ptr<stream> counting_device::open_stream() {
  return std::make_unique<counting_stream>();
}

} // namespace offload::rt::testing
