// runtime/process_id.cpp — see process_id.hpp.
#include "process_id.hpp"

#include <atomic>
#include <pthread.h>
#include <unistd.h>

namespace offload::rt {
namespace {
std::atomic<pid_t> kept{0};
void forget() { kept.store(0, std::memory_order_relaxed); }  // the child asks again
// Registered as the library loads, before any thread of the program can fork: no guard of a
// function-local static for a child to inherit held (a fork during the first call hung the
// child: fork_during_first_launch, 1 trial in 40).
const bool watched = (::pthread_atfork(nullptr, nullptr, forget), true);
} // namespace

pid_t this_process() {
  (void)watched;
  if (const pid_t pid = kept.load(std::memory_order_relaxed))
    return pid;
  const pid_t pid = ::getpid();
  kept.store(pid, std::memory_order_relaxed);
  return pid;
}

} // namespace offload::rt
