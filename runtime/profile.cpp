// runtime/profile.cpp — see profile.hpp. One lock guards everything the profiler holds (the
// table, the trace, the timers not read yet); a launch takes it once.
#include "profile.hpp"

#include "profile_data.hpp"
#include "registry.hpp"

#include <offload/profile.hpp>

#include <atomic>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include <pthread.h>
#include <csignal>
#include <fcntl.h>
#include <tuple>
#include <unordered_set>

namespace offload::rt {

std::unique_ptr<launch_timer> stream::start_timer() {
  /// The host clock around launch(): the kernel's time where launch() runs it.
  struct host_timer final : launch_timer {
    double start = profile::now_us(), end = 0;
    void stop() override { end = profile::now_us(); }
    bool read(bool, double &s, double &e) override {
      s = start, e = end;
      return true;
    }
    bool host_clock() const override { return true; }
  };
  return std::make_unique<host_timer>();
}

void device::copy_in(void *device_dst, const void *host_src, std::uint64_t bytes) {
  if (!profiling()) [[likely]]
    return do_copy_in(device_dst, host_src, bytes);
  const double start = profile::now_us();
  do_copy_in(device_dst, host_src, bytes);
  profile::copied(*this, profile::copy_kind::to_device, bytes, start, profile::now_us());
}

void device::copy_out(void *host_dst, const void *device_src, std::uint64_t bytes) {
  if (!profiling()) [[likely]]
    return do_copy_out(host_dst, device_src, bytes);
  const double start = profile::now_us();
  do_copy_out(host_dst, device_src, bytes);
  profile::copied(*this, profile::copy_kind::from_device, bytes, start, profile::now_us());
}

void device::copy_within(void *device_dst, const void *device_src, std::uint64_t bytes) {
  if (!profiling()) [[likely]]
    return do_copy_within(device_dst, device_src, bytes);
  const double start = profile::now_us();
  do_copy_within(device_dst, device_src, bytes);
  profile::copied(*this, profile::copy_kind::within, bytes, start, profile::now_us());
}

void device::fill(void *device_dst, const void *pattern, std::uint32_t pattern_bytes,
                  std::uint64_t count) {
  if (!profiling()) [[likely]]
    return do_fill(device_dst, pattern, pattern_bytes, count);
  const double start = profile::now_us();
  do_fill(device_dst, pattern, pattern_bytes, count);
  profile::copied(*this, profile::copy_kind::fill, count * pattern_bytes, start, profile::now_us());
}

namespace profile {
namespace {

using clock = std::chrono::steady_clock;
const clock::time_point epoch = clock::now();

// Trace processes: the host's threads, the CPU device, then GPU n.
constexpr int host_pid = 0;
int pid_of(const device &on) { return on.is_cpu() ? 1 : on.number() + 2; }
// A device's tracks: GPU streams 1, 2, ...; CPU device launches by thread (1, 2, ...); copies
// by thread from copy_tid_base.
constexpr int copy_tid_base = 1000;

/// A launch whose timer is not read yet.
struct pending {
  std::unique_ptr<launch_timer> timer;
  kernel_row *row;
  int pid, tid;
  std::uint32_t grid[3], block[3];
};

struct state {
  std::mutex lock;
  table rows;
  std::deque<trace_event> events;  // a deque: no copying as it grows
  trace_tracks tracks;
  std::vector<pending> waiting;
  std::unordered_set<std::string> names;  // interned trace names (waits)
  std::map<const device *, const std::string *> wait_names;
  /// Kernel rows by (device, kernel, launch site): no string is built for a known launch.
  std::map<std::tuple<const device *, const void *, const char *, std::uint32_t>, kernel_row *>
      kernels;
  std::map<std::pair<const device *, const void *>, int> stream_tids;  // by stream
  std::map<const device *, int> next_stream_tid;
  bool trace = false;
  /// The settings the report needs, kept here: it is written after the globals are destroyed.
  bool profile = false;
  std::string trace_path;
  /// Set at exit (atexit): the device timers are read; only the host's clock is read after.
  bool devices_read = false;
  bool finished = false;

