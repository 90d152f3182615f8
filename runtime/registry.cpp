// runtime/registry.cpp — see registry.hpp.
#include "registry.hpp"

#include "settings.hpp"

#include "errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <pthread.h>
#include <unordered_map>

namespace offload::rt {
namespace {
struct registry {
  std::mutex lock;
  std::unordered_map<const void *, kernel_info> kernels;
  std::vector<std::string> archs;
  std::deque<std::vector<gpu_image>> images;  // one per program; a deque keeps them in place
};
registry &the_registry() {
  // Constructed on first use: registration runs from static constructors. Its lock is held
  // across fork() (pthread_atfork), so that a child never inherits it held by a parent's thread
  // that is not in the child (every launch looks its kernel up).
  static registry *const r = [] {
    auto *made = new registry;  // never destroyed: launches may come from global destructors
    // Before fork() the settings are read too: a child must not inherit their initialisation
    // half-done by another thread (it would wait on the static's guard for ever).
    pthread_atfork(
        [] {
          (void)current_settings();
          the_registry().lock.lock();
        },
        [] { the_registry().lock.unlock(); }, [] { the_registry().lock.unlock(); });
    return made;
  }();
  return *r;
}
} // namespace

const kernel_info *find_kernel(const void *host_address) {
  registry &r = the_registry();
  std::lock_guard guard(r.lock);
  auto it = r.kernels.find(host_address);
  return it == r.kernels.end() ? nullptr : &it->second;
}

std::vector<const kernel_info *> registered_kernels() {
  registry &r = the_registry();
  std::lock_guard guard(r.lock);
  std::vector<const kernel_info *> all;
  all.reserve(r.kernels.size());
  for (const auto &[address, kernel] : r.kernels)
    all.push_back(&kernel);
  return all;
}

bool any_kernel_registered() {
  registry &r = the_registry();
  std::lock_guard guard(r.lock);
  return !r.kernels.empty();
}

bool image_runs_on(const std::string &image_arch, const std::string &device_arch) {
  if (image_arch == device_arch)
    return true;
  auto nvidia = [](const std::string &arch, int &version, bool &specific) {
    if (arch.rfind("sm_", 0) != 0 || arch.size() < 5)
      return false;
    std::size_t end = 3;
    while (end < arch.size() && std::isdigit(static_cast<unsigned char>(arch[end])))
      ++end;
    if (end == 3)
      return false;
    version = std::stoi(arch.substr(3, end - 3));
    specific = end != arch.size();
    return true;
  };
  int image = 0, device = 0;
  bool image_specific = false, device_specific = false;
  if (nvidia(image_arch, image, image_specific) && nvidia(device_arch, device, device_specific))
    return image_specific ? image == device
                          : image / 10 == device / 10 && image % 10 <= device % 10;
  auto base = [](const std::string &arch) { return arch.substr(0, arch.find(':')); };
  return image_arch.rfind("gfx", 0) == 0 && base(image_arch) == base(device_arch);
}

std::vector<std::string> registered_archs() {
  registry &r = the_registry();
  std::lock_guard guard(r.lock);
  return r.archs;
}

} // namespace offload::rt

extern "C" void __offload_cxx_register_program(const offload_cxx_program *program) {
  if (program->version != OFFLOAD_CXX_PROGRAM_VERSION) {
    std::fprintf(stderr,
                 "offload-cxx: error: program registration version %u, runtime expects %u: "
                 "rebuild the program with this offload-cxx\n",
                 program->version, OFFLOAD_CXX_PROGRAM_VERSION);
    std::exit(1);
  }
  offload::rt::install_terminate_handler();
  auto &r = offload::rt::the_registry();
  std::lock_guard guard(r.lock);
  std::vector<offload::rt::gpu_image> &images = r.images.emplace_back();
  for (std::uint32_t i = 0; i < program->num_images; ++i)
      images.push_back({program->images[i].arch, program->images[i].start,
                        static_cast<std::size_t>(program->images[i].size)});
  for (std::uint32_t i = 0; i < program->num_kernels; ++i) {
    const offload_cxx_kernel_record &k = program->kernels[i];
    if (!k.host_address)
      continue;  // a static library's kernel that the program did not link
    offload::rt::kernel_info info{k.name, k.entry, k.declared_at, {}, k.param_bytes,
                                  (k.flags & OFFLOAD_CXX_KERNEL_USES_BARRIERS) != 0,
                                  k.cpu_entry, &images};
    for (const char *p = k.param_names; p && *p;) {
      const char *comma = std::strchr(p, ',');
      info.param_names.emplace_back(p, comma ? comma : p + std::strlen(p));
      p = comma ? comma + 1 : p + std::strlen(p);
    }
    r.kernels.emplace(k.host_address, std::move(info));
  }
  for (std::uint32_t i = 0; i < program->num_archs; ++i)
    if (std::find(r.archs.begin(), r.archs.end(), program->archs[i]) == r.archs.end())
      r.archs.emplace_back(program->archs[i]);
}
