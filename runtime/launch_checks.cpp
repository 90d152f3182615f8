// runtime/launch_checks.cpp — the launch sequence's checks and shaping (launch_sequence.hpp).
#include "launch_sequence.hpp"

#include "settings.hpp"

#include <offload/launch.hpp>

#include <algorithm>

namespace offload::rt {
namespace {
std::string dims(const dim3 &d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}
/// Each argument's size as the host compiler laid it out (the launch's sizeof) against the
/// kernel's (its compiler's, in the registration): a type picked by a macro only the host
/// compiler sees would otherwise have the kernel read its parameters wrong.
template <class Context>
void check_argument_sizes(const detail::launch_request &request, const kernel_info &kernel,
                          const Context &context) {
  const std::uint32_t slots = static_cast<std::uint32_t>(kernel.param_names.size());
  for (std::uint32_t i = 0; i < request.num_args && i < slots; ++i) {
    const bool element = (kernel.param_bytes[i] & OFFLOAD_CXX_PARAM_BYTES_ELEMENT) != 0;
    const std::uint64_t kernel_bytes = kernel.param_bytes[i] & ~OFFLOAD_CXX_PARAM_BYTES_ELEMENT;
    const std::uint64_t host_bytes = element ? request.args[i].element_bytes : request.args[i].bytes;
    if (kernel_bytes == 0 || host_bytes == 0 || host_bytes == kernel_bytes)
      continue;
    const std::string name = kernel.param_names[i].empty() ? "argument " + std::to_string(i + 1)
                                                           : "parameter '" + kernel.param_names[i] + "'";
    fail(context(),
         (element ? "the elements of " + name + " are " : name + " is ") + std::to_string(host_bytes) +
             " bytes in the host's compile but " + std::to_string(kernel_bytes) +
             " bytes in the kernel's: a macro that only the host compiler defines picks the "
             "type (such as one an -Xhost option gives), or an option changes its layout "
             "on one side only; give the macro with -D");
  }
}
} // namespace

void check_launch_shape(const detail::launch_request &request, const kernel_info *kernel) {
  // Names and places are text only for errors: launches are a hot path.
  auto context = [&] { return launch_site_text(request, kernel); };
  const dim3 &g = request.workgroups, &t = request.threads;
  if (g.x == 0 || g.y == 0 || g.z == 0 || t.x == 0 || t.y == 0 || t.z == 0)
    fail(context(), "empty grid: workgroups " + dims(g) + ", threads " + dims(t) +
                        " (every extent must be at least 1)");
  if (std::uint64_t n = std::uint64_t(t.x) * t.y * t.z;
      n > max_workgroup_threads || t.z > max_workgroup_threads_z)
    fail(context(), "workgroups of " + dims(t) + " = " + std::to_string(n) +
                        " threads exceed the limit of every device (" +
                        std::to_string(max_workgroup_threads) + " threads, " +
                        std::to_string(max_workgroup_threads_z) + " in z)");
  for (std::uint32_t i = 0; i < request.num_args; ++i)
    if (request.args[i].how != detail::transfer::literal && request.args[i].bytes == UINT64_MAX)
      fail(context(), "a span argument (slot " + std::to_string(i) +
                          ") holds more bytes than a 64-bit size holds");
  if (kernel && kernel->param_bytes)
    check_argument_sizes(request, *kernel, context);
  if (request.dynamic_shared_bytes == 0xffffffffu)  // offload::byte_count's out-of-range mark
    fail(context(), "dynamic_shared_bytes is negative or 4 GiB or more, which exceeds the limit "
                    "of every device (" + std::to_string(max_dynamic_shared_bytes) + " bytes)");
  if (request.dynamic_shared_bytes > max_dynamic_shared_bytes)
    fail(context(), std::to_string(request.dynamic_shared_bytes) +
                        " bytes of dynamic shared memory exceed the limit of every device (" +
                        std::to_string(max_dynamic_shared_bytes) + " bytes)");
  if (g.x > max_workgroups_x || g.y > max_workgroups_yz || g.z > max_workgroups_yz)
    fail(context(), "a grid of " + dims(g) + " workgroups exceeds the limit of every device (" +
                        std::to_string(max_workgroups_x) + " in x, " +
                        std::to_string(max_workgroups_yz) + " in y and z)");
}

void shape_range(detail::launch_request &request, const device &on, stream &s,
                 const kernel_info *kernel) {
  if (!request.is_range)
    return;
  const std::uint64_t items = request.range_end - request.range_begin;
  auto refuse = [&](const std::string &why) { fail(launch_site_text(request, kernel), why); };
  if (request.range_begin != 0)
    refuse("a launch over offload::range [" + std::to_string(request.range_begin) + ", " +
           std::to_string(request.range_end) + ") must begin at 0: launch over range{n} and "
           "pass the first index to the kernel");
  if (request.range_end == SIZE_MAX)
    refuse("a launch over an offload::range of a negative or out-of-range number of work-items");
  if (items == 0)
    refuse("a launch over an empty offload::range (it needs at least 1 work-item)");
  std::uint64_t size = !on.is_cpu() && kernel && s.can_launch(kernel)
                           ? s.occupancy_workgroup_size(*kernel, request.dynamic_shared_bytes)
                           : 0;
  if (size == 0)
    size = on.is_cpu() && kernel && !kernel->uses_barriers ? 1024 : 256;
  size = std::min<std::uint64_t>(size, max_workgroup_threads);
  // On a GPU at most 256 work-items, as CUDA programs' launches mostly are: the occupancy
  // calculator says 1024 for a short kernel, and BabelStream's lambdas in workgroups of 1024
  // streamed at 0.89-0.91 of CUDA's workgroups of 256 on an H200 (bench/RESULTS.md, 2026-12-05
  // twenty-first entry); the kernels' version, in 256, at 1.00.
  if (!on.is_cpu())
    size = std::min<std::uint64_t>(size, 256);
  // Few work-items on a GPU: smaller workgroups (down to 64 work-items), so that there are at
  // least as many as multiprocessors — each work-item's work then runs on more of them
  // (matrix-rotate's lambda port: 2,500 long-running work-items in 3 workgroups of 1024 took
  // 3.3x the 10 workgroups of 256 of its kernel port, on an H100's 132 SMs).
  if (const std::uint32_t units = on.is_cpu() ? 0 : s.compute_units(); units > 0)
    while (size >= 128 && size % 64 == 0 && (items + size - 1) / size < units)
      size /= 2;
  if (items < size)
    size = std::min(size, (items + 31) / 32 * 32);  // whole warps
  const std::uint64_t groups = items / size + (items % size != 0);
  if (groups > UINT32_MAX)  // (said with the real count, not the grid's clamped one)
    refuse("a range of " + std::to_string(items) + " work-items needs " + std::to_string(groups) +
           " workgroups of " + std::to_string(size) + ", more than a grid holds (" +
           std::to_string(UINT32_MAX) + "): split the range");
  request.threads = {static_cast<std::uint32_t>(size)};
  request.workgroups = {static_cast<std::uint32_t>(groups)};
  request.is_range = false;  // shaped: what follows sees an ordinary launch
}

void report_launch(const detail::launch_request &request, const kernel_info *kernel,
                   const device &on, const char *how) {
  const dim3 &g = request.workgroups, &t = request.threads;
  const std::string name = kernel_name(request, kernel), at = short_location(request.where);
  // A lambda kernel is named by its place ("lambda at f.cpp:12"): said once where it is also
  // where the launch is.
  const bool named_by_place =
      name == "lambda at " + at || name.starts_with("lambda at " + at + " ");
  // A lambda whose body begins on another line than its launch: "lambda at f.cpp:12, launched
  // at f.cpp:11" (two "at"s in a row read as one place).
  const char *joint = name.starts_with("lambda at ") ? ", launched at " : " at ";
  info_line("launching kernel %s%s%s on %s%s with %s workgroups of %s threads", name.c_str(),
            named_by_place ? "" : joint, named_by_place ? "" : at.c_str(), on.name().c_str(), how,
            dims(g).c_str(), dims(t).c_str());
}

} // namespace offload::rt
