// runtime/vendor/cuda_stream.cpp — see cuda_stream.hpp.
#include "cuda_stream.hpp"

#include "cuda_context.hpp"

#include <dlfcn.h>

#include <map>
#include <mutex>
#include <utility>

namespace offload::rt::vendor {
namespace {

/// The CUDA driver entry points this file uses, resolved once.
struct driver {
  int (*init)(unsigned);
  int (*device_get)(int *, int);
  int (*primary_ctx_retain)(void **, int);
  int (*ctx_get_current)(void **);
  int (*ctx_set_current)(void *);
  int (*stream_create)(void **, unsigned);
  int (*stream_destroy)(void *);
  int (*stream_synchronize)(void *);
  int (*module_load_data)(void **, const void *);
  int (*module_get_function)(void **, void *, const char *);
  int (*func_set_attribute)(void *, int, int);
  int (*launch_kernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       unsigned, void *, void **, void **);
  int (*get_error_string)(int, const char **);
  /// cuOccupancyMaxPotentialBlockSize (optional: null when the driver lacks it).
  int (*occupancy_max_potential_block_size)(int *, int *, void *, std::size_t (*)(int),
                                            std::size_t, int);
  bool ok = false;

  static const driver &get() {
    static const driver d = [] {
      driver d{};
      void *cuda = libcuda();
      if (!cuda)
        return d;
      auto load = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(cuda, name));
        return fn != nullptr;
      };
      d.ok = load(d.init, "cuInit") && load(d.device_get, "cuDeviceGet") &&
             load(d.primary_ctx_retain, "cuDevicePrimaryCtxRetain") &&
             load(d.ctx_get_current, "cuCtxGetCurrent") &&
             load(d.ctx_set_current, "cuCtxSetCurrent") &&
             load(d.stream_create, "cuStreamCreate") &&
             load(d.stream_destroy, "cuStreamDestroy_v2") &&
             load(d.stream_synchronize, "cuStreamSynchronize") &&
             load(d.module_load_data, "cuModuleLoadData") &&
             load(d.module_get_function, "cuModuleGetFunction") &&
             load(d.func_set_attribute, "cuFuncSetAttribute") &&
             load(d.launch_kernel, "cuLaunchKernel") &&
             load(d.get_error_string, "cuGetErrorString") && d.init(0) == 0;
      load(d.occupancy_max_potential_block_size, "cuOccupancyMaxPotentialBlockSize");
      return d;
    }();
    return d;
  }

  std::string reason(int result) const {
    const char *text = nullptr;
    if (get_error_string && get_error_string(result, &text) == 0 && text)
      return text;
    return "CUDA error " + std::to_string(result);
  }
};

constexpr unsigned stream_non_blocking = 1;
constexpr int max_dynamic_shared_size_attribute = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

/// Modules loaded per (device, image), for the life of the process; null: did not load.
std::pair<std::mutex &, std::map<std::pair<int, const void *>, void *> &> modules() {
  static std::mutex *lock = new std::mutex;
  static auto *loaded = new std::map<std::pair<int, const void *>, void *>;
  return {*lock, *loaded};
}

} // namespace

std::unique_ptr<cuda_stream> cuda_stream::open(int ordinal) {
  const driver &d = driver::get();
  int device = 0;
  void *context = nullptr, *stream = nullptr;
  if (!d.ok || d.device_get(&device, ordinal) != 0 || d.primary_ctx_retain(&context, device) != 0)
    return nullptr;
  void *current = nullptr;
  if (d.ctx_get_current(&current) != 0 || (current != context && d.ctx_set_current(context) != 0))
    return nullptr;
  if (d.stream_create(&stream, stream_non_blocking) != 0)
    return nullptr;
  return std::unique_ptr<cuda_stream>(new cuda_stream(ordinal, context, stream));
}

cuda_stream::~cuda_stream() {
  const driver &d = driver::get();
  if (make_current()) {
    d.stream_synchronize(stream_);
    d.stream_destroy(stream_);
  }
}

bool cuda_stream::make_current() {
  const driver &d = driver::get();
  void *current = nullptr;
  return d.ctx_get_current(&current) == 0 && (current == context_ || d.ctx_set_current(context_) == 0);
}

void *cuda_stream::function(const void *image, const char *entry) {
  const driver &d = driver::get();
  if (!make_current())
    return nullptr;
  void *module = nullptr;
  {
    auto [lock, loaded] = modules();
    std::lock_guard guard(lock);
    auto [it, inserted] = loaded.try_emplace({ordinal_, image}, nullptr);
    if (inserted && d.module_load_data(&it->second, image) != 0)
      it->second = nullptr;  // not this device's architecture
    module = it->second;
  }
  void *function = nullptr;
  if (!module || d.module_get_function(&function, module, entry) != 0)
    return nullptr;
  return function;
}

unsigned cuda_stream::occupancy_workgroup_size(void *function, unsigned dynamic_shared_bytes) {
  const driver &d = driver::get();
  int min_grid = 0, block = 0;
  if (!d.occupancy_max_potential_block_size || !make_current() ||
      d.occupancy_max_potential_block_size(&min_grid, &block, function, nullptr,
                                           dynamic_shared_bytes, 0) != 0 ||
      block <= 0)
    return 0;
  return static_cast<unsigned>(block);
}

std::string cuda_stream::launch(void *function, const unsigned grid[3], const unsigned block[3],
                                unsigned dynamic_shared_bytes, void **params) {
  const driver &d = driver::get();
  if (!make_current())
    return "cannot make the device's context current";
  constexpr unsigned default_shared_limit = 48 * 1024;
  if (dynamic_shared_bytes > default_shared_limit)
    if (int r = d.func_set_attribute(function, max_dynamic_shared_size_attribute,
                                     static_cast<int>(dynamic_shared_bytes)))
      return d.reason(r);
  if (int r = d.launch_kernel(function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                              dynamic_shared_bytes, stream_, params, nullptr))
    return d.reason(r);
  return {};
}

std::string cuda_stream::sync() {
  const driver &d = driver::get();
  if (!make_current())
    return "cannot make the device's context current";
  if (int r = d.stream_synchronize(stream_))
    return d.reason(r);
  return {};
}

} // namespace offload::rt::vendor
