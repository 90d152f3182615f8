// runtime/cpu_in_place.hpp — on the CPU device, a plain launch reads the objects its kernel only
// reads where they lie, instead of copying them.
//
// The CPU device's memory is the host's, and a plain launch (offload::launch, a range launch)
// runs to its end before it returns. An object that the kernel's parameter makes read-only
// (`const U*`, `const U&`, `std::span<const U>`, mapped `to`; U a scalar or an array of them:
// a class may have a `mutable` member, which a kernel writes through a const view — the second
// adversarial pass of 2026-12-07) reads the same bytes in the host
// object as in a copy made at the launch, so the copy is skipped: its slot becomes the host
// address, as a device_ptr's. The copy was a memcpy as long as a streaming kernel's whole run
// (a new user's axpy + dot over four 64 MiB spans spent more time copying its three inputs than
// computing: bench/NOTES.md). Copied as before:
//   * an object a data region or a running launch holds (the table has an entry over any of its
//     bytes): its copy may be newer than the host's bytes;
//   * one that another argument the kernel may write overlaps (mapped from, tofrom, alloc, or
//     `to` through a non-const parameter): on a GPU both are one copy and the read sees the
//     write, which a read of the host object would not;
//   * a queued launch's: the host may change the object before the launch runs.
// A kernel that writes through a const parameter (a const_cast) writes the host object itself;
// on a GPU it writes a copy that never comes back — undefined in C++ for a const object, and
// a kernel the guide tells not to write. A kernel that faults while some object it reads in
// place cannot be read gets the error a copy of it gives ("an argument's memory ... cannot be
// read"), not a fault's.
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace offload::rt {

class device;
struct map_site;

class in_place_reads {
public:
  /// Whether some argument of `request` is read in place; then request() is the launch with
  /// those slots as literals (their host addresses). `site` names the slots in OFFLOAD_INFO lines.
  bool take(device &cpu, const detail::launch_request &request, const map_site &site);
  const detail::launch_request &request() const { return request_; }
  /// After the launch failed: when an object read in place cannot be read (a pointer that is no
  /// host object's), throws the error its copy would have given, naming `context`; else returns.
  void explain_failure(const std::string &context) const;

private:
  detail::launch_request request_{};
  std::vector<detail::arg_desc> args_;
  std::vector<detail::arg_desc> original_;  ///< the descriptions of the slots read in place
};

/// Whether every page of [p, p + bytes) can be read (a load of one byte per page, faults caught).
bool cpu_host_readable(const void *p, std::uint64_t bytes);

} // namespace offload::rt
