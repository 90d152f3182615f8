// compiler/ArgClassifier.h — the host-metadata pass's view of offload/abi.hpp: how a kernel
// parameter type travels, computed from clang's AST. It applies the same rules as the header's
// offload::abi::param_traits (every generated device entry static_asserts that both agree), and
// one more that the header cannot see: a class with a raw-pointer member is refused, since the
// pointer would be a host address on the device.
#pragma once

#include <offload/abi.hpp>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

#include <string>

namespace offload::compiler {

struct ParamClass {
  offload::abi::param_kind Kind = offload::abi::param_kind::unmappable;
  /// For param_kind::unmappable: why, and what to pass instead (one sentence).
  std::string Reason;
  /// Launch slots it takes (offload::abi::slot_count: a literal takes one per 8 bytes).
  unsigned Slots = 1;
  /// Its size as clang lays it out (offload/detail/runtime_api.hpp,
  /// offload_cxx_kernel_record::param_bytes): a mapped object's or a value's size, a span's or
  /// a device pointer's element size (0 for an incomplete element).
  std::uint64_t Bytes = 0;
};

ParamClass classifyParam(clang::QualType Type, const clang::ASTContext &Ctx);

} // namespace offload::compiler
