// runtime/profile_nvtx.cpp — offload::scoped_range as NVTX ranges, for nsys. NVTX v3 is
// header-only: built with its headers (found beside the CUDA toolkit when the runtime is
// configured), a push does nothing until a tool injects itself (nsys sets
// NVTX_INJECTION64_PATH, which NVTX's own code reads and dlopens at the first push); without the
// headers these do nothing. No library is linked either way.
#include "profile.hpp"

#if OFFLOAD_CXX_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace offload::rt::profile {

bool nvtx_push(const char *name) noexcept {
#if OFFLOAD_CXX_HAVE_NVTX
  nvtxRangePushA(name);
  return true;
#else
  (void)name;
  return false;
#endif
}

void nvtx_pop() noexcept {
#if OFFLOAD_CXX_HAVE_NVTX
  nvtxRangePop();
#endif
}

} // namespace offload::rt::profile
