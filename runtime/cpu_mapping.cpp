// runtime/cpu_mapping.cpp — see cpu_mapping.hpp.
#include "cpu_mapping.hpp"

#include "cpu_fault.hpp"
#include "devices.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace offload::rt {
namespace {
using detail::transfer;

bool copies_in(transfer how) {
  // `from` copies in too: a GPU's copy starts undefined, and elements the kernel does not write
  // would come back as whatever the device memory held; here they come back unchanged.
  return how == transfer::to || how == transfer::tofrom || how == transfer::from;
}
bool copies_back(transfer how) { return how == transfer::from || how == transfer::tofrom; }

/// memcpy, reporting a fault (a bad address in an argument) instead of dying of it.
bool copied_in(void *to, const void *from, std::uint64_t bytes) {
  struct copy {
    void *to;
    const void *from;
    std::uint64_t bytes;
  } c{to, from, bytes};
  cpu_fault fault;
  return run_catching_faults(
      [](void *raw) {
        auto &c = *static_cast<copy *>(raw);
        std::memcpy(c.to, c.from, c.bytes);
      },
      &c, fault);
}

std::string hex(std::uintptr_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(v));
  return text;
}

/// Alignment of each copy: its address keeps the host object's offset modulo this, so an
/// over-aligned object stays aligned.
constexpr std::uintptr_t copy_alignment = 256;

/// Memory for the copy of `bytes` at host address `begin` (freed with std::free(*memory)); the
/// copy's address keeps the host's offset modulo copy_alignment. nullptr when it cannot be had.
char *allocate_copy(std::uintptr_t begin, std::uint64_t bytes, void **memory) {
  const std::uintptr_t offset = begin % copy_alignment;
  *memory = bytes <= UINTPTR_MAX - 2 * copy_alignment
                ? std::aligned_alloc(copy_alignment, (offset + bytes + copy_alignment - 1) /
                                                         copy_alignment * copy_alignment)
                : nullptr;
  return *memory ? static_cast<char *>(*memory) + offset : nullptr;
}

std::string unreadable(std::uintptr_t begin, std::uint64_t bytes) {
  return "an argument's memory at address 0x" + hex(begin) + " (" + std::to_string(bytes) +
         " bytes) cannot be read: it is not the host object the argument should point at";
}
} // namespace

namespace {
/// One object a CPU-device data region holds (cpu_region_data).
struct present_object {
  std::uintptr_t begin, end;
  char *copy;
  void *allocation;
  unsigned references;
};
std::mutex present_lock;
std::vector<present_object> present;  // guarded by present_lock

/// The present object holding [begin, end), or nullptr; throws (with where(), made only then)
/// when the range only overlaps one.
template <class Where>
present_object *find_present(std::uintptr_t begin, std::uintptr_t end, const Where &where) {
  for (present_object &p : present) {
    if (begin >= p.begin && end <= p.end)
      return &p;
    if (begin < p.end && p.begin < end)
      fail(where(), "an argument's " + std::to_string(end - begin) +
                      " bytes overlap an object a data region holds on the CPU device without "
                      "lying inside it (a GPU refuses this too: map the whole object)");
  }
  return nullptr;
}
} // namespace

