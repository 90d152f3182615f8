// runtime/process_id.hpp — this process's id without a system call.
#pragma once

#include <sys/types.h>

namespace offload::rt {

/// This process's id: getpid() once, then kept (refreshed in a child of fork() by a
/// pthread_atfork handler). getpid() is a system call, ~0.3-0.5 us on a virtual machine, and the
/// queue's paths asked it several times per operation (which process owns the queue, a child
/// of fork): bench/NOTES.md, 2026-12-06 (third session).
pid_t this_process();

} // namespace offload::rt
