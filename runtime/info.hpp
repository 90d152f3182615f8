// runtime/info.hpp — OFFLOAD_INFO: what the runtime reports about each launch. The value is
// LIBOMPTARGET_INFO's bit set (-1: everything); any non-zero value prints one line per launch
// (kernel, the launch's file:line, device, grid), and on a GPU the bits are handed to
// libomptarget, whose map, copy and launch lines then carry the launch's file:line.
#pragma once

#include <cstdint>

namespace offload::rt {

/// The OFFLOAD_INFO bits (0 when unset or unparsable).
std::uint32_t info_flags();

/// Hands the OFFLOAD_INFO bits to libomptarget, once per process (libomptarget must be
/// initialised: call it before a GPU operation). Setting them at every launch from many threads
/// races inside libomptarget's plugins.
void pass_info_flags_to_libomptarget();

/// printf-style line on stderr, prefixed "offload-cxx info: ".
void info_line(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace offload::rt
