// runtime/registry.cpp — see registry.hpp.
#include "registry.hpp"

#include "devices.hpp"

#include "vendor/cuda_context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
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

std::vector<std::string> registered_archs() {
  registry &r = the_registry();
  std::lock_guard guard(r.lock);
  return r.archs;
}

} // namespace offload::rt

extern "C" void __offload_cxx_register_program(const offload_cxx_program *program) {
  // Version 2 lacks the images (its queued launches go through libomptarget); it is read as is.
  if (program->version != OFFLOAD_CXX_PROGRAM_VERSION && program->version != 2) {
    std::fprintf(stderr,
                 "offload-cxx: error: program registration version %u, runtime expects 2 or %u: "
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
  std::vector<offload::rt::gpu_image> &images = r.images.emplace_back();
  if (program->version >= 3)
    for (std::uint32_t i = 0; i < program->num_images; ++i)
      images.push_back({program->images[i].arch, program->images[i].start,
                        static_cast<std::size_t>(program->images[i].size)});
  for (std::uint32_t i = 0; i < program->num_kernels; ++i) {
    const offload_cxx_kernel_record &k = program->kernels[i];
    if (!k.host_address)
      continue;  // a static library's kernel that the program did not link
    offload::rt::kernel_info info{k.name, k.entry, k.declared_at, {},
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
