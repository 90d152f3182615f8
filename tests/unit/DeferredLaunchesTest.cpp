// Unit tests for launches that return before their kernels end (runtime/deferred_launches.hpp)
// and the present table's part in them (release_if_held; unmap and update wait first), over the
// counting device of counting_device.hpp.
#include "counting_device.hpp"
#include "present_table.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>

#include <gtest/gtest.h>

#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace offload::rt;
using offload::rt::testing::counting_device;
using offload::rt::testing::map_arg;
using offload::rt::testing::counting_stream;
using offload::detail::arg_desc;
using offload::detail::transfer;

namespace {

map_site region_site() {
  return {[] { return std::string("data region at test.cpp:3"); }, {"test.cpp", "f", 3, 1}, nullptr};
}

/// A launch of kernel `k` at test.cpp:`line` (no arguments: the set keeps only the site).
struct launch_at {
  explicit launch_at(unsigned line) {
    kernel.name = "k";
    request.kernel = &kernel;
    request.where = {"dir/test.cpp", "f", line, 1};
  }
  kernel_info kernel;
  offload::detail::launch_request request{};
};

} // namespace

TEST(ReleaseIfHeld, ALaunchInsideARegionReleasesWithoutCopies) {
  counting_device d;
  int x[4] = {1, 2, 3, 4};
  arg_desc region[] = {map_arg(x, sizeof x, transfer::tofrom)};
  d.present().map(region, 1, nullptr, region_site());
  arg_desc launch[] = {map_arg(x, sizeof x, transfer::tofrom), map_arg(x + 1, 4, transfer::to)};
  d.present().map(launch, 2, nullptr, region_site());
  EXPECT_TRUE(d.present().release_if_held(launch, 2)) << "the region still holds x";
  EXPECT_EQ(d.copies_out, 0);
  EXPECT_EQ(d.releases, 0);
  d.present().unmap(region, 1, true, region_site());
  EXPECT_EQ(d.copies_out, 1) << "the count went back to the region's one";
  EXPECT_EQ(d.releases, 1);
}

TEST(ReleaseIfHeld, TheLastReleaseIsLeftToUnmap) {
  counting_device d;
  int x[4] = {1, 2, 3, 4};
  arg_desc launch[] = {map_arg(x, sizeof x, transfer::tofrom)};
  d.present().map(launch, 1, nullptr, region_site());
  EXPECT_FALSE(d.present().release_if_held(launch, 1)) << "x would come back and be freed";
  d.present().unmap(launch, 1, true, region_site());
  EXPECT_EQ(d.copies_out, 1) << "nothing was released by the refused call";
  EXPECT_EQ(d.releases, 1);
  arg_desc values[] = {{transfer::literal, nullptr, 8, 7}};
  EXPECT_TRUE(d.present().release_if_held(values, 1)) << "values map nothing";
}

TEST(DeferredLaunches, CopiesAndOtherStreamsWaitFirst) {
  counting_device d;
  counting_stream s, other;
  launch_at k(10);
  EXPECT_FALSE(d.deferred().any());
  d.deferred().add(s, k.request, &k.kernel);
  EXPECT_TRUE(d.deferred().any());
  d.deferred().settle(&s);
  EXPECT_EQ(s.syncs, 0) << "the same stream keeps its order without a wait";
  d.deferred().settle(&other);
  EXPECT_EQ(s.syncs, 1) << "a launch on another stream waits";
  EXPECT_FALSE(d.deferred().any());

  int x[4] = {1, 2, 3, 4};
  arg_desc region[] = {map_arg(x, sizeof x, transfer::tofrom)};
  d.present().map(region, 1, nullptr, region_site());
  d.deferred().add(s, k.request, &k.kernel);
  d.present().update(region, 1, /*to_device=*/false, region_site());
  EXPECT_EQ(s.syncs, 2) << "an update waits";
  d.deferred().add(s, k.request, &k.kernel);
  arg_desc held[] = {map_arg(x + 1, 4, transfer::tofrom)};
  d.present().map(held, 1, nullptr, region_site());
  EXPECT_EQ(s.syncs, 2) << "mapping a held object makes no copy and waits for nothing";
  EXPECT_TRUE(d.present().release_if_held(held, 1));
  int y = 5;
  arg_desc fresh[] = {map_arg(&y, sizeof y, transfer::to)};
  d.present().map(fresh, 1, nullptr, region_site());
  EXPECT_EQ(s.syncs, 3) << "a new copy waits (a copy in after a fault would name no launch)";
  d.present().unmap(fresh, 1, true, region_site());
  d.deferred().add(s, k.request, &k.kernel);
  d.present().unmap(region, 1, true, region_site());
  EXPECT_EQ(s.syncs, 4) << "a region's end waits";
}

