// runtime/cpu_fault.cpp — see cpu_fault.hpp.
#include "cpu_fault.hpp"

#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <atomic>
#include <sys/syscall.h>
#include <unistd.h>

namespace offload::rt {
namespace {

constexpr int caught_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int caught_count = sizeof caught_signals / sizeof caught_signals[0];
struct sigaction previous_actions[caught_count];

struct landing {
  sigjmp_buf jump;
  cpu_fault fault;
};
thread_local landing *current_landing = nullptr;
thread_local const char *running_stack_guard_low = nullptr, *running_stack_guard_high = nullptr;

/// Each thread that runs kernels gets an alternate signal stack (unless it has one), so that the
/// handler runs even when the fault is a stack overflow.
struct alternate_stack {
  void *memory = nullptr;
  alternate_stack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE))
      return;  // the thread has one already (the program's, or a sanitizer's)
    constexpr std::size_t bytes = 64 * 1024;
    memory = std::malloc(bytes);
    if (!memory)
      return;
    stack_t stack{};
    stack.ss_sp = memory;
    stack.ss_size = bytes;
    if (sigaltstack(&stack, nullptr) != 0) {
      std::free(memory);
      memory = nullptr;
    }
  }
  ~alternate_stack() {
    if (!memory)
      return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    std::free(memory);
  }
};

void forward(int signal, siginfo_t *info, void *context) {
  for (int i = 0; i < caught_count; ++i) {
    if (caught_signals[i] != signal)
      continue;
    const struct sigaction &before = previous_actions[i];
    if ((before.sa_flags & SA_SIGINFO) && before.sa_sigaction) {
      before.sa_sigaction(signal, info, context);
      return;
    }
    if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
      before.sa_handler(signal);
      return;
    }
    // The default: reinstate it and return, so that the faulting instruction runs again and
    // the program ends with the signal, as it would have without us. A signal sent by kill()
    // or raise() has no instruction to run again: it is raised anew (SA_NODEFER: not blocked
    // here), so that it ends the program as it would have. An ignored one stays ignored.
    sigaction(signal, &before, nullptr);
    if (info->si_code <= 0 && before.sa_handler == SIG_DFL)
      raise(signal);
    return;
  }
}

bool near_stack_pointer([[maybe_unused]] const void *address, [[maybe_unused]] void *context) {
#if defined(__x86_64__)
  const auto sp = static_cast<std::uintptr_t>(
      static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RSP]);
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  // A frame's first touch lies a little below the stack pointer (or, after the call that
  // overflowed, at it).
  return a <= sp + 256 && a + 65536 >= sp;
#else
  return false;
#endif
}

/// A fault inside this handler itself: a kernel that wrote over its host thread's control block
/// (past the end of an offload::shared array, which is thread_local on the CPU device: the
/// adversarial pass's 300 work-items in an int[256]) makes reading the thread's variables fault
/// again, and the handler recursed for ever (SA_NODEFER). The threads inside the handler are
/// kept by their ids in a table that needs no thread-local variable; a thread found there again
/// is said in one line, and the process ends.
std::atomic<pid_t> handling[64];
bool enter_handler(pid_t tid) {
  for (std::atomic<pid_t> &slot : handling)
    if (slot.load(std::memory_order_relaxed) == tid)
      return false;
  for (std::atomic<pid_t> &slot : handling) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, tid))
      break;  // (a full table: not recorded, as before)
  }
  return true;
}
void leave_handler(pid_t tid) {
  for (std::atomic<pid_t> &slot : handling) {
    pid_t mine = tid;
    slot.compare_exchange_strong(mine, 0);
  }
}
[[noreturn]] void end_nested_fault() {
  static const char message[] =
      "offload-cxx: error: a kernel on the CPU device wrote over its host thread's own memory "
      "(past the end of an offload::shared array?), and the fault that followed cannot be "
      "reported: check the kernel's shared-memory indices against its workgroup size\n";
  (void)!write(2, message, sizeof message - 1);
  _exit(1);
}

void on_fault(int signal, siginfo_t *info, void *context) {
  const pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
  if (!enter_handler(tid))  // before anything reads this thread's variables
    end_nested_fault();
  landing *l = current_landing;
  // A kernel's own abort() (a failed assert): raise(SIGABRT), which glibc sends to this thread
  // (SI_TKILL from this process) after it has released its own locks.
  const bool kernel_abort =
      signal == SIGABRT && info->si_code == SI_TKILL && info->si_pid == getpid();
  if (!l || (info->si_code <= 0 && !kernel_abort)) {  // not a kernel's, or sent by kill()
    leave_handler(tid);
    forward(signal, info, context);
    return;
  }
  l->fault.signal = signal;
  l->fault.address = info->si_addr;
  const char *a = static_cast<const char *>(info->si_addr);
  l->fault.stack_overflow =
      (signal == SIGSEGV || signal == SIGBUS) &&
      ((running_stack_guard_low && a >= running_stack_guard_low && a < running_stack_guard_high) ||
       near_stack_pointer(info->si_addr, context));
  current_landing = nullptr;
  leave_handler(tid);
  siglongjmp(l->jump, 1);
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_fault;
    // SA_NODEFER: the handler leaves by siglongjmp without restoring the signal mask (restoring
    // it would cost a system call per workgroup), so the signal must not be blocked inside it.
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < caught_count; ++i)
      sigaction(caught_signals[i], &action, &previous_actions[i]);
  });
}

