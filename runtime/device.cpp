// runtime/device.cpp — see device.hpp.
#include "device.hpp"

#include "present_table.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace offload::rt {

device::device(int number, std::string name)
    : number_(number), name_(std::move(name)), present_(std::make_unique<present_table>(*this)),
      deferred_(*this) {}

device::~device() = default;

std::string device::describe(const fence_damage &damage, const std::string &what) {
  std::string text;
  if (damage.after)
    text = "wrote past the end of " + what + ", up to " + std::to_string(damage.after) + " byte" +
           (damage.after == 1 ? "" : "s") + " beyond it";
  if (damage.before)
    text += (text.empty() ? "wrote before the start of " + what : std::string(", and before its start")) +
            ", up to " + std::to_string(damage.before) + " byte" + (damage.before == 1 ? "" : "s") +
            " before it";
  return text;
}

void device::do_fill(void *device_dst, const void *pattern, std::uint32_t pattern_bytes,
                     std::uint64_t count) {
  if (count == 0 || pattern_bytes == 0)
    return;
  constexpr std::uint64_t piece_bytes = 1u << 20;
  const std::uint64_t per_piece = std::max<std::uint64_t>(1, piece_bytes / pattern_bytes);
  const std::uint64_t first = std::min(count, per_piece);
  std::vector<unsigned char> staged(first * pattern_bytes);
  for (std::uint64_t i = 0; i < first; ++i)
    std::memcpy(staged.data() + i * pattern_bytes, pattern, pattern_bytes);
  auto *at = static_cast<unsigned char *>(device_dst);
  for (std::uint64_t done = 0; done < count;) {
    const std::uint64_t n = std::min(first, count - done);
    do_copy_in(at + done * pattern_bytes, staged.data(), n * pattern_bytes);
    done += n;
  }
}

std::uint64_t memory_pool::size_class(std::uint64_t bytes) {
  constexpr std::uint64_t small = 1u << 20, step = 2u << 20;
  if (bytes <= 256)
    return 256;
  if (bytes <= small) {
    std::uint64_t size = 256;
    while (size < bytes)
      size *= 2;
    return size;
  }
  return bytes > UINT64_MAX - step ? bytes : (bytes + step - 1) / step * step;
}

void *memory_pool::take(std::uint64_t bytes) {
  const std::uint64_t size = size_class(bytes);
  std::lock_guard guard(lock_);
  if (auto it = kept_.find(size); it != kept_.end()) {
    void *p = it->second;
    kept_.erase(it);
    return p;
  }
  void *p = allocate_(owner_, size);
  if (!p && !kept_.empty()) {  // out of memory: give the kept blocks back and try again
    for (auto &[kept_size, memory] : kept_) {
      free_(owner_, memory);
      sizes_.erase(memory);
    }
    kept_.clear();
    p = allocate_(owner_, size);
  }
  if (p)
    sizes_[p] = size;
  return p;
}

memory_pool::~memory_pool() {
  for (auto &[size, memory] : kept_)
    free_(owner_, memory);
}

void memory_pool::give_back(void *memory) noexcept {
  std::lock_guard guard(lock_);
  if (auto it = sizes_.find(memory); it != sizes_.end())
    kept_.emplace(it->second, memory);
}

} // namespace offload::rt