TEST(DeferredLaunches, AFailureNamesTheLaunchesAndNothingComesBack) {
  counting_device d;
  counting_stream s;
  launch_at first(10), second(20);
  int x[4] = {1, 2, 3, 4};
  arg_desc region[] = {map_arg(x, sizeof x, transfer::tofrom)};
  d.present().map(region, 1, nullptr, region_site());
  d.deferred().add(s, first.request, &first.kernel);
  d.deferred().add(s, second.request, &second.kernel);
  d.deferred().add(s, second.request, &second.kernel);
  s.failing = true;
  try {
    d.present().unmap(region, 1, true, region_site());
    FAIL() << "the region's end should report the failure";
  } catch (const offload::error &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("one of 3 queued launches failed on counting device"), std::string::npos) << what;
    EXPECT_NE(what.find("kernel 'k' launched at test.cpp:10, kernel 'k' launched at test.cpp:20"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("illegal memory access"), std::string::npos) << what;
    EXPECT_NE(what.find("the launch had returned"), std::string::npos) << what;
  }
  EXPECT_EQ(d.copies_out, 0) << "the device's copy is not trusted";
  EXPECT_EQ(d.releases, 1) << "the entry is gone all the same";
  EXPECT_FALSE(d.deferred().any());
}

TEST(DeferredLaunches, AQuietFailureIsThrownByTheNextSettle) {
  counting_device d;
  counting_stream s;
  launch_at k(30);
  d.deferred().add(s, k.request, &k.kernel);
  s.failing = true;
  d.deferred().settle_quietly();  // a buffer's destructor
  EXPECT_TRUE(d.deferred().any()) << "the failure is kept";
  s.failing = false;
  EXPECT_THROW(d.deferred().settle(), offload::error);
  EXPECT_FALSE(d.deferred().any());
  EXPECT_NO_THROW(d.deferred().settle()) << "reported once";

  d.deferred().add(s, k.request, &k.kernel);
  s.failing = true;
  d.deferred().forget(s);  // its thread ended
  EXPECT_TRUE(d.deferred().any());
  try {
    offload::synchronize();
    FAIL() << "synchronize should throw the kept failure";
  } catch (const offload::error &e) {
    EXPECT_NE(std::string(e.what()).find("when its thread ended"), std::string::npos) << e.what();
  }
}

TEST(DeferredLaunches, AWaitedStreamLeavesTheSetAndNamesItsLaunches) {
  counting_device d;
  counting_stream s;
  launch_at k(40);
  d.deferred().add(s, k.request, &k.kernel);
  d.deferred().waited(s);
  EXPECT_FALSE(d.deferred().any());
  d.deferred().add(s, k.request, &k.kernel);
  const std::vector<std::string> sites = d.deferred().take_sites(s);
  ASSERT_EQ(sites.size(), 1u);
  EXPECT_EQ(sites[0], "kernel 'k' launched at test.cpp:40");
  EXPECT_FALSE(d.deferred().any());
}

TEST(DeferredLaunches, ACopyAfterTheThreadsOwnLaunchesGoesOnTheirStream) {
  counting_device d;
  counting_stream s, other;
  launch_at k(60);
  long device_value = 42, host_value = 0;
  EXPECT_FALSE(d.deferred().copy_out_in_order(&host_value, &device_value, sizeof host_value))
      << "nothing deferred: a plain copy";
  d.deferred().add(s, k.request, &k.kernel);
  EXPECT_TRUE(d.deferred().copy_out_in_order(&host_value, &device_value, sizeof host_value));
  EXPECT_EQ(host_value, 42);
  EXPECT_EQ(s.copies_in_order, 1);
  EXPECT_FALSE(d.deferred().any()) << "the stream was waited for";

  d.deferred().add(s, k.request, &k.kernel);
  bool from_other_thread = true;
  std::thread([&] {
    from_other_thread = d.deferred().copy_out_in_order(&host_value, &device_value, 8);
  }).join();
  EXPECT_FALSE(from_other_thread) << "another thread's launches: settle, then copy";
  d.deferred().add(other, k.request, &k.kernel);
  EXPECT_FALSE(d.deferred().copy_out_in_order(&host_value, &device_value, 8)) << "two streams";
  d.deferred().settle();

  d.deferred().add(s, k.request, &k.kernel);
  s.failing = true;
  try {
    d.deferred().copy_out_in_order(&host_value, &device_value, 8);
    FAIL() << "the copy should report the launch's failure";
  } catch (const offload::error &e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'k' launched at test.cpp:60 failed"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(d.deferred().any());
}

TEST(DeferredLaunches, AForkedChildForgetsTheParentsLaunches) {
  counting_device d;
  counting_stream s;
  launch_at k(50);
  d.deferred().add(s, k.request, &k.kernel);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0)
    _exit(d.deferred().any() ? 1 : 0);  // and its exit does not wait for the parent's stream
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(d.deferred().any()) << "the parent's launch is still its own";
  d.deferred().settle();
  EXPECT_EQ(s.syncs, 1);
}