  const std::string &intern(std::string name) { return *names.insert(std::move(name)).first; }

  void name_process(int pid, const std::string &name) {
    if (trace)
      tracks.processes.try_emplace(pid, name);
  }
  /// Names a track at its first event (`name` makes the name: not built for a known track).
  template <class Name> void name_thread(int pid, int tid, Name name) {
    if (trace && !tracks.threads.count({pid, tid}))
      tracks.threads.emplace(std::pair{pid, tid}, name());
  }

  void record(pending &p, double start, double end) {
    p.row->time.add(end - start);
    if (!trace)
      return;
    trace_event e;
    e.name = &p.row->kernel;
    e.category = "kernel";
    e.ts = start;
    e.dur = end - start;
    e.pid = p.pid;
    e.tid = p.tid;
    e.site = &p.row->site;
    e.has_grid = true;
    std::memcpy(e.grid, p.grid, sizeof e.grid);
    std::memcpy(e.block, p.block, sizeof e.block);
    events.push_back(e);
  }

  /// Reads the timers that are done; all of them when `wait`. Under the lock.
  void collect_locked(bool wait) {
    std::size_t kept = 0;
    for (pending &p : waiting) {
      if (devices_read && !p.timer->host_clock())
        continue;  // a GPU launch after the devices' last read (at exit): left out
      double start = 0, end = 0;
      bool done = false;
      try {
        done = p.timer->read(wait, start, end);
      } catch (...) {
        done = false;  // a device that failed: the launch is left out
        p.timer.reset();
      }
      if (done)
        record(p, start, end);
      else if (p.timer && !wait)
        waiting[kept++] = std::move(p);
    }
    waiting.resize(kept);
  }
};

/// Made at the first use, never destroyed: threads, atexit handlers and global destructors may
/// still report at exit. Null until then.
state *made_state = nullptr;

state *new_state() {
  auto *made = new state;
  const settings &set = current_settings();
  made->trace_path = set.trace_path;
  made->trace = !set.trace_path.empty();
  made->profile = set.profile;
  return made;
}

state &the_state() {
  static const bool made = [] {
    made_state = new_state();
    return true;
  }();
  (void)made;
  return *made_state;
}

/// A child of fork() starts with an empty table and trace of its own, as gcc's -fprofile-arcs
/// counters do: it reported its parent's launches as its own, counted twice across the two
/// processes (adversarial pass). The parent's state is left to the child unused (its lock may be
/// held by the forking thread: taken before the fork, so that no other thread is inside it).
/// Registered when the library is loaded, before the runtime's other fork handlers: fork()
/// runs the preparing handlers last registered first, so this lock — taken while a launch holds
/// the present table's (profile::copied) — is taken after theirs (registered when the state
/// was made, it was taken first: a fork while other threads launched hung, adversarial pass).
state *locked_for_fork = nullptr;
[[gnu::constructor(101)]] void register_fork_handlers() {
  pthread_atfork(
      [] {
        locked_for_fork = made_state;
        if (locked_for_fork)
          locked_for_fork->lock.lock();
      },
      [] {
        if (locked_for_fork)
          locked_for_fork->lock.unlock();
      },
      [] {
        if (made_state)
          made_state = new_state();
      });
}

void read_devices_at_exit();

/// The devices' timers are read at exit, registered when profiling first records something
/// (after the devices exist, so it runs before anything they need is torn down); the report
/// and the trace are written later, by write_at_exit.
bool finish_registered = false;
void register_finish() {
  static const bool registered = [] {
    std::atexit(read_devices_at_exit);
    return finish_registered = true;
  }();
  (void)registered;
}

thread_local int this_thread_number = 0;
std::atomic<int> threads_seen{0};

std::string trace_text() {
  state &s = the_state();
  std::lock_guard guard(s.lock);
  s.collect_locked(/*wait=*/true);
  return trace_json(s.events, s.tracks);
}

/// Where a trace named `path` goes: `%p` replaced by the process id (one file per process) and
/// `%%` by `%` (as LLVM_PROFILE_FILE reads them: `run.%%p.json` is `run.%p.json`), a symbolic link
/// followed to the file it names (renaming over the link would replace it).
std::string trace_destination(const std::string &path) {
  std::string named;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 1 < path.size() && (path[i + 1] == 'p' || path[i + 1] == '%')) {
      named += path[i + 1] == 'p' ? std::to_string(getpid()) : "%";
      ++i;
    } else {
      named += path[i];
    }
  }
  return follow_links(named);
}

void write_trace(const std::string &named) {
  // Written whole to a file of this process's own, then renamed over FILE.json: an interrupted
  // program never leaves half a file where a previous good one was, and processes that share
  // the path (a fork, several ranks) never write into one temporary file (the last one's
  // timeline stays: `%p` in the name gives each its own).
  const std::string path = trace_destination(named);
  const std::string text = trace_text();
  const std::string tmp = path + "." + std::to_string(getpid()) + ".tmp";
  // Ctrl-C or a kill during the write takes effect once the file is in place (it left the
  // temporary, tens of MB, behind: adversarial pass). Only this thread's mask: the program is
  // ending.
  // SIGXFSZ too (`ulimit -f`): a write past the limit fails with EFBIG, a warning, instead of
  // killing the program before its stdout is flushed (fourteenth adversarial pass); the signal
  // that write raised is taken back below, not delivered when the mask is restored.
  sigset_t ending, before;
  sigemptyset(&ending);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ})
    sigaddset(&ending, sig);
  pthread_sigmask(SIG_BLOCK, &ending, &before);
  sigset_t pending_before;
  sigpending(&pending_before);
  const bool xfsz_was_pending = sigismember(&pending_before, SIGXFSZ) == 1;
  auto take_back_xfsz = [&] {
    sigset_t pending, xfsz;
    if (xfsz_was_pending || sigpending(&pending) != 0 || sigismember(&pending, SIGXFSZ) != 1)
      return;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    const timespec now{0, 0};
    (void)sigtimedwait(&xfsz, nullptr, &now);
  };
  // Made anew, never through a link planted at the temporary's (predictable) name, and with
  // the permissions of the trace it replaces (twelfth adversarial pass: fopen followed a symlink
  // there, and the rename reset an existing trace's mode).
  struct stat existing{};
  const bool replaces = ::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode);
  int fd = -1;
  for (int attempt = 0; attempt < 2 && fd < 0; ++attempt) {
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST)
      ::unlink(tmp.c_str());  // a crashed process's of this pid, or a link: removed, not followed
  }
  if (fd >= 0 && replaces)
    (void)::fchmod(fd, existing.st_mode & 07777);
  std::FILE *f = fd >= 0 ? ::fdopen(fd, "wb") : nullptr;
  if (!f && fd >= 0)
    ::close(fd);
  bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f)
    ok = std::fclose(f) == 0 && ok;
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) {
    take_back_xfsz();
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    return;
  }
  const int why = errno;
  std::remove(tmp.c_str());
  take_back_xfsz();
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  std::fprintf(stderr, "offload-cxx: warning: OFFLOAD_TRACE=%s: the timeline could not be written (%s)\n",
               path.c_str(), std::strerror(why));
}

