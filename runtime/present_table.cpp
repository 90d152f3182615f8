// runtime/present_table.cpp — see present_table.hpp.
#include "present_table.hpp"

#include "device.hpp"
#include "settings.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <pthread.h>

namespace offload::rt {
namespace {
using detail::transfer;

bool copies_in(transfer how, bool from_too) {
  return how == transfer::to || how == transfer::tofrom || (from_too && how == transfer::from);
}
bool copies_back(transfer how) { return how == transfer::from || how == transfer::tofrom; }
bool is_mapped(const detail::arg_desc &a) {
  return a.how != transfer::literal && a.host_ptr && a.bytes;
}
std::uintptr_t begin_of(const detail::arg_desc &a) {
  return reinterpret_cast<std::uintptr_t>(a.host_ptr);
}

/// A copy keeps its host object's offset modulo this, so an over-aligned object stays aligned.
constexpr std::uintptr_t copy_alignment = 256;

std::string hex(std::uintptr_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016" PRIxPTR, v);
  return text;
}
std::string hex(const void *p) { return hex(reinterpret_cast<std::uintptr_t>(p)); }
} // namespace

namespace {
/// Every table, for the fork handlers.
struct all_tables {
  std::mutex lock;
  std::vector<present_table *> tables;
};
/// Made when the runtime is loaded (one thread), with the fork handlers: not at a first use,
/// which another thread of a parent may be in the middle of when a child is forked (its guard
/// then held the child's first launch for ever: adversarial pass, 2026-12-05).
all_tables *const every_table = [] {
  auto *all = new all_tables;  // never destroyed: fork may come at exit
  // Before fork: take every table's lock (no launch is half-way through one); after it, in the
  // parent and the child alike, give them back.
  auto give_back = [] {
    for (present_table *t : every_table->tables)
      t->unlock_for_fork();
    every_table->lock.unlock();
  };
  pthread_atfork(
      [] {
        every_table->lock.lock();
        for (present_table *t : every_table->tables)
          t->lock_for_fork();
      },
      give_back, give_back);
  return all;
}();
all_tables &tables() { return *every_table; }
} // namespace

present_table::present_table(device &owner) : device_(owner) {
  std::lock_guard guard(tables().lock);
  tables().tables.push_back(this);
}

present_table::~present_table() {
  std::lock_guard guard(tables().lock);
  std::erase(tables().tables, this);
}

bool present_table::maps_anything(const detail::arg_desc *args, std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i)
    if (is_mapped(args[i]))
      return true;
  return false;
}

std::string present_table::name_of(std::uint32_t slot, const map_site &site) const {
  std::string name = site.names && slot < site.names->size() && !(*site.names)[slot].empty()
                         ? (*site.names)[slot]
                         : "arg" + std::to_string(slot);
  const char *file = site.where.file ? site.where.file : "?";
  const char *slash = std::strrchr(file, '/');
  return name + " at " + (slash ? slash + 1 : file) + ":" + std::to_string(site.where.line);
}

bool present_table::holds_any(std::uintptr_t begin, std::uintptr_t end) {
  std::lock_guard guard(lock_);
  auto next = entries_.upper_bound(begin);
  if (next != entries_.end() && next->first < end)
    return true;
  return next != entries_.begin() && std::prev(next)->second.end > begin;
}

present_table::entries::iterator present_table::holder(std::uintptr_t begin, std::uintptr_t end) {
  auto next = entries_.upper_bound(begin);
  if (next == entries_.begin())
    return entries_.end();
  auto it = std::prev(next);
  return end <= it->second.end ? it : entries_.end();
}

present_table::entries::iterator present_table::find(std::uintptr_t begin, std::uintptr_t end,
                                                     const map_site &site) {
  auto overlapping = [&] {
    fail(site.context(), "an argument's " + std::to_string(end - begin) + " bytes at " +
                             hex(begin) + " overlap an object that " + device_.name() +
                             " holds without lying inside it (map the whole object, or map "
                             "the parts apart)");
  };
  auto next = entries_.upper_bound(begin);
  if (next != entries_.begin()) {
    auto holder = std::prev(next);
    if (begin >= holder->first && end <= holder->second.end)
      return holder;
    if (begin < holder->second.end)
      overlapping();
  }
  if (next != entries_.end() && next->first < end)
    overlapping();
  return entries_.end();
}

