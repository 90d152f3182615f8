// runtime/info.cpp — see info.hpp.
#include "info.hpp"

#include "omptarget_abi.hpp"

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

void pass_info_flags_to_libomptarget() {
  static const bool passed = [] {
    // OFFLOAD_INFO=-1 means "everything we can safely show": libomptarget 22's bit 0x4 (dump
    // the mapping table at every kernel's exit) deadlocks it when several host threads launch
    // at once (measured on the H200: tests/lit/e2e/concurrency.cpp hangs with 0x4, passes with
    // every other bit). Asked for by value (OFFLOAD_INFO=4), it is passed.
    std::uint32_t flags = info_flags();
    if (flags == ~std::uint32_t{0})
      flags &= ~std::uint32_t{0x4};
    if (flags)
      __tgt_set_info_flag(flags);
    return true;
  }();
  (void)passed;
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
