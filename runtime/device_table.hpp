// runtime/device_table.hpp — the devices of this process, found once: the CPU device, and each
// GPU that can run one of the registered programs' images as one row (offload-cxx's number, its
// name, architecture and UID, and the device object of the library that drives it). Which
// device a launch, region, buffer or queue uses follows one rule for all: an explicit GPU
// number must exist; offload::cpu_device is the CPU device; the default is GPU 0 when a GPU
// holds the kernel, else the CPU device. OFFLOAD_DEVICE=cpu forces the CPU device;
// OMP_TARGET_OFFLOAD=mandatory refuses to fall back to it, =disabled uses no GPU.
#pragma once

#include "device.hpp"

#include <string>

namespace offload::rt {

/// The GPUs launches may use (none under OFFLOAD_DEVICE=cpu).
int usable_gpu_count();

/// offload-cxx's GPU `gpu` (0 <= gpu < the number of GPUs), or the CPU device for gpu < 0.
device &device_of(int gpu);

/// The device's unique id as its library reports it ("CUDA-<uuid hex>"), for matching.
const std::string &gpu_uid(int gpu);

/// A UID as a key: "CUDA-ABCD..." and "cuda-abcd" are one UID (libraries spell it differently).
std::string uid_key(const std::string &uid);

struct device_choice {
  device *chosen = nullptr;
  bool is_gpu() const { return chosen && !chosen->is_cpu(); }
};

/// The rule itself: the choice, or chosen == nullptr and `why` set. `has_image` is false for a
/// kernel no GPU image holds.
device_choice choose_device_or_explain(int requested, bool has_image, std::string &why);

/// Chooses the device for `requested` (a GPU number, default_device or cpu_device); throws
/// offload::error "<context()>: <why>" (the context is made only then: launches are a hot path).
template <class Context>
device &choose_device(int requested, bool has_image, const Context &context) {
  std::string why;
  device_choice c = choose_device_or_explain(requested, has_image, why);
  if (!c.chosen)
    fail(context(), why);
  return *c.chosen;
}

/// Whether the program is exiting, past the point where GPU launches are safe (the driver's
/// per-thread state shuts down around now): set by an atexit handler registered at the first GPU
/// choice. Default-device launches then run on the CPU device; a launch naming a GPU is an error.
bool gpus_shut_down();

} // namespace offload::rt
