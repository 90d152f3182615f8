// runtime/cpu_mapping.cpp — see cpu_mapping.hpp.
#include "cpu_mapping.hpp"

#include "devices.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace offload::rt {
namespace {
using detail::transfer;

bool copies_in(transfer how) {
  // `from` copies in too: a GPU's copy starts undefined, and elements the kernel does not write
  // would come back as whatever the device memory held; here they come back unchanged.
  return how == transfer::to || how == transfer::tofrom || how == transfer::from;
}
bool copies_back(transfer how) { return how == transfer::from || how == transfer::tofrom; }

/// Alignment of each copy: its address keeps the host object's offset modulo this, so an
/// over-aligned object stays aligned.
constexpr std::uintptr_t copy_alignment = 256;
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
    if (begin && a.bytes)
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
    const std::uintptr_t offset = begin % copy_alignment, bytes = end - begin;
    void *memory = nullptr;
    if (bytes <= UINTPTR_MAX - 2 * copy_alignment)
      memory = std::aligned_alloc(copy_alignment,
                                  (offset + bytes + copy_alignment - 1) / copy_alignment *
                                      copy_alignment);
    if (!memory)
      fail(context(context_arg), "cannot allocate the CPU device's copy of " +
                                     std::to_string(bytes) + " bytes that the launch maps");
    allocations_.push_back(memory);
    char *copy = static_cast<char *>(memory) + offset;
    if (in)
      std::memcpy(copy, reinterpret_cast<const void *>(begin), bytes);
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

cpu_mapping::~cpu_mapping() {
  for (void *p : allocations_)
    std::free(p);
}

void cpu_mapping::copy_back() const {
  for (const copied_object &o : back_)
    std::memcpy(o.host, o.copy, o.bytes);
}

} // namespace offload::rt
