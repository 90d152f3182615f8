// compiler/ArgClassifier.cpp — see ArgClassifier.h.
#include "ArgClassifier.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <offload/abi.hpp>

#include <optional>

using namespace clang;

namespace offload::compiler {

namespace {
using offload::abi::param_kind;
} // namespace

static constexpr const char *WhatToPass =
    "pass arithmetic or enum values, structs by value that are trivially copy-constructible and "
    "destructible, or pointers/references to trivially copyable objects";

/// How an object travels: a value is only copied to the device (offload/abi.hpp
/// passable_value_v), a pointed-to object is copied both ways (mappable_object_v).
enum class Travel { CopiedBothWays, CopiedOnce };

/// Whether T can be copied as a kernel argument is: a trivial copy constructor and destructor.
static bool isTriviallyCopiedOnce(QualType T, const ASTContext &Ctx) {
  if (T.isTriviallyCopyableType(Ctx))
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() && RD->hasTrivialCopyConstructor() &&
         !RD->defaultedCopyConstructorIsDeleted() && RD->hasTrivialDestructor();
}

/// offload::device_ptr<U> or readonly_ptr<U>: an address in a device's memory, which travels as it
/// is.
static bool isDevicePtr(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  return Spec && (Spec->getQualifiedNameAsString() == "offload::device_ptr" ||
                  Spec->getQualifiedNameAsString() == "offload::readonly_ptr");
}

/// Record types already found fine by one objectProblem() call: a type nests others by value
/// only finitely (no depth limit is needed), but a wide nesting repeats types exponentially.
using CheckedRecords = llvm::SmallPtrSet<const Type *, 16>;

/// Empty when T (an object travelling to the device) is fine, else why not.
static std::string objectProblem(QualType T, const ASTContext &Ctx,
                                 Travel How, CheckedRecords &Checked) {
  T = T.getCanonicalType();
  while (const ArrayType *A = Ctx.getAsArrayType(T))
    T = A->getElementType().getCanonicalType();
  if (T->isVoidType())
    return "'void' has no size to copy; " + std::string(WhatToPass);
  if (T->isFunctionType())
    return "functions cannot be copied to the device; " + std::string(WhatToPass);
  if (T->isPointerType() || T->isMemberPointerType())
    return "a raw pointer inside the data would be a host address on the device; " +
           std::string(WhatToPass);
  if (T->isIncompleteType())
    return "'" + T.getAsString(Ctx.getPrintingPolicy()) + "' is incomplete";
  if (How == Travel::CopiedOnce ? !isTriviallyCopiedOnce(T, Ctx) : !T.isTriviallyCopyableType(Ctx))
    return "'" + T.getAsString(Ctx.getPrintingPolicy()) + "' is not trivially " +
           (How == Travel::CopiedOnce ? "copy-constructible and destructible; "
                                      : "copyable (it is copied to the device and back); ") +
           std::string(WhatToPass);
  if (const auto *RD = T->getAsCXXRecordDecl(); RD && Checked.insert(T.getTypePtr()).second) {
    for (const FieldDecl *F : RD->fields()) {
      QualType FT = F->getType().getCanonicalType();
      while (const ArrayType *A = Ctx.getAsArrayType(FT))
        FT = A->getElementType().getCanonicalType();
      if (isDevicePtr(FT))
        continue;  // a device address travels as it is (a struct of device arrays)
      if (FT->isPointerType() || FT->isReferenceType() || FT->isMemberPointerType())
        return "'" + T.getAsString(Ctx.getPrintingPolicy()) + "' holds the raw pointer member '" +
               F->getNameAsString() +
               "', which would be a host address on the device; pass the pointed-to data "
               "as its own kernel parameter";
      if (std::string P = objectProblem(FT, Ctx, How, Checked); !P.empty())
        return P;
    }
    for (const CXXBaseSpecifier &B : RD->bases())
      if (std::string P = objectProblem(B.getType(), Ctx, How, Checked); !P.empty())
        return P;
  }
  return "";
}

static std::string objectProblem(QualType T, const ASTContext &Ctx,
                                 Travel How = Travel::CopiedBothWays) {
  CheckedRecords Checked;
  return objectProblem(T, Ctx, How, Checked);
}

/// For std::span<U, E> and offload::device_ptr<U>: the class name and U.
static std::optional<std::pair<std::string, QualType>> specialClass(QualType T) {
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return std::nullopt;
  std::string Name = Spec->getQualifiedNameAsString();
  if (Name != "std::span" && Name != "offload::device_ptr" && Name != "offload::readonly_ptr")
    return std::nullopt;
  return std::make_pair(Name, Spec->getTemplateArgs()[0].getAsType());
}

/// The size clang gives an object that travels (the kernel's view of it, which the launch
/// compares with the host compiler's sizeof).
static std::uint64_t objectBytes(QualType T, const ASTContext &Ctx) {
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

ParamClass classifyParam(QualType Type, const ASTContext &Ctx) {
  QualType T = Type.getCanonicalType();
  if (auto Special = specialClass(T)) {
    auto [Name, Element] = *Special;
    if (Name == "offload::device_ptr" || Name == "offload::readonly_ptr")
      return {param_kind::device, "", 1,
              Element->isIncompleteType() || Element->isVoidType() ? 0 : objectBytes(Element, Ctx)};
    if (std::string P = objectProblem(Element, Ctx); !P.empty())
      return {param_kind::unmappable, P};
    return {Element.isConstQualified() ? param_kind::span_to
                                       : param_kind::span_tofrom,
            "", 2, objectBytes(Element, Ctx)};
  }
  if (const auto *R = T->getAs<ReferenceType>()) {
    if (T->isRValueReferenceType())
      return {param_kind::unmappable, "rvalue references cannot be mapped; take the parameter by value or "
                            "by pointer"};
    QualType Object = R->getPointeeType();
    if (std::string P = objectProblem(Object, Ctx); !P.empty())
      return {param_kind::unmappable, P};
    return {Object.isConstQualified() ? param_kind::map_to : param_kind::map_tofrom,
            "", 1, objectBytes(Object, Ctx)};
  }
  if (const auto *P = T->getAs<PointerType>()) {
    QualType Object = P->getPointeeType();
    QualType Element = Object;
    while (const ArrayType *A = Ctx.getAsArrayType(Element))
      Element = A->getElementType();
    if (std::string Problem = objectProblem(Object, Ctx); !Problem.empty())
      return {param_kind::unmappable, Problem};
    return {Element.isConstQualified() || Object.isConstQualified()
                ? param_kind::map_to
                : param_kind::map_tofrom,
            "", 1, objectBytes(Object, Ctx)};
  }
  if (T->isArrayType())
    return {param_kind::unmappable, "arrays decay to pointers; pass a pointer to the array, T (*)[N]"};
  if (std::string P = objectProblem(T, Ctx, Travel::CopiedOnce); !P.empty())
    return {param_kind::unmappable, P};
  const std::uint64_t Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
  if (Bytes <= offload::abi::max_literal_bytes)
    return {param_kind::literal, "", offload::abi::slot_count(param_kind::literal, Bytes), Bytes};
  return {param_kind::value_copy, "", 1, Bytes};
}

} // namespace offload::compiler
