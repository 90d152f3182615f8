// runtime/present_table.hpp — which host objects a device holds copies of, for every device
// alike. A kernel works on device copies of the objects its pointer, reference and span
// arguments name; data regions keep copies across launches. Each entry is a host range, its
// device copy and a reference count: mapping an object that lies inside an entry counts it
// (nothing is copied); mapping a new one allocates its copy and copies in by its direction
// (to, tofrom; on the CPU device from too); the last release copies back what the directions
// say (from, tofrom) and frees the copy. Objects of one call that overlap (`k(&x, &x)`, two
// spans of one array) share one entry, their union; an object that overlaps an entry without
// lying inside it is refused (a GPU program cannot have two copies of one byte).
//
// OFFLOAD_INFO shows the table's changes and copies in libomptarget's words ("Creating new map
// entry", "Copying data from host to device", "Removing map entry"), each naming the kernel's
// parameter and the launch's file:line.
//
// unmap() and update() first wait for the device's deferred launches (deferred_launches.hpp),
// outside the table's lock, and so does map() when it makes a new copy (a copy in after a
// deferred launch's fault would fail naming no launch).
#pragma once

#include <offload/detail/data_api.hpp>
#include <offload/detail/runtime_api.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace offload::rt {

class device;
class stream;

/// What a map call is, for its errors and OFFLOAD_INFO lines.
struct map_site {
  /// "kernel 'k' launched at f.cpp:3", "data region at f.cpp:9" (made only for an error).
  std::function<std::string()> context;
  detail::source_loc where;
  const std::vector<std::string> *names = nullptr;  ///< each slot's name (a kernel's parameters)
};

class present_table {
public:
  /// Tables are locked around fork() (pthread_atfork), so that a child never inherits one held
  /// by a parent's thread that is not in the child.
  explicit present_table(device &owner);
  ~present_table();
  /// Held across fork() (present_table.cpp's handlers): no launch is half-way through a table.
  void lock_for_fork() { lock_.lock(); }
  void unlock_for_fork() { lock_.unlock(); }
  present_table(const present_table &) = delete;
  present_table &operator=(const present_table &) = delete;

  /// Maps the n arguments (literals and empty or null ones are not mapped) and, when `slots` is
  /// given, sets slots[i] to argument i's device value (a literal as it is, a mapped object at
  /// its copy). `allocations`, when given, receives each argument's entry's allocation (null for
  /// those not mapped): a fenced device checks them after the kernel (device::check_after_launch).
  /// Returns whether any argument was mapped. Throws offload::error naming `site` (nothing stays
  /// mapped then).
  bool map(const detail::arg_desc *args, std::uint32_t n, abi::slot_t *slots, const map_site &site,
           void **allocations = nullptr);
  /// Releases what map() took for the same arguments; an entry whose count reaches zero copies
  /// back this call's objects whose direction says so (unless `copy_back` is false: after a
  /// failed launch nothing comes back) and is freed. Throws offload::error when a copy fails
  /// (every entry is released first).
  /// `launch_failed`: a launch that used these objects failed as it ran, so their copies are
  /// not trusted: nothing of them comes back, now or at a later release (a data region's end
  /// after a faulting launch leaves the host objects as they were).
  /// `check_fences` (a data region's end): on a fenced device, an entry's last release first
  /// checks its copy's fence; when a kernel wrote past a copy, nothing of this call comes back
  /// and offload::error says which object (each launch checks its own objects as it ends: this
  /// finds what no launch's check saw).
  void unmap(const detail::arg_desc *args, std::uint32_t n, bool copy_back, const map_site &site,
             bool launch_failed = false, bool check_fences = false);
  /// Whether unmap() now would copy one of these objects back (its entry's last references are
  /// this call's).
  bool release_copies_back(const detail::arg_desc *args, std::uint32_t n);
  /// unmap() at the end of a launch that may still run on `unwaited` (stream::copy_out_waits):
  /// the first copy back waits for the kernel; when nothing comes back, the stream is waited for
  /// before anything is freed. Returns false, with the device's reason in `launch_failure`, when
  /// the kernel failed: nothing came back and the objects' copies are not trusted (as unmap()
  /// with `launch_failed`). Throws as unmap() when a later copy fails.
  bool unmap_after_launch(const detail::arg_desc *args, std::uint32_t n, const map_site &site,
                          stream &unwaited, std::string &launch_failure);
  /// Releases what map() took for the same arguments when that copies nothing back and frees
  /// nothing — every object stays held by a data region or another launch — and returns true;
  /// otherwise changes nothing and returns false. (A launch may then return before its kernel
  /// ends: deferred_launches.hpp.)
  bool release_if_held(const detail::arg_desc *args, std::uint32_t n);
  /// Before a launch maps its arguments: whether one of them is not mapped yet (nothing holds
  /// it), so that the launch maps it alone and copies it back or frees it when it ends: it will
  /// be waited for at once (release_if_held returns false).
  bool released_by_launch(const detail::arg_desc *args, std::uint32_t n);
  /// Copies present objects' bytes to the device (`to_device`) or back; others are left alone.
  void update(const detail::arg_desc *args, std::uint32_t n, bool to_device, const map_site &site);

  /// Whether any argument needs mapping (values and device pointers do not: a hot path).
  static bool maps_anything(const detail::arg_desc *args, std::uint32_t n);
  /// Whether an entry holds any byte of [begin, end) (cpu_in_place.hpp).
  bool holds_any(std::uintptr_t begin, std::uintptr_t end);
  /// "NAME at FILE:LINE" for slot `slot` of the call `site` describes (OFFLOAD_INFO lines).
  std::string name_of(std::uint32_t slot, const map_site &site) const;

private:
  struct entry {
    std::uintptr_t end;
    char *copy;        ///< the device copy of the byte at the entry's begin
    void *allocation;  ///< what device::allocate returned
    unsigned references;
    bool untrusted = false;  ///< a launch on it failed: nothing comes back from it
  };
  using entries = std::map<std::uintptr_t, entry>;  // by host begin
  /// An entry holding some of a call's arguments: how many, and whether one of them copies back.
  struct mention {
    entry *held;
    unsigned count;
    bool copies_back;
  };
  /// The entries holding args' mapped objects (lock held); `all_held` false when one has none.
  std::vector<mention> mentions(const detail::arg_desc *args, std::uint32_t n, bool &all_held);

  /// The entry holding [begin, end) whole, or entries_.end() (no check for partial overlaps).
  entries::iterator holder(std::uintptr_t begin, std::uintptr_t end);
  /// The entry holding [begin, end), or entries_.end(); throws (naming `site`) when the range
  /// only overlaps one.
  entries::iterator find(std::uintptr_t begin, std::uintptr_t end, const map_site &site);
  /// Counts down the entries of args (in reverse), copies back, frees; returns the first copy
  /// failure's reason (empty when none).
  /// `unwaited`, `launch_failure`: as unmap_after_launch.
  std::string release(const detail::arg_desc *args, std::uint32_t n, bool copy_back,
                      const map_site &site, bool launch_failed = false, bool check_fences = false,
                      stream *unwaited = nullptr, std::string *launch_failure = nullptr);

  device &device_;
  std::mutex lock_;
  entries entries_;
};

} // namespace offload::rt
