// compiler/KernelDecl.h — what the host-metadata pass reads off a kernel's declaration in
// clang's AST: whether it is marked OFFLOAD_KERNEL, whether it may meet other work-items at a
// barrier, whether a parameter is read-only and unaliased, and the exact C++ expression that
// names one of its instantiations in generated code (template arguments spelled so that they
// name the same instantiation: fully qualified, floating-point values by their bits).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <string>

namespace offload::compiler {

/// Whether F, one of its declarations or its template carries OFFLOAD_KERNEL's annotation.
bool isMarkedKernel(const clang::FunctionDecl *F);

/// Whether Kernel may call offload::barrier() or a warp operation (shuffle, ballot), directly or
/// through functions whose bodies this translation unit has. A call to a function defined
/// elsewhere is assumed not to.
bool mayCallBarrier(const clang::FunctionDecl *Kernel);

/// offload::readonly_ptr<T>, or a `const T* __restrict__` pointer (ManifestParam::Restrict).
bool isReadOnlyUnaliased(clang::QualType T, const clang::ASTContext &Ctx);

/// A C++ expression naming instantiation K exactly, for generated code:
/// `static_cast<void (*)(params)>(&::ns::name<args>)`.
std::string exactCallee(const clang::FunctionDecl *K, const clang::ASTContext &Ctx);

} // namespace offload::compiler
