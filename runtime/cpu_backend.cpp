// runtime/cpu_backend.cpp — the CPU device behind the device interface (device.hpp): its memory
// is host memory (the present table still makes copies, so results do not depend on where a
// program runs), and its stream runs each launch at once on the worker pool (cpu_device.cpp),
// turning what the kernel did — a fault, a throw — into the launch's error.
#include "cpu_backend.hpp"

#include "cpu_device.hpp"
#include "cpu_fault.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>

#include <cstdlib>
#include <cstring>

namespace offload::rt {
namespace {

class cpu_stream final : public stream {
public:
  explicit cpu_stream(const std::string &name) : name_(name) {}
  bool can_launch(const kernel_info *) override { return true; }
  void launch(const kernel_info *kernel, const detail::launch_request &request,
              const abi::slot_t *slots) override {
    try {
      cpu_device_run(request, slots, !kernel || kernel->uses_barriers,
                     kernel ? kernel->cpu_entry : nullptr);
    } catch (const offload::error &) {
      throw;
    } catch (const cpu_fault_error &f) {
      fail(launch_site_text(request, kernel) + " failed on " + name_,
           f.fault.describe(f.fiber_stack_bytes) + "; the host's data is as it was before the launch");
    } catch (const std::exception &e) {
      // A kernel cannot throw on a GPU (a throw there is a trap, a device fault): on the CPU
      // device it is the same kind of failure, an offload::error naming the kernel.
      throw offload::error("offload-cxx: error: " + launch_site_text(request, kernel) +
                           " threw an exception (" + e.what() + "); a kernel cannot throw on a "
                           "GPU, where a throw is a device fault");
    } catch (...) {
      throw offload::error("offload-cxx: error: " + launch_site_text(request, kernel) +
                           " threw an exception; a kernel cannot throw on a GPU, where a throw "
                           "is a device fault");
    }
  }
  void sync() override {}

private:
  const std::string &name_;
};

class cpu_device_impl final : public device {
public:
  cpu_device_impl() : device(-1, cpu_device_name()) {}
  void *allocate(std::uint64_t bytes) override {
    constexpr std::uint64_t alignment = 256;
    if (bytes > UINT64_MAX - alignment)
      return nullptr;
    return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  }
  void release(void *memory) noexcept override { std::free(memory); }
  void do_copy_in(void *dst, const void *src, std::uint64_t bytes) override {
    // The host object may not be readable (a bad pointer argument): a fault here is the
    // launch's error, not the program's death.
    struct copy {
      void *to;
      const void *from;
      std::uint64_t bytes;
    } c{dst, src, bytes};
    cpu_fault fault;
    if (!run_catching_faults(
            [](void *raw) {
              auto &c = *static_cast<copy *>(raw);
              std::memcpy(c.to, c.from, c.bytes);
            },
            &c, fault))
      device_fails("it is not the host object the argument should point at");
  }
  void do_copy_out(void *dst, const void *src, std::uint64_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void do_copy_within(void *dst, const void *src, std::uint64_t bytes) override {
    std::memmove(dst, src, bytes);
  }
  std::unique_ptr<stream> open_stream() override { return std::make_unique<cpu_stream>(name()); }
  bool from_copies_in() const override { return true; }
};

} // namespace

device &the_cpu_device() {
  static device *const cpu = new cpu_device_impl;  // never destroyed: used until exit
  return *cpu;
}

} // namespace offload::rt