void read_devices_at_exit() {
  state &s = the_state();
  std::lock_guard guard(s.lock);
  s.collect_locked(/*wait=*/true);
  s.devices_read = true;
}

/// The report and the trace, as the runtime's library is finalised: after every atexit handler
/// and global destructor of the program (their launches on the CPU device are in them; a GPU
/// refuses launches by then). Reads only kept state, no global that exit destroyed.
__attribute__((destructor)) void write_at_exit() {
  if (!made_state || !finish_registered)
    return;
  state &s = *made_state;
  std::string report;
  {
    std::lock_guard guard(s.lock);
    if (s.finished)
      return;
    s.finished = true;
    s.collect_locked(/*wait=*/true);
    if (s.profile)
      report = s.rows.render();
  }
  if (!report.empty()) {
    std::fwrite(report.data(), 1, report.size(), stderr);
    std::fflush(stderr);
  }
  if (!s.trace_path.empty())
    write_trace(s.trace_path);
}

} // namespace

double now_us() {
  return std::chrono::duration<double, std::micro>(clock::now() - epoch).count();
}

int thread_number() {
  if (!this_thread_number)
    this_thread_number = ++threads_seen;
  return this_thread_number;
}

void launch(device &on, stream &s, const kernel_info *kernel,
            const detail::launch_request &request, const abi::slot_t *slots) {
  std::unique_ptr<launch_timer> timer = s.start_timer();
  s.launch(kernel, request, slots);
  timer->stop();
  const int thread = thread_number();
  state &st = the_state();
  std::lock_guard guard(st.lock);
  register_finish();
  // The thread's last launch is usually launched again: no lookup then.
  using key = std::tuple<const device *, const void *, const char *, std::uint32_t>;
  thread_local key last_key{};
  thread_local kernel_row *last_row = nullptr;
  // (of this state: a child of fork() has a table of its own, and the forking thread's last row
  // was its parent's: the child's launches went into the parent's table, never reported.)
  thread_local const state *last_state = nullptr;
  const key k{&on, request.kernel, request.where.file, request.where.line};
  if (!last_row || k != last_key || last_state != &st) {
    last_state = &st;
    kernel_row *&row = st.kernels[k];
    if (!row)
      row = &st.rows.kernel(on.name(), kernel_name(request, kernel), short_location(request.where));
    last_key = k, last_row = row;
  }
  kernel_row *row = last_row;
  pending p{std::move(timer), row, pid_of(on), 0, {}, {}};
  if (st.trace) {
    st.name_process(p.pid, on.name());
    if (on.is_cpu()) {
      p.tid = thread;
      st.name_thread(p.pid, p.tid, [&] { return "launches of thread " + std::to_string(thread); });
    } else {
      int &tid = st.stream_tids[{&on, &s}];
      if (!tid) {
        tid = ++st.next_stream_tid[&on];
        st.name_thread(p.pid, tid, [&] {
          return "stream " + std::to_string(tid) + " (thread " + std::to_string(thread) + ")";
        });
      }
      p.tid = tid;
    }
    const auto &g = request.workgroups, &b = request.threads;
    const std::uint32_t grid[3] = {g.x, g.y, g.z}, block[3] = {b.x, b.y, b.z};
    std::memcpy(p.grid, grid, sizeof grid);
    std::memcpy(p.block, block, sizeof block);
  }
  double start = 0, end = 0;
  bool done = false;
  try {
    done = p.timer->read(/*wait=*/false, start, end);
  } catch (...) {  // the launch was enqueued: its failure, if any, shows at its wait
  }
  if (done) {
    st.record(p, start, end);
    return;
  }
  st.waiting.push_back(std::move(p));
  if (st.waiting.size() >= 4096)  // a long run of launches nobody waits for: read what is done
    st.collect_locked(/*wait=*/false);
}

