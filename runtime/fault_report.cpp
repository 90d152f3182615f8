// runtime/fault_report.cpp — see fault_report.hpp. The handler only writes preformatted pieces
// with write(2) and calls _exit: both are async-signal-safe.
#include "fault_report.hpp"

#include <algorithm>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace offload::rt {
namespace {

thread_local const fault_scope *current = nullptr;
struct sigaction previous_abort_action;

void put(const char *text) {
  std::size_t n = std::strlen(text);
  while (n > 0) {
    ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0)
      return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}

void put_number(unsigned v) {
  char digits[16];
  int i = sizeof digits - 1;
  digits[i] = '\0';
  do {
    digits[--i] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v && i > 0);
  put(digits + i);
}

void on_abort(int signal) {
  if (const fault_scope *s = current) {
    const char *file = std::strrchr(s->file, '/');
    put("offload-cxx: error: ");
    put(s->prefix);
    put(s->name.c_str());
    put(s->suffix);
    put(" at ");
    put(file ? file + 1 : s->file);
    put(":");
    put_number(s->line);
    put(" failed on ");
    put(s->device.c_str());
    put(" (the offload runtime's report is above); a GPU fault cannot be recovered from, so the "
        "program ends\n");
    // The program's buffered output (a redirected stdout, its open FILEs) is written first;
    // exit() itself would run libomptarget's teardown, which may wait on the lock held by the
    // failed call.
    std::fflush(nullptr);
    ::_exit(1);
  }
  // Not ours: whatever handled SIGABRT before, or the default (a core dump).
  sigaction(SIGABRT, &previous_abort_action, nullptr);
  std::raise(signal);
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = on_abort;
    sigemptyset(&action.sa_mask);
    sigaction(SIGABRT, &action, &previous_abort_action);
  });
}

} // namespace

fault_scope::fault_scope(const char *what_prefix, const std::string &name_,
                         const char *what_suffix, const char *file_, unsigned line_,
                         const std::string &device_) noexcept
    : prefix(what_prefix), suffix(what_suffix), file(file_), name(name_), device(device_),
      line(line_), outer(current) {
  install_handler();
  current = this;
}

fault_scope::~fault_scope() { current = outer; }

std::string stream_failure_message(const std::vector<std::string> &sites,
                                   const std::string &device, const std::string &reason) {
  if (sites.size() == 1)
    return "offload-cxx: error: " + sites.front() + " failed on " + device + ": " + reason;
  std::vector<std::string> distinct;
  for (const std::string &s : sites)
    if (std::find(distinct.begin(), distinct.end(), s) == distinct.end())
      distinct.push_back(s);
  constexpr std::size_t listed = 4;
  std::string list;
  for (std::size_t i = 0; i < distinct.size() && i < listed; ++i)
    list += (i ? ", " : "") + distinct[i];
  if (distinct.size() > listed)
    list += " and " + std::to_string(distinct.size() - listed) + " more";
  return "offload-cxx: error: one of " + std::to_string(sites.size()) +
         " queued launches failed on " + device + " (the GPU does not say which): " + list +
         ": " + reason;
}

} // namespace offload::rt
