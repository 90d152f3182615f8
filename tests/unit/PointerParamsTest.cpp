// Unit tests for PointerParams.h: which uses of a kernel's pointer parameters are uses as an
// array (a build error: the parameter maps one object), and which are not.
#include "PointerParams.h"

#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

namespace {

/// The findings for `void k(float *x, float *y, double (*a)[4], int i, int &r) { Body }`
/// watching x, y and a, as "x[]" (indexed) or "x+" (arithmetic), with "@p" for a local p,
/// separated by spaces; "<parse error>" when the body is not C++.
std::string find(const std::string &Body) {
  std::string Code = "struct S { int f[4]; int g; };\n"
                     "void k(float *x, float *y, double (*a)[4], int i, int &r, S *s) {\n" +
                     Body + "\n}\n";
  std::unique_ptr<clang::ASTUnit> AST = clang::tooling::buildASTFromCodeWithArgs(
      Code, {"-std=c++20", "-Wno-unused-value"}, "k.cpp");
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return "<parse error>";
  clang::ASTContext &Ctx = AST->getASTContext();
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D); F && F->getName() == "k") {
      std::string Out;
      auto Watch = [](const clang::ParmVarDecl &P) { return P.getType()->isPointerType(); };
      for (const offload::compiler::PointerUsedAsArray &U :
           offload::compiler::findPointersUsedAsArrays(*F, Watch, Ctx)) {
        if (!Out.empty())
          Out += " ";
        Out += U.Param->getNameAsString() + (U.Indexed ? "[]" : "+");
        if (U.Through)
          Out += "@" + U.Through->getNameAsString();
      }
      return Out;
    }
  return "<no kernel>";
}

struct Case {
  const char *Body;
  const char *Found;
};

TEST(PointerParams, IndexAndArithmeticAreUsesAsArrays) {
  const Case Cases[] = {
      {"x[i] = 1;", "x[]"},
      {"y[i] = x[i] + y[i];", "y[] x[]"},  // each parameter once, at its first use
      {"i[x] = 1;", "x[]"},
      {"*(x + i) = 1;", "x+"},
      {"*(i + x) = 1;", "x+"},
      {"*(x - i) = 1;", "x+"},
      {"x++; *x = 1;", "x+"},
      {"--x;", "x+"},
      {"x += i;", "x+"},
      {"x -= 1;", "x+"},
      {"float *q = &x[i]; *q = 1;", "x[]"},
      {"x[1] = 1;", "x[]"},
      {"a[i][0] = 1;", "a[]"},  // past the one array a points to
      {"a += 1;", "a+"},
      {"r = int(y - x);", "y+ x+"},  // two objects' copies: the difference means nothing
      {"auto f = [&](int j) { x[j] = 1; }; f(i);", "x[]"},
      {"auto f = [=](int j) { return x[j]; }; r = f(i);", "x[]"},
      {"for (float *p = x; p != x + i; ++p) *p = 0;", "x+"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(find(C.Body), C.Found) << C.Body;
}

TEST(PointerParams, CopiesIntoLocalsAreFollowed) {
  const Case Cases[] = {
      {"float *p = x; p[i] = 1;", "x[]@p"},
      {"float *p; p = x; p[i] = 1;", "x[]@p"},
      {"auto p = x; *(p + i) = 1;", "x+@p"},
      {"const float *p = x; float *q = x; r = int(p[i] + q[0]);", "x[]@p"},
      {"float *p = x; float *q = p; q++;", "x+@q"},
      {"float *p = x; p = p + 1; *p = 0;", "x+@p"},
      {"float *p = &x[0]; p[i] = 0;", "x[]@p"},
      {"float *&p = x; p[i] = 0;", "x[]@p"},
      {"float *p = x; for (int j = 0; j < i; ++j) *p++ = 0;", "x+@p"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(find(C.Body), C.Found) << C.Body;
}

TEST(PointerParams, OneObjectUsesAreFine) {
  const Case Cases[] = {
      {"x[0] = *x + r;", ""},
      {"x[1 - 1] = 1;", ""},
      {"*x = 1; *y = *x;", ""},
      {"(*a)[i] = 1; a[0][i] = 2;", ""},
      {"s->f[i] = 1; s->g = 2; s[0].g = 3;", ""},
      {"float *q = &x[0]; *q = 1;", ""},
      {"float *p = x + 0; *p = 1;", ""},
      {"r = int(x - x);", ""},
      {"float *p = x; r = int(p - x);", ""},
      {"float *p = x; *p = 1; p[0] = 2;", ""},
      {"float v[4]; v[i] = 1; float *p = v; p[i] = 2; p++;", ""},
      {"r = x < y;", ""},
      {"r = sizeof(x[i]) + sizeof(x + 1); decltype(x[i]) e = *x; e = 1;", ""},
      {"float *p = x; r = sizeof(p); p[0] = 1;", ""},
      {"float *p = x; r = sizeof(p); p[i] = 1;", "x[]@p"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(find(C.Body), C.Found) << C.Body;
}

// What is not followed (docs/design.md, "A pointer parameter is one object"): a local that may
// hold something else, or may change unseen; explicit casts; calls.
TEST(PointerParams, WhatIsNotFollowed) {
  const Case Cases[] = {
      {"float *p = x; if (i) p = y; p[i] = 1;", ""},
      {"float *p = i ? x : y; p[i] = 1;", ""},
      {"float *p = x; float **pp = &p; p[i] = 1;", ""},
      {"float *p = x; float *&q = p; p[i] = 1;", ""},
      {"((char *)x)[i] = 0;", ""},
      {"auto at = [](float *p, int j) -> float & { return p[j]; }; at(x, i) = 1;", ""},
      {"float **pp = &x; (*pp)[i] = 1;", ""},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(find(C.Body), C.Found) << C.Body;
}

} // namespace
