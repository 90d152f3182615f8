// runtime/device_table.cpp — see device_table.hpp.
#include "device_table.hpp"

#include "cpu_backend.hpp"
#include "registry.hpp"
#include "process_id.hpp"
#include "settings.hpp"
#include "vendor/backends.hpp"
#include "vendor/cuda_driver.hpp"
#include "vendor/liboffload_info.hpp"
#include "lazy_objects.hpp"

#include <offload/launch.hpp>

#include <OffloadAPI.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <vector>

#include <unistd.h>

namespace offload::rt {
namespace {

struct gpu_row {
  std::string uid;
  std::unique_ptr<device> driven;
};

bool some_image_runs_on(const std::vector<std::string> &archs, const std::string &device_arch) {
  return std::any_of(archs.begin(), archs.end(),
                     [&](const std::string &a) { return image_runs_on(a, device_arch); });
}


/// NVIDIA GPUs through the CUDA driver.
void add_cuda_gpus(const std::vector<std::string> &archs, std::vector<gpu_row> &rows) {
  const vendor::cuda_driver *d = vendor::cuda_driver::get();
  int count = 0;
  if (!d || d->device_get_count(&count) != 0)
    return;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    if (!some_image_runs_on(archs, d->arch(ordinal)))
      continue;
    const int number = static_cast<int>(rows.size());
    if (auto gpu = vendor::make_cuda_device(number, ordinal, "CUDA device " + std::to_string(number)))
      rows.push_back({"CUDA-" + d->uuid(ordinal), std::move(gpu)});
  }
}

/// GPUs through liboffload (not NVIDIA's when the CUDA driver drives them).
void add_liboffload_gpus(const std::vector<std::string> &archs, bool with_nvidia,
                         std::vector<gpu_row> &rows) {
  if (ol_result_t r = vendor::start_offload_api()) {
    if (info_flags())
      info_line("LLVM's offload API could not start (%s): no GPU of it is used",
                r->Details ? r->Details : "no details");
    return;
  }
  const std::vector<ol_device_handle_t> devices = vendor::ol_devices();
  ol_device_handle_t host = nullptr;
  for (ol_device_handle_t device : devices)
    if (vendor::ol_backend(device) == OL_PLATFORM_BACKEND_HOST)
      host = device;
  const vendor::cuda_driver *cuda = vendor::cuda_driver::get();
  for (ol_device_handle_t device : devices) {
    const ol_platform_backend_t backend = vendor::ol_backend(device);
    if (backend != OL_PLATFORM_BACKEND_CUDA && backend != OL_PLATFORM_BACKEND_AMDGPU)
      continue;
    if (backend == OL_PLATFORM_BACKEND_CUDA && !with_nvidia)
      continue;
    const std::string uid = vendor::ol_text(device, OL_DEVICE_INFO_UID);
    std::string arch = vendor::ol_text(device, OL_DEVICE_INFO_NAME);
    if (backend == OL_PLATFORM_BACKEND_CUDA) {
      // liboffload's "name" of an NVIDIA GPU is the product's: the architecture comes from the
      // driver, for the ordinal whose UUID this is.
      int count = 0;
      if (cuda && cuda->device_get_count(&count) == 0)
        for (int ordinal = 0; ordinal < count; ++ordinal)
          if (uid_key(uid) == uid_key("CUDA-" + cuda->uuid(ordinal)))
            arch = cuda->arch(ordinal);
    }
    if (!some_image_runs_on(archs, arch))
      continue;
    const int number = static_cast<int>(rows.size());
    const std::string name =
        (backend == OL_PLATFORM_BACKEND_CUDA ? "CUDA device " : "AMDGPU device ") +
        std::to_string(number);
    rows.push_back({uid, vendor::make_liboffload_device(number, device, host, name)});
  }
}

std::vector<gpu_row> find_gpus() {
  std::vector<gpu_row> rows;
  const settings &s = current_settings();
  if (s.policy == settings::gpu_policy::disabled)
    return rows;
  std::vector<std::string> archs = registered_archs();
  archs.erase(std::remove(archs.begin(), archs.end(), "host"), archs.end());
  if (archs.empty())
    return rows;  // no GPU image: no GPU library is even opened
  const bool nvidia_images = std::any_of(archs.begin(), archs.end(), [](const std::string &a) {
    return a.rfind("sm_", 0) == 0;
  });
  const bool other_images = std::any_of(archs.begin(), archs.end(), [](const std::string &a) {
    return a.rfind("sm_", 0) != 0;
  });
  const bool through_cuda = s.nvidia == settings::nvidia_backend::cuda;
  if (nvidia_images)
    vendor::prepare_cuda_primary_contexts(/*retain=*/!through_cuda);
  if (nvidia_images && through_cuda)
    add_cuda_gpus(archs, rows);
  if (other_images || (nvidia_images && !through_cuda))
    add_liboffload_gpus(archs, nvidia_images && !through_cuda, rows);
  if (rows.empty() && info_flags()) {
    std::string list;
    for (const std::string &a : archs)
      list += (list.empty() ? "" : ",") + a;
    info_line("no GPU of this machine can run this program's images (%s): launches run on the "
              "CPU device", list.c_str());
  }
  return rows;
}

/// The process that found the GPUs: a child of fork() cannot use them (the CUDA driver, and the
/// GPU libraries built on it, do not survive a fork once initialised).
pid_t gpus_found_by = 0;

made_once<const std::vector<gpu_row>> found_gpus;

const std::vector<gpu_row> &gpus() {
  // never destroyed: streams and memory are used until the process ends
  return found_gpus.get([](bool forked_while_made) {
    gpus_found_by = this_process();
    // A child of fork() whose parent was starting its GPUs: the child cannot use them (as any
    // child of a GPU user), and runs on the CPU device.
    return forked_while_made ? new std::vector<gpu_row>() : new std::vector<gpu_row>(find_gpus());
  });
}

/// Whether this is a child of fork() whose parent had started its GPUs.
bool forked_from_gpu_user() { return !gpus().empty() && this_process() != gpus_found_by; }

std::atomic<bool> exiting{false};

void watch_for_exit() {
  // Registered at the first GPU choice, so it runs (exit calls handlers in reverse order) before
  // the destructors of globals made earlier, whose launches then see it.
  static const bool registered = [] {
    std::atexit([] { exiting.store(true); });
    return true;
  }();
  (void)registered;
}

} // namespace

