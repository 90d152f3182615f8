// runtime/deferred_launches.cpp — see deferred_launches.hpp.
#include "deferred_launches.hpp"

#include "device.hpp"
#include "profile.hpp"

#include <offload/launch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>

namespace offload::rt {

/// Every device's set, for fork(), offload::synchronize() and the exit.
struct deferred_registry {
  std::mutex lock;
  std::vector<deferred_launches *> all;

  static deferred_registry &get();
  static void install_fork_handlers();
};

namespace {
/// Made when the library loads, before any thread (ThreadSanitizer sees a function-local static's
/// first use from two threads as a race in the uninstrumented runtime); never destroyed: used at
/// exit.
deferred_registry *const registry = new deferred_registry;
} // namespace

deferred_registry &deferred_registry::get() { return *registry; }

namespace {
/// Distinct launch sites kept per stream (a loop launches from a few sites many times).
constexpr std::size_t kept_sites = 8;
} // namespace

void deferred_registry::install_fork_handlers() {
  // Before fork: take every set's lock (no settle is half-way); after it, the parent goes on and
  // the child, whose copy of the GPU's streams is not its own, forgets what the parent deferred.
  pthread_atfork(
      [] {
        deferred_registry &r = deferred_registry::get();
        r.lock.lock();
        for (deferred_launches *d : r.all)
          d->lock_.lock();
      },
      [] {
        deferred_registry &r = deferred_registry::get();
        for (deferred_launches *d : r.all)
          d->lock_.unlock();
        r.lock.unlock();
      },
      [] {
        deferred_registry &r = deferred_registry::get();
        for (deferred_launches *d : r.all) {
          d->streams_.clear();
          d->kept_failure_.clear();
          d->count_.store(0, std::memory_order_release);
          d->lock_.unlock();
        }
        r.lock.unlock();
      });
}

namespace {
/// Installed when the library loads, not at the first set's making: a child forked while
/// another thread of its parent was in that first use waited on the static's guard for ever
/// (adversarial pass, 2026-12-05).
const bool fork_handlers_installed = (deferred_registry::install_fork_handlers(), true);
} // namespace

deferred_launches::deferred_launches(const device &owner) : owner_(owner) {
  deferred_registry &r = deferred_registry::get();
  std::lock_guard guard(r.lock);
  r.all.push_back(this);
}

deferred_launches::~deferred_launches() {
  deferred_registry &r = deferred_registry::get();
  std::lock_guard guard(r.lock);
  std::erase(r.all, this);
}

void deferred_launches::update_count_locked() noexcept {
  count_.store(streams_.size() + (kept_failure_.empty() ? 0 : 1), std::memory_order_release);
}

void deferred_launches::register_exit_handler() {
  static const bool exit_handler = (std::atexit(&deferred_launches::at_exit), true);
  (void)exit_handler;
}

void deferred_launches::add(stream &s, const detail::launch_request &request,
                            const kernel_info *kernel) {
  register_exit_handler();
  std::lock_guard guard(lock_);
  auto it = std::find_if(streams_.begin(), streams_.end(), [&](const held &h) { return h.s == &s; });
  if (it == streams_.end()) {
    streams_.push_back({&s, std::this_thread::get_id(), {}, 0});
    it = std::prev(streams_.end());
    update_count_locked();
  }
  ++it->launches;
  const bool known = std::any_of(it->sites.begin(), it->sites.end(), [&](const site &k) {
    return k.request.kernel == request.kernel && k.request.where.line == request.where.line &&
           k.request.where.file == request.where.file;
  });
  if (!known && it->sites.size() < kept_sites) {
    site k{request, kernel};
    k.request.args = nullptr;
    k.request.num_args = 0;
    it->sites.push_back(k);
  }
}

std::vector<std::string> deferred_launches::texts(const held &h) {
  std::vector<std::string> out;
  for (const site &k : h.sites)
    out.push_back(launch_site_text(k.request, k.kernel));
  // stream_failure_message counts launches by the list's length: pad with the last site.
  while (out.size() < h.launches && out.size() < 64 && !out.empty())
    out.push_back(out.back());
  return out;
}

std::string deferred_launches::wait_locked(const stream *except) {
  std::string failure;
  for (auto it = streams_.begin(); it != streams_.end();) {
    if (it->s == except) {
      ++it;
      continue;
    }
    try {
      sync_stream(owner_, *it->s);
    } catch (const device_failure &f) {
      if (failure.empty())
        failure = stream_failure_message(texts(*it), owner_.name(), f.reason) +
                  " (the launch had returned; the failure showed when the device was next waited "
                  "for)";
    }
    it = streams_.erase(it);
  }
  if (failure.empty() && !kept_failure_.empty())
    failure = kept_failure_;
  kept_failure_.clear();
  update_count_locked();
  return failure;
}

void deferred_launches::settle_slowly(const stream *except) {
  std::string failure;
  {
    std::lock_guard guard(lock_);
    failure = wait_locked(except);
  }
  if (!failure.empty())
    throw offload::error(failure);
}

void deferred_launches::settle_quietly() noexcept {
  if (!any())
    return;
  std::lock_guard guard(lock_);
  std::string failure = wait_locked(nullptr);
  if (!failure.empty())
    kept_failure_ = std::move(failure);
  update_count_locked();
}

void deferred_launches::forget_waited(stream &s) noexcept {
  std::lock_guard guard(lock_);
  std::erase_if(streams_, [&](const held &h) { return h.s == &s; });
  update_count_locked();
}

std::vector<std::string> deferred_launches::take_sites(stream &s) {
  std::lock_guard guard(lock_);
  std::vector<std::string> sites;
  for (auto it = streams_.begin(); it != streams_.end(); ++it)
    if (it->s == &s) {
      sites = texts(*it);
      streams_.erase(it);
      break;
    }
  update_count_locked();
  return sites;
}

bool deferred_launches::copy_out_in_order(void *host_dst, const void *device_src,
                                          std::uint64_t bytes) {
  // Profiling times the kernels and the copy apart: the caller waits, then copies.
  if (!any() || profiling())
    return false;
  std::string failure;
  {
    std::lock_guard guard(lock_);
    if (streams_.size() != 1 || !kept_failure_.empty() ||
        streams_.front().owner != std::this_thread::get_id())
      return false;
    held &h = streams_.front();
    try {
      if (!h.s->copy_out_in_order(host_dst, device_src, bytes))
        return false;
    } catch (const device_failure &f) {
      failure = stream_failure_message(texts(h), owner_.name(), f.reason) +
                " (the launch had returned; the failure showed when a copy waited for it)";
    }
    streams_.clear();
    update_count_locked();
  }
  if (!failure.empty())
    throw offload::error(failure);
  return true;
}

template <class Enqueue> bool deferred_launches::enqueue_after_own(Enqueue &&enqueue) {
  if (!any() || profiling())
    return false;
  std::lock_guard guard(lock_);
  if (streams_.size() != 1 || !kept_failure_.empty() ||
      streams_.front().owner != std::this_thread::get_id())
    return false;
  // An error enqueuing shows here (the caller reports it as the operation's); one of the
  // operation itself shows at the next settle, with the launches it followed.
  return enqueue(*streams_.front().s);
}

bool deferred_launches::copy_within_in_order(void *device_dst, const void *device_src,
                                             std::uint64_t bytes) {
  return enqueue_after_own(
      [&](stream &s) { return s.copy_within_in_order(device_dst, device_src, bytes); });
}

bool deferred_launches::fill_in_order(void *device_dst, const void *pattern,
                                      std::uint32_t pattern_bytes, std::uint64_t count) {
  return enqueue_after_own(
      [&](stream &s) { return s.fill_in_order(device_dst, pattern, pattern_bytes, count); });
}

void deferred_launches::forget(stream &s) noexcept {
  if (!any())
    return;
  std::lock_guard guard(lock_);
  for (auto it = streams_.begin(); it != streams_.end(); ++it)
    if (it->s == &s) {
      try {
        sync_stream(owner_, s);
      } catch (const device_failure &f) {
        if (kept_failure_.empty())
          kept_failure_ = stream_failure_message(texts(*it), owner_.name(), f.reason) +
                          " (the launch had returned; the failure showed when its thread ended)";
      } catch (...) {
      }
      streams_.erase(it);
      break;
    }
  update_count_locked();
}

void deferred_launches::keep_failure(std::string message) noexcept {
  register_exit_handler();
  std::lock_guard guard(lock_);
  if (kept_failure_.empty())
    kept_failure_ = std::move(message);
  update_count_locked();
}

void deferred_launches::settle_all() {
  std::vector<deferred_launches *> all;
  {
    deferred_registry &r = deferred_registry::get();
    std::lock_guard guard(r.lock);
    all = r.all;
  }
  std::string failure;
  for (deferred_launches *d : all)
    try {
      d->settle();
    } catch (const offload::error &e) {
      if (failure.empty())
        failure = e.what();
    }
  if (!failure.empty())
    throw offload::error(failure);
}

void deferred_launches::at_exit() {
  // The program is ending with launches nobody waited for, or with a failure nobody was told
  // of: wait for them, and end with status 1 when one failed (as an uncaught offload::error).
  bool failed = false;
  deferred_registry &r = deferred_registry::get();
  std::lock_guard guard(r.lock);
  for (deferred_launches *d : r.all) {
    std::string failure;
    {
      std::lock_guard held_lock(d->lock_);
      failure = d->wait_locked(nullptr);
    }
    if (!failure.empty()) {
      std::fflush(stdout);
      std::fprintf(stderr, "%s\n", failure.c_str());
      failed = true;
    }
  }
  if (failed) {
    std::fflush(nullptr);
    std::_Exit(1);
  }
}

} // namespace offload::rt
