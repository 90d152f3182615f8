// runtime/lazy_objects.hpp — the lock around making the runtime's objects that are made at
// their first use and never destroyed (the CPU device's worker pool, the CPU stream).
//
// Not function-local statics: a fork() while another thread was making one left the child
// waiting on the static's guard for ever (one_runtime, about 1 run in 100). Not a bare atomic
// pointer either: ThreadSanitizer cannot see an acquire in the uninstrumented runtime and
// reported the pool's first use from another thread as a race (the new-user pass). This lock
// is taken around fork() (pthread_atfork), so no making is half-done in a child, and every use
// takes it, so ThreadSanitizer sees the order.
#pragma once

#include <mutex>

namespace offload::rt {

std::mutex &lazy_objects_lock();

} // namespace offload::rt