void copied(const device &on, copy_kind kind, std::uint64_t bytes, double start_us, double end_us) {
  static const std::string directions[] = {"host to device", "device to host", "device to device",
                                            "fill on device"};
  const std::string &direction = directions[static_cast<int>(kind)];
  const int thread = thread_number();
  state &st = the_state();
  std::lock_guard guard(st.lock);
  register_finish();
  copy_row &row = st.rows.copy(on.name(), direction);
  row.bytes += bytes;
  row.time.add(end_us - start_us);
  if (!st.trace)
    return;
  trace_event e;
  e.name = &row.direction;
  e.category = "copy";
  e.ts = start_us;
  e.dur = end_us - start_us;
  e.pid = pid_of(on);
  e.tid = copy_tid_base + thread;
  e.bytes = bytes;
  st.name_process(e.pid, on.name());
  st.name_thread(e.pid, e.tid, [&] { return "copies of thread " + std::to_string(thread); });
  st.events.push_back(e);
}

void sync(const device &on, stream &s) {
  const double start = now_us();
  s.sync();  // a failure is the caller's: the wait is left out of the trace
  const double end = now_us();
  const int thread = thread_number();
  state &st = the_state();
  std::lock_guard guard(st.lock);
  if (st.trace && !on.is_cpu()) {  // the CPU device's streams have nothing to wait for
    trace_event e;
    const std::string *&name = st.wait_names[&on];
    if (!name)
      name = &st.intern("wait for " + on.name());
    e.name = name;
    e.category = "wait";
    e.ts = start;
    e.dur = end - start;
    e.pid = host_pid;
    e.tid = thread;
    st.name_process(host_pid, "host");
    st.name_thread(host_pid, thread, [&] { return "thread " + std::to_string(thread); });
    st.events.push_back(e);
  }
  st.collect_locked(/*wait=*/false);
}