bool present_table::map(const detail::arg_desc *args, std::uint32_t n, abi::slot_t *slots,
                        const map_site &site, void **allocations) {
  struct object {
    std::uintptr_t begin, end;
    std::uint32_t slot;
  };
  std::vector<object> objects;
  for (std::uint32_t i = 0; i < n; ++i) {
    const detail::arg_desc &a = args[i];
    if (slots)
      slots[i] = a.how == transfer::literal ? a.literal : static_cast<abi::slot_t>(begin_of(a));
    if (allocations)
      allocations[i] = nullptr;
    if (is_mapped(a))
      objects.push_back({begin_of(a), begin_of(a) + a.bytes, i});
  }
  if (objects.empty())
    return false;
  std::sort(objects.begin(), objects.end(),
            [](const object &a, const object &b) { return a.begin < b.begin; });
  if (device_.deferred().any()) {
    // A new copy is made by a copy in, which the device would refuse after a deferred launch's
    // fault (with a reason naming no launch): the deferred launches are waited for first.
    bool all_held = true;
    {
      std::lock_guard guard(lock_);
      for (const object &o : objects)
        all_held = all_held && holder(o.begin, o.end) != entries_.end();
    }
    if (!all_held)
      device_.deferred().settle();
  }
  const std::uint32_t info = info_flags();
  std::vector<detail::arg_desc> counted;  // what to release if a later object fails
  std::lock_guard guard(lock_);
  try {
    for (std::size_t first = 0; first < objects.size();) {
      // A run of overlapping objects shares one entry: their union.
      std::uintptr_t lo = objects[first].begin, hi = objects[first].end;
      std::size_t last = first + 1;
      for (; last < objects.size() && objects[last].begin < hi; ++last)
        hi = std::max(hi, objects[last].end);
      auto it = find(lo, hi, site);
      const bool created = it == entries_.end();
      if (created) {
        const std::uintptr_t offset = lo % copy_alignment;
        void *memory = hi - lo <= UINTPTR_MAX - 2 * copy_alignment
                           ? device_.allocate_copy(offset, hi - lo)
                           : nullptr;
        if (!memory)
          fail(site.context(), "cannot allocate " + std::to_string(hi - lo) + " bytes on " +
                                   device_.name() + " for the objects it maps");
        it = entries_.emplace(lo, entry{hi, static_cast<char *>(memory) + offset, memory, 0}).first;
        bool in = false;
        for (std::size_t k = first; k < last; ++k)
          in |= copies_in(args[objects[k].slot].how, device_.from_copies_in());
        const std::string name = name_of(objects[first].slot, site);
        if (info & info_mapping_changed)
          info_line("%s: Creating new map entry with HstPtrBegin=%s, TgtPtrBegin=%s, Size=%" PRIuPTR
                    ", RefCount=%zu, Name=%s",
                    device_.name().c_str(), hex(lo).c_str(), hex(it->second.copy).c_str(), hi - lo,
                    last - first, name.c_str());
        if (in) {
          if (info & info_copies)
            info_line("%s: Copying data from host to device, HstPtr=%s, TgtPtr=%s, Size=%" PRIuPTR
                      ", Name=%s",
                      device_.name().c_str(), hex(lo).c_str(), hex(it->second.copy).c_str(),
                      hi - lo, name.c_str());
          try {
            device_.copy_in(it->second.copy, reinterpret_cast<const void *>(lo), hi - lo);
          } catch (const device_failure &f) {
            device_.release(memory);
            entries_.erase(it);
            fail(site.context(), "an argument's memory at address " + hex(lo) + " (" +
                                     std::to_string(hi - lo) + " bytes) cannot be read: " +
                                     f.reason);
          }
        }
      }
      entry &e = it->second;
      for (std::size_t k = first; k < last; ++k) {
        const object &o = objects[k];
        ++e.references;
        counted.push_back(args[o.slot]);
        if (allocations)
          allocations[o.slot] = e.allocation;
        if (slots)
          slots[o.slot] =
              static_cast<abi::slot_t>(reinterpret_cast<std::uintptr_t>(e.copy + (o.begin - it->first)));
        if (!created && (info & info_mapping_exists))
          info_line("%s: Mapping exists with HstPtrBegin=%s, TgtPtrBegin=%s, Size=%" PRIuPTR
                    ", RefCount=%u (incremented), Name=%s",
                    device_.name().c_str(), hex(o.begin).c_str(),
                    hex(e.copy + (o.begin - it->first)).c_str(), o.end - o.begin, e.references,
                    name_of(o.slot, site).c_str());
      }
      first = last;
    }
  } catch (...) {
    release(counted.data(), static_cast<std::uint32_t>(counted.size()), false, site);
    throw;
  }
  return true;
}