const char *signal_name(int signal) {
  switch (signal) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGABRT:
    return "SIGABRT";
  }
  return "a signal";
}
} // namespace

std::string cpu_fault::describe(std::size_t fiber_stack_bytes) const {
  if (wrote_thread_block)
    return "it wrote past the end of its shared memory, over the host thread's own memory "
           "(an offload::shared index beyond its array: check the indices against the "
           "workgroup size)";
  char text[256];
  if (stack_overflow && fiber_stack_bytes) {
    std::snprintf(text, sizeof text,
                  "a work-item overflowed its stack of %zu KiB (a kernel with barriers runs each "
                  "work-item on a stack of its own): set OFFLOAD_CPU_STACK to more bytes",
                  fiber_stack_bytes / 1024);
    return text;
  }
  if (stack_overflow)
    return "a work-item overflowed the thread's stack: its locals or by-value arguments are "
           "larger than any device allows, or it recurses too deeply (GPUs allow a few KiB of "
           "stack: make the recursion a loop)";
  switch (signal) {
  case SIGFPE:
    std::snprintf(text, sizeof text, "arithmetic fault (SIGFPE, e.g. an integer division by 0)");
    break;
  case SIGILL:
    std::snprintf(text, sizeof text, "the kernel trapped (SIGILL)");
    break;
  case SIGABRT:
    std::snprintf(text, sizeof text,
                  "the kernel aborted (SIGABRT: a failed assert() or a call to abort(), whose "
                  "message is above)");
    break;
  default:
    std::snprintf(text, sizeof text, "invalid memory access at address 0x%llx (%s)",
                  static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(address)),
                  signal_name(signal));
  }
  return text;
}

namespace {
/// The words of the thread's control block that a kernel must leave as they were (glibc's
/// tcbhead_t on x86-64: itself, the DTV, self, -, sysinfo, the stack and the pointer guards;
/// not word 3, which other threads may write: multiple_threads and gscope_flag). The DTV (word
/// 1) may move while a kernel runs (glibc grows it at a first use of a later-loaded module's
/// thread-locals), so it is put back only along with a word that never changes: an overflow
/// from below reaches word 0 first. A kernel that
/// writes past an offload::shared array (thread_local on the CPU device, just below this
/// block) overwrites them, and every later use of a thread-local variable faulted in the fault
/// handler itself: the adversarial pass's program hung, or died by SIGSEGV outside the kernel.
/// Kept before a workgroup runs, compared and put back after it, before anything reads a
/// thread-local variable.
struct thread_block {
#if defined(__x86_64__) && defined(__GLIBC__)
  static constexpr int kept[] = {0, 1, 2, 4, 5, 6};
  std::uintptr_t *at = nullptr;
  std::uintptr_t saved[7] = {};
  thread_block() {
    void *self;
    asm volatile("mov %%fs:0, %0" : "=r"(self));
    at = static_cast<std::uintptr_t *>(self);
    for (int w : kept)
      saved[w] = at[w];
  }
  /// True (and the words put back) when the kernel changed them.
  bool put_back() noexcept {
    bool changed = false;
    for (int w : kept)
      changed |= w != 1 && at[w] != saved[w];
    if (changed)
      for (int w : kept)
        at[w] = saved[w];
    return changed;
  }
#else
  bool put_back() noexcept { return false; }
#endif
};
} // namespace

bool run_catching_faults(void (*body)(void *), void *arg, cpu_fault &fault) {
  install_handlers();
  static thread_local alternate_stack stack;
  (void)stack;
  landing here;
  struct restore {  // also when the kernel throws
    landing *outer = current_landing;
    ~restore() { current_landing = outer; }
  } restore_outer;
  thread_block block;
  if (sigsetjmp(here.jump, 0) != 0) {
    const bool wrote = block.put_back();  // first: the thread-local variables need it
    running_stack_guard_low = running_stack_guard_high = nullptr;
    fault = here.fault;
    fault.wrote_thread_block = wrote;
    return false;
  }
  current_landing = &here;
  body(arg);
  if (block.put_back()) {
    fault = cpu_fault{};
    fault.wrote_thread_block = true;
    return false;
  }
  return true;
}

void set_running_stack(const void *lowest, std::size_t guard_bytes) noexcept {
  running_stack_guard_high = static_cast<const char *>(lowest);
  running_stack_guard_low = running_stack_guard_high ? running_stack_guard_high - guard_bytes
                                                     : nullptr;
}

} // namespace offload::rt
