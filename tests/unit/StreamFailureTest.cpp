// Unit tests for the message of a failure a GPU reports when its stream is waited for
// (runtime/errors.hpp): one launch in flight is named as a device fault is; several are
// listed, each distinct launch site once, in order, up to four.
#include "errors.hpp"

#include <gtest/gtest.h>

using offload::rt::stream_failure_message;

TEST(StreamFailure, OneLaunchIsNamed) {
  EXPECT_EQ(stream_failure_message({"kernel 'write_far' launched at a.cpp:9"}, "CUDA device 0",
                                   "an illegal memory access was encountered"),
            "offload-cxx: error: kernel 'write_far' launched at a.cpp:9 failed on CUDA device 0: "
            "an illegal memory access was encountered");
}

TEST(StreamFailure, SeveralLaunchesListEachSiteOnce) {
  EXPECT_EQ(stream_failure_message({"kernel 'scale' launched at a.cpp:3",
                                    "kernel 'scale' launched at a.cpp:3",
                                    "kernel 'write_far' launched at a.cpp:5"},
                                   "CUDA device 1", "boom"),
            "offload-cxx: error: one of 3 queued launches failed on CUDA device 1 (the GPU does "
            "not say which): kernel 'scale' launched at a.cpp:3, kernel 'write_far' launched at "
            "a.cpp:5: boom");
}

TEST(StreamFailure, ManySitesAreCounted) {
  std::vector<std::string> sites;
  for (int line = 1; line <= 6; ++line)
    sites.push_back("kernel 'k' launched at a.cpp:" + std::to_string(line));
  const std::string message = stream_failure_message(sites, "AMDGPU device 0", "lost");
  EXPECT_NE(message.find("one of 6 queued launches"), std::string::npos) << message;
  EXPECT_NE(message.find("a.cpp:4 and 2 more: lost"), std::string::npos) << message;
  EXPECT_EQ(message.find("a.cpp:5"), std::string::npos) << message;
}
