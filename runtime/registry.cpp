// runtime/registry.cpp — see registry.hpp.
#include "registry.hpp"

#include "devices.hpp"

#include "vendor/cuda_context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace offload::rt {
namespace {
struct registry {
  std::mutex lock;
  std::unordered_map<const void *, kernel_info> kernels;
  std::vector<std::string> archs;
};
registry &the_registry() {
  static registry r;  // constructed on first use: registration runs from static constructors
  return r;
}
} // namespace

const kernel_info *find_kernel(const void *host_address) {
  registry &r = the_registry();
  std::lock_guard guard(r.lock);
  auto it = r.kernels.find(host_address);
  return it == r.kernels.end() ? nullptr : &it->second;
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
  // A program with NVIDIA images: choose the CUDA contexts' scheduling before libomptarget's
  // CUDA plugin starts (this constructor runs before the one that registers the images).
  for (std::uint32_t i = 0; i < program->num_archs; ++i)
    if (std::strncmp(program->archs[i], "sm_", 3) == 0) {
      offload::rt::vendor::prepare_cuda_primary_contexts();
      break;
    }
  auto &r = offload::rt::the_registry();
  std::lock_guard guard(r.lock);
  for (std::uint32_t i = 0; i < program->num_kernels; ++i) {
    const offload_cxx_kernel_record &k = program->kernels[i];
    if (!k.host_address)
      continue;  // a static library's kernel that the program did not link
    offload::rt::kernel_info info{k.name, k.entry, k.declared_at, {},
                                  (k.flags & OFFLOAD_CXX_KERNEL_USES_BARRIERS) != 0,
                                  k.cpu_entry};
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