/// "CUDA-ABCD..." and "cuda-abcd" are one UID (libraries spell the hex differently).
std::string uid_key(const std::string &uid) {
  std::string key;
  for (char c : uid)
    if (c != '-')
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

int usable_gpu_count() {
  return current_settings().cpu_only ? 0 : static_cast<int>(gpus().size());
}

device &device_of(int gpu) { return gpu < 0 ? the_cpu_device() : *gpus().at(gpu).driven; }

const std::string &gpu_uid(int gpu) { return gpus().at(gpu).uid; }

bool gpus_shut_down() { return exiting.load(std::memory_order_relaxed); }

device_choice choose_device_or_explain(int requested, bool has_image, std::string &why) {
  const settings &s = current_settings();
  if (!s.problem.empty()) {
    why = s.problem;
    return {};
  }
  const int count = usable_gpu_count();
  int gpu = -1;
  if (requested >= 0 && gpus_shut_down()) {
    why = "launched while the program exits (from a global's destructor or an atexit handler), "
          "after the GPU runtime began to shut down: launch before main returns, or on "
          "offload::cpu_device";
    return {};
  }
  if (requested >= 0 && forked_from_gpu_user()) {
    why = "GPU " + std::to_string(requested) +
          " cannot be used in a child process made by fork() after the parent used the GPUs "
          "(their driver does not survive fork): launch from the parent, exec a new program in "
          "the child, or launch on offload::cpu_device";
    return {};
  }
  if (requested >= 0) {
    if (requested >= count) {
      why = "device " + std::to_string(requested) + " does not exist (" + std::to_string(count) +
            (count == 1 ? " GPU holds" : " GPUs hold") +
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
    // In a child of fork() the parent's GPUs are out of reach: the CPU device computes the same.
    if (count > 0 && has_image && !gpus_shut_down() && !forked_from_gpu_user())
      gpu = 0;
  } else if (requested != cpu_device) {
    why = "invalid device number " + std::to_string(requested);
    return {};
  }
  if (gpu < 0 && requested != cpu_device && !s.cpu_only &&
      s.policy == settings::gpu_policy::mandatory) {
    why = "OMP_TARGET_OFFLOAD=mandatory but no GPU holds this program's image";
    return {};
  }
  if (gpu >= 0)
    watch_for_exit();
  return {&device_of(gpu)};
}

} // namespace offload::rt