cpu_mapping::cpu_mapping(const detail::launch_request &request,
                         std::string (*context)(const void *), const void *context_arg) {
  const std::uint32_t n = request.num_args;
  slots_.resize(n + 1, 0);
  struct mapped {
    std::uintptr_t begin, end;
    std::uint32_t slot;
  };
  std::vector<mapped> objects;
  for (std::uint32_t i = 0; i < n; ++i) {
    const detail::arg_desc &a = request.args[i];
    if (a.how == transfer::literal) {
      slots_[i] = a.literal;
      continue;
    }
    const auto begin = reinterpret_cast<std::uintptr_t>(a.host_ptr);
    slots_[i] = static_cast<abi::slot_t>(begin);
    if (!begin || !a.bytes)
      continue;
    {
      std::lock_guard guard(present_lock);
      if (!present.empty()) {
        if (present_object *p = find_present(begin, begin + a.bytes,
                                             [&] { return context(context_arg); })) {
          // In a data region's copy: used as it is, nothing copied (as on a GPU).
          slots_[i] = static_cast<abi::slot_t>(
              reinterpret_cast<std::uintptr_t>(p->copy + (begin - p->begin)));
          continue;
        }
      }
    }
    objects.push_back({begin, begin + a.bytes, i});
  }
  if (objects.empty())
    return;
  std::sort(objects.begin(), objects.end(),
            [](const mapped &a, const mapped &b) { return a.begin < b.begin; });
  for (std::size_t first = 0; first < objects.size();) {
    // One copy for a run of overlapping objects.
    std::uintptr_t begin = objects[first].begin, end = objects[first].end;
    std::size_t last = first + 1;
    bool in = copies_in(request.args[objects[first].slot].how);
    for (; last < objects.size() && objects[last].begin < end; ++last) {
      end = std::max(end, objects[last].end);
      in |= copies_in(request.args[objects[last].slot].how);
    }
    const std::uintptr_t bytes = end - begin;
    void *memory = nullptr;
    char *copy = allocate_copy(begin, bytes, &memory);
    if (!copy)
      fail(context(context_arg), "cannot allocate the CPU device's copy of " +
                                     std::to_string(bytes) + " bytes that the launch maps");
    allocations_.push_back(memory);
    if (in && !copied_in(copy, reinterpret_cast<const void *>(begin), bytes))
      fail(context(context_arg), unreadable(begin, bytes));
    for (std::size_t k = first; k < last; ++k) {
      const mapped &o = objects[k];
      char *at = copy + (o.begin - begin);
      slots_[o.slot] = static_cast<abi::slot_t>(reinterpret_cast<std::uintptr_t>(at));
      if (copies_back(request.args[o.slot].how))
        back_.push_back({reinterpret_cast<void *>(o.begin), at, o.end - o.begin});
    }
    first = last;
  }
}

void cpu_region_data(detail::data_op op, const detail::arg_desc *maps, std::uint32_t n,
                     const std::string &where) {
  using detail::data_op;
  std::lock_guard guard(present_lock);
  for (std::uint32_t k = 0; k < n; ++k) {
    // Region end releases in reverse order, as libomptarget does.
    const detail::arg_desc &a = maps[op == data_op::end ? n - 1 - k : k];
    const auto begin = reinterpret_cast<std::uintptr_t>(a.host_ptr);
    if (a.how == transfer::literal || !begin || !a.bytes)
      continue;
    const std::uintptr_t end = begin + a.bytes;
    present_object *p = find_present(begin, end, [&] { return where; });
    switch (op) {
    case data_op::begin: {
      if (p) {  // already there: one more reference, nothing copied
        ++p->references;
        break;
      }
      void *memory = nullptr;
      char *copy = allocate_copy(begin, a.bytes, &memory);
      if (!copy)
        fail(where, "cannot allocate the CPU device's copy of " + std::to_string(a.bytes) +
                        " bytes that the region maps");
      if ((a.how == transfer::to || a.how == transfer::tofrom) &&
          !copied_in(copy, a.host_ptr, a.bytes)) {
        std::free(memory);
        fail(where, unreadable(begin, a.bytes));
      }
      present.push_back({begin, end, copy, memory, 1});
      break;
    }
    case data_op::end:
      if (!p)
        break;
      if (--p->references == 0) {
        if (copies_back(a.how))
          std::memcpy(reinterpret_cast<void *>(begin), p->copy + (begin - p->begin), a.bytes);
        std::free(p->allocation);
        present.erase(present.begin() + (p - present.data()));
      }
      break;
    case data_op::update_to:
      if (p)
        std::memcpy(p->copy + (begin - p->begin), a.host_ptr, a.bytes);
      break;
    case data_op::update_from:
      if (p)
        std::memcpy(reinterpret_cast<void *>(begin), p->copy + (begin - p->begin), a.bytes);
      break;
    }
  }
}

cpu_mapping::~cpu_mapping() {
  for (void *p : allocations_)
    std::free(p);
}

void cpu_mapping::copy_back() const {
  for (const copied_object &o : back_)
    std::memcpy(o.host, o.copy, o.bytes);
}

} // namespace offload::rt
