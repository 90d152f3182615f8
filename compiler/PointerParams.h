// compiler/PointerParams.h — a kernel's pointer parameter used as an array. A `T*` (or
// `T (*)[N]`) parameter maps the one object it points to (docs/design.md, "A pointer parameter
// is one object"), so a kernel that indexes it (`x[i]`) or does arithmetic on it (`x + i`,
// `x++`, `x += i`, `x - i`) with anything but a constant 0 reads and writes past the copy the
// device holds. The host-metadata pass makes that a build error; this finds the uses.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace offload::compiler {

/// The first use of one pointer parameter as an array in a kernel's body.
struct PointerUsedAsArray {
  const clang::ParmVarDecl *Param = nullptr;
  /// The offending expression: `x[i]`, `x + i`, `++x`, `x += i`...
  const clang::Expr *Use = nullptr;
  /// The local the parameter was copied into (`float *p = x; p[i]`), or null.
  const clang::VarDecl *Through = nullptr;
  /// `x[i]` (else pointer arithmetic).
  bool Indexed = false;
};

/// For each parameter of Kernel's definition that Watch says is a mapped pointer, its first use
/// as an array, in source order: an index or pointer arithmetic whose other operand is not the
/// constant 0, on the parameter itself or on a local that holds nothing but a copy of it (a
/// pointer initialised or assigned only from the parameter or another such local, whose address
/// is never taken nor bound to a reference). `x[0]`, `*x`, `x->f`, `&x[0]` and `(*x)[i]` are
/// not such uses. What is not followed: calls (`helper(x, i)` indexing it there, `std::next`,
/// `memcpy`), explicit casts (`((char *)x)[i]`), `?:`, locals that may hold something else.
std::vector<PointerUsedAsArray>
findPointersUsedAsArrays(const clang::FunctionDecl &Kernel,
                         llvm::function_ref<bool(const clang::ParmVarDecl &)> Watch,
                         clang::ASTContext &Ctx);

} // namespace offload::compiler
