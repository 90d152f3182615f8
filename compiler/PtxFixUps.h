// compiler/PtxFixUps.h — changes to the PTX clang 22 writes, made before ptxas reads it: each
// one works around a way ptxas misreads or miscompiles what LLVM emits (docs/design.md, "PTX
// fix-ups"). Each is exact (the PTX computes the same values after it) and leaves everything
// it does not recognise as it is.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace offload::compiler {

/// The `.file N "PATH"` directives (from -gline-directives-only) with no '"' inside PATH: LLVM
/// writes a path with a quote as it is, and ptxas then fails to parse the file. Such a quote
/// becomes a "'" (the path only names places in ptxas's errors, DeviceDiagnostics.h).
std::string quoteSafeFileDirectives(llvm::StringRef Ptx);

/// `add.s64 A, B, C*2^32; ... shr.s64 D, A, 32;` (LLVM's form of `(long long)(int)(x + C)`,
/// with B holding x in its high half) becomes 32-bit arithmetic. When B is
/// `mul.lo.s64 B, X, K*2^32` (or `shl.b64 B, X, 32`, K = 1), its high half is lo(X) * K:
///   { .reg .b32 %ofx_lo, %ofx_hi; cvt.u32.u64 %ofx_lo, X;
///     mad.lo.s32 %ofx_hi, %ofx_lo, K, C; cvt.s64.s32 D, %ofx_hi; }
/// else  { ...; mov.b64 {%ofx_lo, %ofx_hi}, B; add.s32 %ofx_hi, %ofx_hi, C; cvt.s64.s32 D, ... }
/// ptxas 13.0 (-O3) miscompiles the original when several such values share B: it keeps each
/// C in the high register of a 64-bit uniform register pair, added by IMAD.HI, and treats two
/// such IMAD.HIs as one (nvcc's own PTX of the same C++ is miscompiled alike; the fuzzer
/// found it, tests/kernelfuzz/gpu-regressions/ptxas-13.0/). Only when A, B and X are each defined once in
/// their function. *Rewritten, when given, counts the changes.
std::string splitHighHalfAdds(llvm::StringRef Ptx, unsigned *Rewritten = nullptr);

/// Both of the above, on the file at PtxPath (rewritten only if something changed).
llvm::Error fixUpPtxFile(const std::string &PtxPath);

} // namespace offload::compiler