void collect(bool wait) {
  state &st = the_state();
  std::lock_guard guard(st.lock);
  st.collect_locked(wait);
}

} // namespace profile
} // namespace offload::rt

namespace offload {

namespace {
/// A range being timed (profiling on); null when only NVTX (or nothing) takes it.
struct open_range {
  rt::profile::range_row *row;
  double start;
};
/// scoped_range's token when NVTX took the range and profiling is off.
char nvtx_only;
} // namespace

scoped_range::scoped_range(const char *name) {
  const bool nvtx = rt::profile::nvtx_push(name);
  if (!rt::profiling()) {
    token_ = nvtx ? &nvtx_only : nullptr;
    return;
  }
  rt::profile::state &st = rt::profile::the_state();
  rt::profile::range_row *row;
  {
    std::lock_guard guard(st.lock);
    rt::profile::register_finish();
    row = &st.rows.range(name);
  }
  token_ = new open_range{row, rt::profile::now_us()};
  nvtx_ = nvtx;
}

scoped_range::~scoped_range() {
  if (!token_)
    return;
  if (token_ == &nvtx_only) {
    rt::profile::nvtx_pop();
    return;
  }
  auto *r = static_cast<open_range *>(token_);
  const double end = rt::profile::now_us();
  const int thread = rt::profile::thread_number();
  rt::profile::state &st = rt::profile::the_state();
  {
    std::lock_guard guard(st.lock);
    r->row->time.add(end - r->start);
    if (st.trace) {
      rt::profile::trace_event e;
      e.name = &r->row->name;
      e.category = "range";
      e.ts = r->start;
      e.dur = end - r->start;
      e.pid = rt::profile::host_pid;
      e.tid = thread;
      st.name_process(rt::profile::host_pid, "host");
      st.name_thread(rt::profile::host_pid, thread, [&] { return "thread " + std::to_string(thread); });
      st.events.push_back(e);
    }
  }
  delete r;
  if (nvtx_)
    rt::profile::nvtx_pop();
}

std::string profile_report_text() {
  if (!rt::profiling())
    return "offload-cxx profile: off (set OFFLOAD_PROFILE=1 or OFFLOAD_TRACE=FILE.json)\n";
  rt::profile::state &st = rt::profile::the_state();
  std::lock_guard guard(st.lock);
  st.collect_locked(/*wait=*/true);
  return st.rows.render();
}

void profile_report(std::FILE *to) {
  const std::string text = profile_report_text();
  std::fwrite(text.data(), 1, text.size(), to ? to : stderr);
  std::fflush(to ? to : stderr);
}

} // namespace offload
