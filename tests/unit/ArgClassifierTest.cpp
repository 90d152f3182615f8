// Unit tests for the host-metadata pass's classification of parameter types (ArgClassifier),
// over the same table that AbiTest.cpp checks against offload/abi.hpp, plus the raw-pointer
// member rule only the tool can see.
#include "ArgClassifier.h"

#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

namespace {

constexpr const char *Prelude = R"cpp(
  #include <cstdint>
  #include <optional>
  #include <tuple>
  #include <utility>
  // As a launch would: the classes are complete (instantiated) where the tool looks at them.
  template struct std::pair<int, int>;
  template class std::tuple<int, double>;
  template class std::optional<int>;
  struct copied_once { int a; copied_once &operator=(const copied_once &) { return *this; } };
  struct small_pod { float a, b; };
  struct big_pod { double v[25]; };
  struct huge_pod { double v[200]; };
  struct with_pointer { int *p; };
  struct nested { with_pointer w; };
  struct non_trivial { non_trivial(const non_trivial &) {} };
  enum class color : std::uint8_t { red, green };
)cpp";

std::string classify(const std::string &Type, std::string *Reason = nullptr) {
  std::string Code = std::string(Prelude) + "using probe_t = " + Type + ";\nvoid probe(probe_t p);\n";
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++20"}, "probe.cpp");
  if (!AST)
    return "<parse error>";
  clang::ASTContext &Ctx = AST->getASTContext();
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D); F && F->getName() == "probe") {
      offload::compiler::ParamClass C =
          offload::compiler::classifyParam(F->getParamDecl(0)->getType(), Ctx);
      if (Reason)
        *Reason = C.Reason;
      return offload::abi::param_kind_name(C.Kind);
    }
  return "<no probe>";
}

struct Case {
  const char *Type;
  const char *Kind;
};

TEST(ArgClassifier, AgreesWithTheHeaderTable) {
  const Case Cases[] = {
      {"double (*)[256]", "tofrom"}, {"const double (*)[256]", "to"},
      {"int *", "tofrom"},           {"const int *", "to"},
      {"small_pod &", "tofrom"},     {"const small_pod &", "to"},
      {"double", "literal"},         {"char", "literal"},
      {"color", "literal"},          {"small_pod", "literal"},
      {"big_pod", "literal"},        {"huge_pod", "value"},
      {"int **", "unmappable"},
      {"void *", "unmappable"},      {"non_trivial", "unmappable"},
      {"non_trivial *", "unmappable"}, {"int &&", "unmappable"},
      {"void (*)(int)", "unmappable"},
      // Values are only copied: a trivial copy constructor and destructor are enough.
      {"copied_once", "literal"},    {"copied_once *", "unmappable"},
      {"std::pair<int, int>", "literal"}, {"std::tuple<int, double>", "literal"},
      {"std::optional<int>", "literal"},  {"std::pair<int, int> &", "unmappable"},
      {"int (&)[8]", "tofrom"},      {"volatile int *", "tofrom"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(classify(C.Type), C.Kind) << "parameter type " << C.Type;
}

TEST(ArgClassifier, RefusesStructsHoldingRawPointers) {
  std::string Reason;
  EXPECT_EQ(classify("with_pointer", &Reason), "unmappable");
  EXPECT_NE(Reason.find("raw pointer member 'p'"), std::string::npos) << Reason;
  EXPECT_EQ(classify("nested *", &Reason), "unmappable");
  EXPECT_NE(Reason.find("host address on the device"), std::string::npos) << Reason;
}

TEST(ArgClassifier, ReasonsSayWhatToPassInstead) {
  std::string Reason;
  EXPECT_EQ(classify("void *", &Reason), "unmappable");
  EXPECT_NE(Reason.find("pass arithmetic or enum values"), std::string::npos) << Reason;
}

} // namespace
