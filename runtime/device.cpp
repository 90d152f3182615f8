// runtime/device.cpp — see device.hpp.
#include "device.hpp"

#include "present_table.hpp"

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
