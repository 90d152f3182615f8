// runtime/devices.cpp — see devices.hpp.
#include "devices.hpp"

#include "cpu_device.hpp"
#include "gpu_device.hpp"

#include <offload/launch.hpp>

#include <atomic>
#include <cstdlib>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <strings.h>

namespace offload::rt {
namespace {
bool env_is(const char *name, const char *value) {
  const char *v = std::getenv(name);
  return v && strcasecmp(v, value) == 0;
}
/// Why the environment's settings cannot be used, or empty: checked once, at the first launch
/// or device choice, so a typo is an error rather than silently ignored.
std::string environment_problem() {
  if (const char *d = std::getenv("OFFLOAD_DEVICE"); d && *d && strcasecmp(d, "cpu") != 0)
    return std::string("OFFLOAD_DEVICE=") + d + " is not understood (set it to cpu to run on the "
           "CPU device, or leave it unset)";
  // Every number is the whole value, in range: "garbage", "1e3", "-5" or an overflow is an
  // error, never silently replaced by a default.
  // Decimal, as the readers parse them (OFFLOAD_INFO may also be hex: 0x...), no spaces.
  auto whole_number = [](const char *text, long long lo, long long hi, int base = 10) {
    if (!(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-'))
      return false;
    char *end = nullptr;
    errno = 0;
    long long n = std::strtoll(text, &end, base);
    return end != text && *end == '\0' && errno == 0 && n >= lo && n <= hi;
  };
  if (const char *t = std::getenv("OFFLOAD_CPU_THREADS"); t && *t)
    if (!whole_number(t, 1, 4096))
      return std::string("OFFLOAD_CPU_THREADS=") + t + " is not a number of threads from 1 to 4096";
  if (const char *i = std::getenv("OFFLOAD_INFO"); i && *i)
    if (!whole_number(i, -1, 0xffffffffll, /*base=*/0))
      return std::string("OFFLOAD_INFO=") + i +
             " is not understood (set it to -1 for everything, 1 for launches, or leave it unset)";
  if (const char *b = std::getenv("OFFLOAD_CPU_STACK"); b && *b)
    if (!whole_number(b, 16384, 1ll << 30))
      return std::string("OFFLOAD_CPU_STACK=") + b +
             " is not a fiber stack size in bytes from 16384 to 1073741824 (1 GiB)";
  if (const char *g = std::getenv("OFFLOAD_GPU_STREAMS");
      g && *g && std::strcmp(g, "off") != 0 && std::strcmp(g, "0") != 0 &&
      std::strcmp(g, "liboffload") != 0)
    return std::string("OFFLOAD_GPU_STREAMS=") + g +
           " is not understood (off, 0 or liboffload, or leave it unset)";
  if (const char *o = std::getenv("OMP_TARGET_OFFLOAD"); o && *o) {
    bool known = false;
    for (const char *v : {"mandatory", "disabled", "default"})
      known |= strcasecmp(o, v) == 0;
    if (!known)
      return std::string("OMP_TARGET_OFFLOAD=") + o +
             " is not understood (mandatory, disabled or default, or leave it unset)";
  }
  if (const char *c = std::getenv("OFFLOAD_CUDA_SCHEDULE"); c && *c) {
    bool known = false;
    for (const char *v : {"auto", "spin", "yield", "blocking"})
      known |= std::strcmp(c, v) == 0;
    if (!known)
      return std::string("OFFLOAD_CUDA_SCHEDULE=") + c +
             " is not understood (auto, spin, yield or blocking, or leave it unset)";
  }
  return {};
}
} // namespace

void fail(const std::string &context, const std::string &why) {
  throw offload::error("offload-cxx: error: " + context + ": " + why);
}

std::string short_location(const detail::source_loc &where) {
  const char *slash = std::strrchr(where.file, '/');
  return std::string(slash ? slash + 1 : where.file) + ":" + std::to_string(where.line);
}

int usable_gpu_count() {
  static const bool cpu_forced = env_is("OFFLOAD_DEVICE", "cpu");
  return cpu_forced ? 0 : gpu_device_count();
}

device_choice choose_device_or_explain(int requested, bool has_image, std::string &why) {
  static const bool cpu_forced = env_is("OFFLOAD_DEVICE", "cpu");
  static const bool mandatory = env_is("OMP_TARGET_OFFLOAD", "mandatory");
  static const std::string bad_environment = environment_problem();
  if (!bad_environment.empty()) {
    why = bad_environment;
    return {};
  }
  const int gpus = usable_gpu_count();
  int gpu = -1;
  if (requested >= 0 && gpus_shut_down()) {
    why = "launched while the program exits (from a global's destructor or an atexit handler), "
          "after the GPU runtime began to shut down: launch before main returns, or on "
          "offload::cpu_device";
    return {};
  }
  if (requested >= 0) {
    if (requested >= gpus) {
      why = "device " + std::to_string(requested) + " does not exist (" + std::to_string(gpus) +
            (gpus == 1 ? " GPU holds" : " GPUs hold") +
            " this program's image; use offload::default_device or offload::cpu_device)";
      return {};
    }
    if (!has_image) {
      why = "the kernel is not in this program's device image (was the file built with "
            "offload-cxx?): it can run only on the CPU device";
      return {};
    }
    gpu = requested;
  } else if (requested == default_device) {
    // At exit the GPU runtime may be gone: the default device is then the CPU device, which
    // computes the same results.
    if (gpus > 0 && has_image && !gpus_shut_down())
      gpu = 0;
  } else if (requested != cpu_device) {
    why = "invalid device number " + std::to_string(requested);
    return {};
  }
  if (gpu < 0 && requested != cpu_device && !cpu_forced && mandatory) {
    why = "OMP_TARGET_OFFLOAD=mandatory but no GPU holds this program's image";
    return {};
  }
  if (gpu >= 0)
    watch_for_exit();
  return {gpu, gpu >= 0 ? &gpu_device_name(gpu) : &cpu_device_name()};
}

namespace {
std::atomic<bool> exiting{false};
}

void watch_for_exit() {
  // Registered at the first GPU launch, so it runs (exit calls handlers in reverse order) before
  // the destructors of globals made earlier, whose launches then see it.
  static const bool registered = [] {
    std::atexit([] { exiting.store(true); });
    return true;
  }();
  (void)registered;
}

bool gpus_shut_down() { return exiting.load(std::memory_order_relaxed); }

} // namespace offload::rt