std::string present_table::release(const detail::arg_desc *args, std::uint32_t n, bool copy_back,
                                   const map_site &site, bool launch_failed, bool check_fences,
                                   stream *unwaited, std::string *launch_failure) {
  const std::uint32_t info = info_flags();
  std::vector<std::pair<std::uint32_t, entries::iterator>> held;
  for (std::uint32_t k = n; k-- > 0;) {  // in reverse, as libomptarget releases
    const detail::arg_desc &a = args[k];
    if (!is_mapped(a))
      continue;
    auto it = holder(begin_of(a), begin_of(a) + a.bytes);
    if (it == entries_.end() || it->second.references == 0)
      continue;  // not mapped (a region end for something never mapped)
    --it->second.references;
    it->second.untrusted |= launch_failed;
    held.emplace_back(k, it);
  }
  std::string failure;
  if (check_fences && device_.fenced()) {
    // A data region's end: a copy whose fence a kernel damaged is not trusted, and nothing of
    // this call comes back (as after a launch whose check found it).
    for (auto &[k, it] : held) {
      if (it->second.references != 0 || it->second.allocation == nullptr)
        continue;
      const device::fence_damage damage = device_.check_fence(it->second.allocation);
      if (!damage)
        continue;
      it->second.untrusted = true;
      copy_back = false;
      if (failure.empty())
        failure = "a kernel on " + device_.name() + " " +
                  device::describe(damage, "its copy of " +
                                               (site.names ? "parameter " + name_of(k, site)
                                                           : "the region's object " +
                                                                 std::to_string(k + 1)) +
                                               " (" + std::to_string(it->second.end - it->first) +
                                               " bytes)") +
                  " (found at the end: no launch's own check saw it); nothing was copied back";
    }
  }
  for (auto &[k, it] : held) {
    const detail::arg_desc &a = args[k];
    if (it->second.references != 0 || !copy_back || !copies_back(a.how) || it->second.untrusted)
      continue;
    char *from = it->second.copy + (begin_of(a) - it->first);
    if (info & info_copies)
      info_line("%s: Copying data from device to host, TgtPtr=%s, HstPtr=%s, Size=%" PRIu64
                ", Name=%s",
                device_.name().c_str(), hex(from).c_str(), hex(a.host_ptr).c_str(), a.bytes,
                name_of(k, site).c_str());
    if (!failure.empty())
      continue;
    try {
      device_.copy_out(const_cast<void *>(a.host_ptr), from, a.bytes);
      if (unwaited) {  // the copy waited for the kernel
        unwaited->ended_by_copy_out();
        unwaited = nullptr;
      }
    } catch (const device_failure &f) {
      failure = "copying " + std::to_string(a.bytes) + " bytes back from " + device_.name() +
                " failed: " + f.reason;
      if (unwaited) {  // the kernel failed: the copy wrote nothing
        *launch_failure = f.reason;
        unwaited = nullptr;
      }
    }
  }
  if (unwaited) {  // nothing came back: wait for the kernel before its memory is freed
    try {
      unwaited->sync();
    } catch (const device_failure &f) {
      *launch_failure = f.reason;
    }
  }
  if (launch_failure && !launch_failure->empty())
    for (auto &[k, it] : held)
      it->second.untrusted = true;
  for (auto &[k, it] : held) {
    if (it->second.references != 0 || it->second.allocation == nullptr)
      continue;
    if (info & info_mapping_changed)
      info_line("%s: Removing map entry with HstPtrBegin=%s, TgtPtrBegin=%s, Size=%" PRIuPTR
                ", Name=%s",
                device_.name().c_str(), hex(it->first).c_str(), hex(it->second.copy).c_str(),
                it->second.end - it->first, name_of(k, site).c_str());
    device_.release(it->second.allocation);
    it->second.allocation = nullptr;
  }
  std::vector<std::uintptr_t> gone;
  for (auto &[k, it] : held)
    if (it->second.references == 0)
      gone.push_back(it->first);
  for (std::uintptr_t begin : gone)
    entries_.erase(begin);  // by key: a second mention erases nothing
  return failure;
}

