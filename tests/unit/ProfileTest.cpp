// The profiler's aggregation and output (runtime/profile_data.hpp): statistics, the table's
// sections and order, units, JSON strings and the trace-event document.
#include "profile_data.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace offload::rt::profile;

TEST(ProfileStats, CountTotalMinMaxMean) {
  stats s;
  EXPECT_EQ(s.mean(), 0);
  for (double us : {4.0, 1.0, 7.0})
    s.add(us);
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.total, 12.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 7.0);
  EXPECT_DOUBLE_EQ(s.mean(), 4.0);
}

TEST(ProfileTable, RowsAreFoundAgainAndStable) {
  table t;
  kernel_row &a = t.kernel("GPU 0", "k<int>", "a.cpp:3");
  kernel_row &b = t.kernel("GPU 0", "k<int>", "a.cpp:4");  // another launch site: another row
  for (int i = 0; i < 100; ++i)
    t.kernel("GPU 0", "other" + std::to_string(i), "a.cpp:9");
  EXPECT_EQ(&a, &t.kernel("GPU 0", "k<int>", "a.cpp:3"));
  EXPECT_NE(&a, &b);
  EXPECT_NE(&a, &t.kernel("GPU 1", "k<int>", "a.cpp:3"));  // another device
  EXPECT_EQ(&t.copy("GPU 0", "host to device"), &t.copy("GPU 0", "host to device"));
  EXPECT_EQ(&t.range("step"), &t.range("step"));
}

TEST(ProfileTable, SortedByTotalTimePerDevice) {
  table t;
  t.kernel("CPU device", "short", "a.cpp:1").time.add(5);
  kernel_row &longer = t.kernel("CPU device", "long<float, 4>", "a.cpp:2");
  longer.time.add(3000);
  longer.time.add(1000);
  t.kernel("CUDA device 0", "gpu_kernel", "b.cpp:7").time.add(2);
  copy_row &in = t.copy("CPU device", "host to device");
  in.bytes = 4096;
  in.time.add(1.5);
  copy_row &out = t.copy("CPU device", "device to host");
  out.bytes = 3 << 20;
  out.time.add(20);
  t.range("solver step").time.add(2.5e6);
  const std::string text = t.render();
  const auto at = [&](const char *s) {
    const auto p = text.find(s);
    EXPECT_NE(p, std::string::npos) << s << " in\n" << text;
    return p;
  };
  EXPECT_LT(at("offload-cxx profile: CPU device\n"), at("long<float, 4>"));
  EXPECT_LT(at("long<float, 4>"), at("short"));  // 4 ms before 5 us
  EXPECT_LT(at("short"), at("device to host"));
  EXPECT_LT(at("device to host"), at("host to device"));  // 20 us before 1.5 us
  EXPECT_LT(at("host to device"), at("offload-cxx profile: CUDA device 0\n"));
  EXPECT_LT(at("offload-cxx profile: CUDA device 0\n"), at("offload-cxx profile: ranges"));
  // The long kernel's row: site, count, total, mean, min, max, aligned under the header.
  at("  long<float, 4>  a.cpp:2             2  4.00 ms  2.00 ms  1.00 ms  3.00 ms\n");
  at("  kernel          launch site  launches    total     mean      min      max\n");
  at("3.0 MiB");
  at("4.0 KiB");
  at("solver step      1  2.50 s");
}

TEST(ProfileTable, EmptySaysSo) {
  EXPECT_EQ(table().render(), "offload-cxx profile: nothing was launched, copied or timed\n");
}

TEST(ProfileFormat, TimesAndBytes) {
  EXPECT_EQ(format_time(0.25), "0.25 us");
  EXPECT_EQ(format_time(12.34), "12.3 us");
  EXPECT_EQ(format_time(1234), "1.23 ms");
  EXPECT_EQ(format_time(2.5e6), "2.50 s");
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(5ull << 30), "5.00 GiB");
}

TEST(ProfileJson, StringsAreEscaped) {
  EXPECT_EQ(json_string("plain"), "\"plain\"");
  EXPECT_EQ(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(json_string("tab\tnl\n\x01"), "\"tab\\u0009nl\\u000a\\u0001\"");
  EXPECT_EQ(json_string("caf\xc3\xa9 \xe2\x86\x92"), "\"caf\xc3\xa9 \xe2\x86\x92\"");  // UTF-8 kept
  EXPECT_EQ(json_string("bad\xff\xc3"), "\"bad\\ufffd\\ufffd\"");  // invalid bytes replaced
  EXPECT_EQ(json_string("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // a surrogate
  EXPECT_EQ(json_string("\xc0\xaf"), "\"\\ufffd\\ufffd\"");  // overlong
}

TEST(ProfileJson, TraceEvents) {
  const std::string kernel = "k<\"q\">", site = "a.cpp:3", copy = "host to device";
  trace_event k;
  k.name = &kernel;
  k.category = "kernel";
  k.ts = 10.5;
  k.dur = 2.25;
  k.pid = 2;
  k.tid = 1;
  k.site = &site;
  k.has_grid = true;
  k.grid[0] = 8, k.grid[1] = k.grid[2] = 1;
  k.block[0] = 128, k.block[1] = k.block[2] = 1;
  trace_event c;
  c.name = &copy;
  c.category = "copy";
  c.ts = 1;
  c.dur = -0.001;  // a clock's rounding: never a negative duration
  c.pid = 2;
  c.tid = 1001;
  c.bytes = 4096;
  trace_tracks tracks;
  tracks.processes[2] = "CUDA device 0";
  tracks.threads[{2, 1}] = "stream 1";
  const std::string json = trace_json({k, c}, tracks);
  EXPECT_EQ(json.rfind("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", 0), 0u);
  EXPECT_NE(json.find("{\"name\":\"process_name\",\"ph\":\"M\",\"ts\":0,\"pid\":2,\"tid\":0,"
                      "\"args\":{\"name\":\"CUDA device 0\"}}"),
            std::string::npos);
  EXPECT_NE(json.find("{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0,\"pid\":2,\"tid\":1,"
                      "\"args\":{\"name\":\"stream 1\"}}"),
            std::string::npos);
  EXPECT_NE(json.find("{\"name\":\"k<\\\"q\\\">\",\"cat\":\"kernel\",\"ph\":\"X\",\"ts\":10.500,"
                      "\"dur\":2.250,\"pid\":2,\"tid\":1,\"args\":{\"site\":\"a.cpp:3\","
                      "\"grid\":[8,1,1],\"block\":[128,1,1]}}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"dur\":0.000,\"pid\":2,\"tid\":1001,\"args\":{\"bytes\":4096}}"),
            std::string::npos)
      << json;
  EXPECT_EQ(json.substr(json.size() - 4), "\n]}\n");
}
