// runtime/cpu_fault.hpp — a kernel's fault on the CPU device is an error naming the kernel, as
// on a GPU, not a signal that kills the program. While a workgroup runs, its thread has a
// landing: a SIGSEGV, SIGBUS, SIGFPE or SIGILL raised by the kernel's code jumps back to it
// (the handler runs on an alternate stack, so a work-item that overflowed its stack is caught
// too), and the launch fails with what happened. A fault outside a kernel goes to whatever
// handled the signal before (the default: the program ends with the signal, as ever).
//
// The kernel's frames are abandoned, not unwound (a fault can happen anywhere, in no state to
// run destructors); what they held is leaked. The host's data is as it was: the kernel worked on
// the CPU device's copies (present_table.hpp), and nothing is copied back after a fault.
#pragma once

#include <cstddef>
#include <string>

namespace offload::rt {

/// What stopped a workgroup: a signal, where, and whether it was a work-item's stack overflow.
struct cpu_fault {
  int signal = 0;
  const void *address = nullptr;
  bool stack_overflow = false;
  /// The kernel wrote over its host thread's control block (past the end of an offload::shared
  /// array, which is thread_local on the CPU device); the block was put back.
  bool wrote_thread_block = false;
  /// One phrase for the error, e.g. "invalid memory access at 0x10 (SIGSEGV)";
  /// `fiber_stack_bytes` is the work-items' stack size when they ran as fibers, else 0.
  std::string describe(std::size_t fiber_stack_bytes) const;
};

/// Thrown by cpu_device_run when a kernel faulted; launch() turns it into the launch's error.
struct cpu_fault_error {
  cpu_fault fault;
  std::size_t fiber_stack_bytes;  ///< as for describe()
};

/// Runs body(arg) on this thread; returns false and fills `fault` if the kernel's code faulted.
bool run_catching_faults(void (*body)(void *), void *arg, cpu_fault &fault);

/// The stack of the work-item (fiber) about to run on this thread, so that a fault in the guard
/// below it is reported as a stack overflow; (nullptr, 0) when none runs.
void set_running_stack(const void *lowest, std::size_t guard_bytes) noexcept;

} // namespace offload::rt
