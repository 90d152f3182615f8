// runtime/info.cpp — see info.hpp.
#include "info.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace offload::rt {

std::uint32_t info_flags() {
  static const std::uint32_t flags = [] {
    const char *env = std::getenv("OFFLOAD_INFO");
    if (!env || !*env)
      return 0u;
    char *end = nullptr;
    long long v = std::strtoll(env, &end, 0);
    return *end == '\0' ? static_cast<std::uint32_t>(v) : 0u;
  }();
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
