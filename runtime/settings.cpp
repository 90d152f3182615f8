// runtime/settings.cpp — see settings.hpp.
#include "settings.hpp"

#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <thread>
#include <sys/stat.h>
#include <unistd.h>

namespace offload::rt {
namespace {

/// The whole of `text` as a number in [lo, hi] (base 10, or 0: also 0x...); no sign but '-',
/// no spaces, no overflow.
bool whole_number(const char *text, long long lo, long long hi, long long &value, int base = 10) {
  if (!(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-'))
    return false;
  char *end = nullptr;
  errno = 0;
  value = std::strtoll(text, &end, base);
  return end != text && *end == '\0' && errno == 0 && value >= lo && value <= hi;
}

/// One of `names` (case-insensitively when `fold`): its index, or -1.
template <std::size_t N>
int one_of(const char *text, const char *const (&names)[N], bool fold = true) {
  for (std::size_t i = 0; i < N; ++i)
    if (fold ? strcasecmp(text, names[i]) == 0 : std::strcmp(text, names[i]) == 0)
      return static_cast<int>(i);
  return -1;
}

settings read_settings() {
  settings s;
  auto problem = [&](std::string why) {
    if (s.problem.empty())
      s.problem = std::move(why);
  };
  auto get = [](const char *name) -> const char * {
    const char *v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  long long n = 0;
  if (const char *d = get("OFFLOAD_DEVICE")) {
    if (strcasecmp(d, "cpu") == 0)
      s.cpu_only = true;
    else
      problem(std::string("OFFLOAD_DEVICE=") + d + " is not understood (set it to cpu to run on "
              "the CPU device, or leave it unset)");
  }
  if (const char *o = get("OMP_TARGET_OFFLOAD")) {
    static const char *const names[] = {"default", "mandatory", "disabled"};
    int i = one_of(o, names);
    if (i < 0)
      problem(std::string("OMP_TARGET_OFFLOAD=") + o +
              " is not understood (mandatory, disabled or default, or leave it unset)");
    else
      s.policy = static_cast<settings::gpu_policy>(i);
  }
  if (const char *i = get("OFFLOAD_INFO")) {
    if (whole_number(i, -1, 0xffffffffll, n, /*base=*/0))
      s.info = static_cast<std::uint32_t>(n);
    else
      problem(std::string("OFFLOAD_INFO=") + i +
              " is not understood (set it to -1 for everything, 1 for launches, or leave it unset)");
  }
  if (const char *t = get("OFFLOAD_CPU_THREADS")) {
    if (whole_number(t, 1, 4096, n))
      s.cpu_threads = static_cast<unsigned>(n);
    else
      problem(std::string("OFFLOAD_CPU_THREADS=") + t + " is not a number of threads from 1 to 4096");
  }
  if (s.cpu_threads == 0)
    s.cpu_threads = std::max(1u, std::thread::hardware_concurrency());
  if (const char *w = get("OFFLOAD_CPU_SPIN_US")) {
    if (whole_number(w, 0, 1000000, n))
      s.cpu_spin_us = static_cast<std::uint64_t>(n);
    else
      problem(std::string("OFFLOAD_CPU_SPIN_US=") + w +
              " is not a number of microseconds from 0 to 1000000");
  }
  if (const char *b = get("OFFLOAD_CPU_STACK")) {
    if (whole_number(b, 16384, 1ll << 30, n))
      s.cpu_stack = static_cast<std::size_t>(n);
    else
      problem(std::string("OFFLOAD_CPU_STACK=") + b +
              " is not a fiber stack size in bytes from 16384 to 1073741824 (1 GiB)");
  }
  if (const char *g = get("OFFLOAD_GPU_BACKEND")) {
    static const char *const names[] = {"cuda", "liboffload"};
    int i = one_of(g, names, /*fold=*/true);
    if (i < 0)
      problem(std::string("OFFLOAD_GPU_BACKEND=") + g +
              " is not understood (cuda or liboffload, or leave it unset)");
    else
      s.nvidia = static_cast<settings::nvidia_backend>(i);
  }
  // The variable OFFLOAD_GPU_BACKEND replaced: "liboffload" still means liboffload on NVIDIA
  // GPUs; "off"/"0" (libomptarget's launches, which are gone) now mean what unset means.
  if (const char *g = get("OFFLOAD_GPU_STREAMS")) {
    if (std::strcmp(g, "liboffload") == 0)
      s.nvidia = settings::nvidia_backend::liboffload;
    else if (std::strcmp(g, "off") != 0 && std::strcmp(g, "0") != 0)
      problem(std::string("OFFLOAD_GPU_STREAMS=") + g +
              " is not understood (it is kept only for off, 0 and liboffload; use "
              "OFFLOAD_GPU_BACKEND=cuda|liboffload)");
  }
  if (const char *b = get("OFFLOAD_LAUNCH_BLOCKING")) {
    if (whole_number(b, 0, 1, n))
      s.launch_blocking = n == 1;
    else
      problem(std::string("OFFLOAD_LAUNCH_BLOCKING=") + b +
              " is not understood (1: every launch waits for its kernel; 0 or unset: launches "
              "that bring nothing back return at once)");
  }
  if (const char *c = get("OFFLOAD_CUDA_SCHEDULE")) {
    static const char *const names[] = {"auto", "spin", "yield", "blocking"};
    int i = one_of(c, names, /*fold=*/true);
    if (i < 0)
      problem(std::string("OFFLOAD_CUDA_SCHEDULE=") + c +
              " is not understood (auto, spin, yield or blocking, or leave it unset)");
    else
      s.schedule = static_cast<settings::cuda_schedule>(i);
  }
  if (const char *p = get("OFFLOAD_PROFILE")) {
    if (whole_number(p, 0, 1, n))
      s.profile = n == 1;
    else
      problem(std::string("OFFLOAD_PROFILE=") + p +
              " is not understood (1: print each device's kernel and copy times at exit; 0 or "
              "unset: no profile)");
  }
  if (const char *t = get("OFFLOAD_TRACE")) {
    // A relative path names a file of the folder the program is in now, not of wherever it has
    // gone by its exit, when the timeline is written (adversarial pass: a chdir lost it).
    std::string path = t;
    if (!path.empty() && path[0] != '/')
      if (char cwd[4096]; getcwd(cwd, sizeof cwd))
        path = std::string(cwd) + "/" + path;
    // The folder of the file a symbolic link names (adversarial pass: a link into a missing
    // folder passed here, and the timeline was lost at exit).
    const std::string target = follow_links(path);
    const std::string::size_type slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
    const std::string file = path.substr(path.rfind('/') + 1);  // (npos + 1: the whole path)
    if (file.size() <= 5 || file.compare(file.size() - 5, 5, ".json") != 0)
      problem("OFFLOAD_TRACE=" + path +
              " is not understood (the file to write the timeline to, ending in .json)");
    else if (access(dir.c_str(), W_OK | X_OK) != 0)
      problem("OFFLOAD_TRACE=" + path + ": the folder " + dir +
              " cannot be written to (" + std::strerror(errno) + ")");
    else if (struct stat st; stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      problem("OFFLOAD_TRACE=" + path + " is not a file the timeline can replace (it is " +
              (S_ISDIR(st.st_mode) ? "a folder" : "not a plain file") +
              "): the timeline is written to FILE.json, replaced whole at exit");
    else
      s.trace_path = path;
  }
  return s;
}

} // namespace

std::string follow_links(std::string path) {
  for (int hops = 0; hops < 16; ++hops) {
    struct stat st;
    if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
      break;
    char target[4096];
    const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
    if (n <= 0)
      break;
    target[n] = '\0';
    const std::string t(target);
    const std::size_t slash = path.rfind('/');
    path = t.front() == '/' || slash == std::string::npos ? t : path.substr(0, slash + 1) + t;
  }
  return path;
}

const settings &current_settings() {
  static const settings s = read_settings();
  return s;
}

bool profiling_requested() {
  const settings &s = current_settings();
  return s.problem.empty() && (s.profile || !s.trace_path.empty());
}

std::uint32_t info_flags() {
  static const std::uint32_t flags = current_settings().info;
  return flags;
}

void info_line(const char *format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  std::fprintf(stderr, "offload-cxx info: %s\n", text);
}

} // namespace offload::rt