std::vector<present_table::mention> present_table::mentions(const detail::arg_desc *args,
                                                            std::uint32_t n, bool &all_held) {
  std::vector<mention> counts;  // each entry, this call's mentions of it
  all_held = true;
  for (std::uint32_t k = 0; k < n; ++k) {
    const detail::arg_desc &a = args[k];
    if (!is_mapped(a))
      continue;
    auto it = holder(begin_of(a), begin_of(a) + a.bytes);
    if (it == entries_.end()) {
      all_held = false;
      continue;
    }
    auto c = std::find_if(counts.begin(), counts.end(),
                          [&](const mention &m) { return m.held == &it->second; });
    if (c == counts.end())
      counts.push_back({&it->second, 1, copies_back(a.how)});
    else
      ++c->count, c->copies_back |= copies_back(a.how);
  }
  return counts;
}

bool present_table::release_if_held(const detail::arg_desc *args, std::uint32_t n) {
  if (!maps_anything(args, n))
    return true;
  std::lock_guard guard(lock_);
  bool all_held = false;
  const std::vector<mention> counts = mentions(args, n, all_held);
  if (!all_held)
    return false;
  for (const mention &m : counts)
    if (m.held->references <= m.count)
      return false;  // the last release: it copies back or frees
  for (const mention &m : counts)
    m.held->references -= m.count;
  return true;
}

bool present_table::released_by_launch(const detail::arg_desc *args, std::uint32_t n) {
  if (!maps_anything(args, n))
    return false;
  // Before map(): this launch's own references are not counted yet.
  std::lock_guard guard(lock_);
  for (std::uint32_t k = 0; k < n; ++k) {
    const detail::arg_desc &a = args[k];
    if (!is_mapped(a))
      continue;
    auto it = holder(begin_of(a), begin_of(a) + a.bytes);
    if (it == entries_.end() || it->second.references == 0)
      return true;  // mapped by this launch alone
  }
  return false;
}

void present_table::unmap(const detail::arg_desc *args, std::uint32_t n, bool copy_back,
                          const map_site &site, bool launch_failed, bool check_fences) {
  std::string failure;
  if (device_.deferred().any() && maps_anything(args, n)) {
    try {
      device_.deferred().settle();
    } catch (...) {
      // A deferred launch failed: the device's copies are not trusted; release, copy nothing.
      std::lock_guard guard(lock_);
      release(args, n, /*copy_back=*/false, site, /*launch_failed=*/true);
      throw;
    }
  }
  {
    std::lock_guard guard(lock_);
    failure = release(args, n, copy_back && !launch_failed, site, launch_failed, check_fences);
  }
  if (!failure.empty())
    fail(site.context(), failure);
}

bool present_table::release_copies_back(const detail::arg_desc *args, std::uint32_t n) {
  std::lock_guard guard(lock_);
  bool all_held = false;
  for (const mention &m : mentions(args, n, all_held))
    if (m.copies_back && !m.held->untrusted && m.held->references == m.count)
      return true;
  return false;
}

bool present_table::unmap_after_launch(const detail::arg_desc *args, std::uint32_t n,
                                       const map_site &site, stream &unwaited,
                                       std::string &launch_failure) {
  launch_failure.clear();
  std::string failure;
  {
    std::lock_guard guard(lock_);
    failure = release(args, n, /*copy_back=*/true, site, /*launch_failed=*/false,
                      /*check_fences=*/false, &unwaited, &launch_failure);
  }
  if (!launch_failure.empty())
    return false;
  if (!failure.empty())
    fail(site.context(), failure);
  return true;
}

void present_table::update(const detail::arg_desc *args, std::uint32_t n, bool to_device,
                           const map_site &site) {
  if (maps_anything(args, n))
    device_.deferred().settle();
  std::lock_guard guard(lock_);
  for (std::uint32_t k = 0; k < n; ++k) {
    const detail::arg_desc &a = args[k];
    if (!is_mapped(a))
      continue;
    auto it = find(begin_of(a), begin_of(a) + a.bytes, site);
    if (it == entries_.end())
      continue;
    char *copy = it->second.copy + (begin_of(a) - it->first);
    try {
      if (to_device)
        device_.copy_in(copy, a.host_ptr, a.bytes);
      else
        device_.copy_out(const_cast<void *>(a.host_ptr), copy, a.bytes);
    } catch (const device_failure &f) {
      fail(site.context(), "updating " + std::to_string(a.bytes) + " bytes " +
                               (to_device ? "on " : "from ") + device_.name() + " failed: " +
                               f.reason);
    }
  }
}

} // namespace offload::rt
