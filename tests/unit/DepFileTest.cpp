// tests/unit/DepFileTest.cpp — compiler/DepFile.h: reading compilers' make rules (wrapped lines,
// escaped spaces, several rules) and writing the merged one.
#include "DepFile.h"

#include <gtest/gtest.h>

using namespace offload::compiler;

TEST(DepFile, ReadsWrappedRulesWithEscapes) {
  std::vector<std::string> Deps =
      readDepFileText("a.o: a.cpp /usr/include/c++/12/vector \\\n  my\\ dir/x.h cost$$.h\n\nx.h:\n");
  ASSERT_EQ(Deps.size(), 4u);
  EXPECT_EQ(Deps[0], "a.cpp");
  EXPECT_EQ(Deps[1], "/usr/include/c++/12/vector");
  EXPECT_EQ(Deps[2], "my dir/x.h");
  EXPECT_EQ(Deps[3], "cost$.h");
}

TEST(DepFile, WritesOneRuleForTheTargetsAndPhonyRules) {
  std::string Text = depFileText({"obj/a.o", "a\\ b.o"}, {"a.cpp", "my dir/x.h"}, /*Phony=*/true);
  EXPECT_EQ(Text, "obj/a.o a\\ b.o: a.cpp my\\ dir/x.h\n\nmy\\ dir/x.h:\n");
  // What it writes reads back the same.
  std::vector<std::string> Back = readDepFileText(Text);
  ASSERT_GE(Back.size(), 2u);
  EXPECT_EQ(Back[0], "a.cpp");
  EXPECT_EQ(Back[1], "my dir/x.h");
}

TEST(DepFile, WrapsLongLines) {
  std::vector<std::string> Deps(10, std::string(30, 'h'));
  std::string Text = depFileText({"t.o"}, Deps, false);
  EXPECT_NE(Text.find(" \\\n"), std::string::npos);
  EXPECT_EQ(readDepFileText(Text).size(), 10u);
}

// g++ writes -MQ targets and its default target (the object, `-o 'my obj.o'`) quoted for make.
TEST(DepFile, TargetsAreQuotedForMake) {
  EXPECT_EQ(offload::compiler::escapeForMake("my obj$x#1.o"), "my\\ obj$$x\\#1.o");
  EXPECT_EQ(offload::compiler::escapeForMake("plain/a.o"), "plain/a.o");
}
