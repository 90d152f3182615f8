// offload/math.hpp — device math beyond <cmath>, under portable names.
//
//   float r = offload::rsqrt(x);   // 1/sqrt(x): NVIDIA's rsqrt.approx (as CUDA's rsqrtf), AMD's
//                                  // v_rsq, the CPU device's 1/std::sqrt(x)
//
// The GPU forms are the hardware's fast approximations (NVIDIA: at most 2 ulp for float), as
// CUDA's rsqrtf/rsqrt are; the CPU device computes the correctly rounded quotient. <cmath>'s own
// functions (sqrt, exp, ...) are IEEE-rounded everywhere (user guide, "The device-side library").
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <cmath>

namespace offload {

#if defined(__NVPTX__)
inline float rsqrt(float x) { return __nvvm_rsqrt_approx_f(x); }
inline double rsqrt(double x) { return __nvvm_rsqrt_approx_d(x); }
#elif defined(__AMDGPU__)
inline float rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }
inline double rsqrt(double x) { return __builtin_amdgcn_rsq(x); }
#else
inline float rsqrt(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
#endif

} // namespace offload

#pragma pack(pop)
