// runtime/process_id.cpp — see process_id.hpp.
#include "process_id.hpp"

#include <atomic>
#include <pthread.h>
#include <unistd.h>

namespace offload::rt {
namespace {
std::atomic<pid_t> kept{0};
void refresh() { kept.store(::getpid(), std::memory_order_relaxed); }
} // namespace

pid_t this_process() {
  if (const pid_t pid = kept.load(std::memory_order_relaxed))
    return pid;
  static const bool watched = [] {
    ::pthread_atfork(nullptr, nullptr, refresh);  // the child's own id, before it runs on
    return true;
  }();
  (void)watched;
  refresh();
  return kept.load(std::memory_order_relaxed);
}

} // namespace offload::rt
