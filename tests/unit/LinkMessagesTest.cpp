// tests/unit/LinkMessagesTest.cpp — compiler/HostPass.h's linkMessagesForUser: the linker's
// messages name the user's sources, never offload-cxx's temporary objects (issue 32, item 6).
#include "HostPass.h"

#include <gtest/gtest.h>

using namespace offload::compiler;

TEST(LinkMessages, NameTheSourceOfEachObjectMadeHere) {
  const std::string Temp = "/tmp/offload-cxx-1a2b3c";
  const std::vector<std::pair<std::string, std::string>> Sources = {
      {Temp + "/p.0.k.host.o", "k.cpp"}, {Temp + "/p.1.h.host.o", "src/h.cpp"}};
  const std::string Got = linkMessagesForUser(
      Temp + "/p.0.k.host.o:k.cpp:function main: error: undefined reference to 'helper(float)'\n" +
          Temp + "/p.cpu-image.o:offload-cxx.device:function __offload_cpu_entry_Z1kv: error: "
                 "undefined reference to 'helper(float)'\n" +
          Temp + "/p.1.h.host.o: in function `g()':\n" +
          "collect2: error: ld returned 1 exit status\n",
      Sources, Temp);
  EXPECT_EQ(Got, "k.cpp:function main: error: undefined reference to 'helper(float)'\n"
                 "src/h.cpp: in function `g()':\n"
                 "collect2: error: ld returned 1 exit status\n");
}

TEST(LinkMessages, OurObjectsOwnProblemsAreSaidWithoutTheirPath) {
  const std::string Temp = "/tmp/offload-cxx-9";
  const std::string Got = linkMessagesForUser(
      Temp + "/p.registration.o:offload-cxx.device:function f: error: undefined reference to 'x'\n",
      {}, Temp);
  EXPECT_EQ(Got, "(code offload-cxx generated):offload-cxx.device:function f: error: undefined "
                 "reference to 'x'\n");
}
