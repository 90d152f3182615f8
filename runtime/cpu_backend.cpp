// runtime/cpu_backend.cpp — the CPU device behind the device interface (device.hpp): its memory
// is host memory (the present table still makes copies, so results do not depend on where a
// program runs), and its stream runs each launch at once on the worker pool (cpu_device.cpp),
// turning what the kernel did — a fault, a throw — into the launch's error.
#include "cpu_backend.hpp"

#include "lazy_objects.hpp"

#include "cpu_device.hpp"
#include "cpu_fault.hpp"
#include "cpu_memory.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace offload::rt {
namespace {

// A kernel that writes past an object it was given (cpu_memory.hpp fences each one): these name
// the object in the launch's error.

/// "parameter 'y'" ("argument 2" of a kernel no program registered).
std::string parameter_text(const kernel_info *kernel, std::uint32_t slot) {
  if (kernel && slot < kernel->param_names.size() && !kernel->param_names[slot].empty())
    return "parameter '" + kernel->param_names[slot] + "'";
  return "argument " + std::to_string(slot + 1);
}

/// The slot of `request` whose object lies in block `b`: a mapped argument's copy, or a buffer's
/// address passed as a value; of several, the one that ends at the object's end (`after`) or
/// begins at its start. -1 when none.
int slot_in(const detail::launch_request &request, const abi::slot_t *slots,
            const cpu_memory::block_info &b, bool after) {
  int found = -1;
  for (std::uint32_t i = 0; i < request.num_args; ++i) {
    const detail::arg_desc &a = request.args[i];
    const std::uintptr_t at = slots[i];
    const bool in = a.how != detail::transfer::literal
                        ? at >= b.begin && at < b.end
                        : b.buffer && a.bytes == sizeof(void *) && at >= b.begin && at <= b.end;
    if (!in)
      continue;
    if (found < 0)
      found = static_cast<int>(i);
    const std::uintptr_t end = a.how != detail::transfer::literal ? at + a.bytes : b.end;
    if (after ? end == b.end : at == b.begin)
      return static_cast<int>(i);
  }
  return found;
}

/// "the CPU device's copy of parameter 'y' (4 bytes)", "the buffer passed as parameter 'b'
/// (4096 bytes)".
std::string object_text(const kernel_info *kernel, const detail::launch_request &request,
                        std::uint32_t slot, const cpu_memory::block_info &b) {
  const detail::arg_desc &a = request.args[slot];
  if (a.how == detail::transfer::literal)
    return "the buffer passed as " + parameter_text(kernel, slot) + " (" +
           std::to_string(b.end - b.begin) + " bytes)";
  return "the CPU device's copy of " + parameter_text(kernel, slot) + " (" +
         std::to_string(a.bytes) + " bytes)";
}

/// Why a mapped object may be smaller than the kernel thinks: a pointer or reference parameter
/// maps one object (a span's data slot is followed by its ".size()").
std::string hint(const kernel_info *kernel, const detail::launch_request &request,
                 std::uint32_t slot) {
  if (request.args[slot].how == detail::transfer::literal)
    return "";
  if (kernel && slot + 1 < kernel->param_names.size() &&
      kernel->param_names[slot + 1] == kernel->param_names[slot] + ".size()")
    return "";
  return " (a pointer or reference parameter maps one object: pass a std::span for an array)";
}

/// What a fault in the guard pages around an object means: ", at byte offset 520 of the CPU
/// device's copy of parameter 'y' (400 bytes), past its end (...)" — the offset from the
/// object's start, which divided by the element's size is the index the kernel used (new user:
/// "N bytes beyond the end" read one too many either way); "" for other faults.
std::string guard_page_text(const kernel_info *kernel, const detail::launch_request &request,
                            const abi::slot_t *slots, const cpu_fault &fault) {
  if (fault.stack_overflow || (fault.signal != SIGSEGV && fault.signal != SIGBUS))
    return "";
  cpu_memory::block_info b;
  if (!cpu_memory::find(fault.address, b))
    return "";
  const auto address = reinterpret_cast<std::uintptr_t>(fault.address);
  if (address >= b.begin && address < b.end)
    return "";
  const bool after = address >= b.end;
  const std::string offset =
      after ? std::to_string(address - b.begin) : "-" + std::to_string(b.begin - address);
  const std::string side = after ? ", past its end" : ", before its start";
  const int slot = slot_in(request, slots, b, after);
  if (slot < 0)
    return ", at byte offset " + offset + " of an object of " + std::to_string(b.end - b.begin) +
           " bytes on the CPU device that is none of this launch's arguments" + side +
           " (the kernel went farther than the guard pages after its own objects, or reached "
           "another)";
  return ", at byte offset " + offset + " of " + object_text(kernel, request, slot, b) + side +
         hint(kernel, request, static_cast<std::uint32_t>(slot));
}

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
           f.fault.describe(f.fiber_stack_bytes) + guard_page_text(kernel, request, slots, f.fault) +
               "; the host's data is as it was before the launch");
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
  cpu_device_impl() : device(-1, cpu_device_name()) { fenced_ = true; }
  // Every block is fenced (cpu_memory.hpp): what allocate() makes is a buffer's memory.
  void *allocate(std::uint64_t bytes) override {
    void *memory = cpu_memory::allocate(0, bytes, /*buffer=*/true);
    if (memory)
      live_buffers_.fetch_add(1, std::memory_order_relaxed);
    return memory;
  }
  void *allocate_copy(std::uint64_t offset, std::uint64_t bytes) override {
    return cpu_memory::allocate(offset, bytes, /*buffer=*/false);
  }
  void release(void *memory) noexcept override {
    // Launches check the buffers they are given as values; a write that no check saw (the
    // kernel reached the buffer through a pointer in an object, say) is told by the next
    // operation on the device, or at exit.
    cpu_memory::block_info b;
    const cpu_memory::damage d = cpu_memory::release(memory, &b);
    if (b.memory)  // a buffer's
      live_buffers_.fetch_sub(1, std::memory_order_relaxed);
    if (d)
      try {
        deferred().keep_failure(
            "offload-cxx: error: a kernel on " + name() + " " +
            describe({d.before, d.after},
                     "a buffer of " + std::to_string(b.end - b.begin) + " bytes") +
            " (found when the buffer was released: no launch given it as a parameter wrote "
            "there)");
      } catch (...) {  // out of memory for the message: the buffer is gone anyway
      }
  }
  void check_after_launch(const kernel_info *kernel, const detail::launch_request &request,
                          const abi::slot_t *slots, void *const *allocations,
                          bool report) override {
    // Every launch passes here: the loop stays small, the error is made apart.
    for (std::uint32_t i = 0; i < request.num_args; ++i) {
      void *memory = allocations[i];
      if (!memory) {  // a buffer's address, passed as a value?
        const detail::arg_desc &a = request.args[i];
        if (a.how != detail::transfer::literal || a.bytes != sizeof(void *) ||
            !(memory = cpu_memory::find_buffer(slots[i])))
          continue;
      }
      if (const cpu_memory::damage d = cpu_memory::check(memory); d && report) [[unlikely]]
        fail_written(kernel, request, slots, memory, d, i);
    }
  }
  /// The error of a launch whose argument `i` (at `memory`) had its fence written.
  [[noreturn, gnu::noinline, gnu::cold]] void fail_written(const kernel_info *kernel,
                                                          const detail::launch_request &request,
                                                          const abi::slot_t *slots, void *memory,
                                                          cpu_memory::damage d, std::uint32_t i) {
    cpu_memory::block_info b;
    cpu_memory::describe(memory, b);
    const int found = slot_in(request, slots, b, d.after != 0);
    const std::uint32_t slot = found < 0 ? i : static_cast<std::uint32_t>(found);
    fail(launch_site_text(request, kernel) + " failed on " + name(),
         "it " + describe({d.before, d.after}, object_text(kernel, request, slot, b)) +
             hint(kernel, request, slot) + "; the host's data is as it was before the launch");
  }
  fence_damage check_fence(void *allocation) override {
    const cpu_memory::damage d = cpu_memory::check(allocation);
    return {d.before, d.after};
  }
  void do_copy_in(void *dst, const void *src, std::uint64_t bytes) override {
    // The host object may not be readable (a bad pointer argument): a fault here is the
    // launch's error, not the program's death.
    if (!cpu_device_copy(dst, src, bytes, true))
      device_fails("it is not the host object the argument should point at");
  }
  void do_copy_out(void *dst, const void *src, std::uint64_t bytes) override {
    // Host memory the program cannot write (a read-only mapping, in part or whole) is found
    // before any byte is written: the copy's error, the host object as it was (it was the
    // program's SIGSEGV in the copy back: adversarial pass).
    if (!host_writable(dst, bytes))
      device_fails("the host memory it goes to cannot be written (read-only)");
    cpu_device_copy(dst, src, bytes, false);
  }
  /// Whether every page of [dst, dst + bytes) can be written: a value-preserving atomic write
  /// (or 0) to one byte of each page, faults caught.
  static bool host_writable(void *dst, std::uint64_t bytes) {
    if (bytes == 0)
      return true;
    struct range {
      unsigned char *at;
      std::uint64_t bytes;
    } r{static_cast<unsigned char *>(dst), bytes};
    auto touch = [](void *raw) {
      const range &r = *static_cast<const range *>(raw);
      constexpr std::uintptr_t page = 4096;
      const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(r.at);
      const std::uintptr_t last = first + r.bytes - 1;
      for (std::uintptr_t pg = first / page;; ++pg) {
        const std::uintptr_t p = std::max(first, pg * page);
        __atomic_fetch_or(reinterpret_cast<unsigned char *>(p), static_cast<unsigned char>(0),
                          __ATOMIC_RELAXED);
        if (pg == last / page)
          break;
      }
    };
    cpu_fault fault;
    return run_catching_faults(touch, &r, fault);
  }
  void do_copy_within(void *dst, const void *src, std::uint64_t bytes) override {
    const auto d = reinterpret_cast<std::uintptr_t>(dst), s = reinterpret_cast<std::uintptr_t>(src);
    if (d + bytes <= s || s + bytes <= d)
      cpu_device_copy(dst, src, bytes, false);
    else
      std::memmove(dst, src, bytes);
  }
  void do_fill(void *dst, const void *pattern, std::uint32_t pattern_bytes,
               std::uint64_t count) override {
    auto *at = static_cast<unsigned char *>(dst);
    if (pattern_bytes == 1) {
      std::memset(at, *static_cast<const unsigned char *>(pattern), count);
      return;
    }
    // The pattern once, then what is written so far copied after itself (doubling).
    const std::uint64_t total = count * pattern_bytes;
    std::uint64_t done = std::min<std::uint64_t>(pattern_bytes, total);
    std::memcpy(at, pattern, done);
    while (done < total) {
      const std::uint64_t n = std::min(done, total - done);
      std::memcpy(at + done, at, n);
      done += n;
    }
  }
  std::unique_ptr<stream> open_stream() override { return std::make_unique<cpu_stream>(name()); }
  bool from_copies_in() const override { return true; }
};

} // namespace

device &the_cpu_device() {
  static made_once<device> cpu;  // never destroyed: used until exit
  return cpu.get([](bool) -> device * { return new cpu_device_impl; });
}

} // namespace offload::rt
