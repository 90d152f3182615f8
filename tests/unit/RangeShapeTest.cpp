// Unit tests for the shape of an offload::range launch (runtime/launch_checks.cpp's
// shape_range), over the counting device of counting_device.hpp standing for a GPU.
#include "counting_device.hpp"
#include "launch_sequence.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>

#include <gtest/gtest.h>

using namespace offload::rt;
using offload::rt::testing::counting_device;
using offload::rt::testing::counting_stream;

namespace {

offload::detail::launch_request over(std::uint64_t items, const kernel_info &kernel) {
  offload::detail::launch_request r{};
  r.kernel = &kernel;
  r.where = {"test.cpp", "f", 1, 1};
  r.is_range = true;
  r.range_begin = 0;
  r.range_end = items;
  return r;
}

} // namespace

/// A GPU whose occupancy calculator says 1024 and that has 132 multiprocessors (an H100), and
/// the kernel shaped for it.
struct RangeShape : ::testing::Test {
  RangeShape() {
    s.occupancy = 1024;
    s.units = 132;
    k.name = "k";
  }
  offload::detail::launch_request shaped(std::uint64_t items) {
    auto r = over(items, k);
    shape_range(r, d, s, &k);
    return r;
  }
  counting_device d;
  counting_stream s;
  kernel_info k;
};

TEST_F(RangeShape, ManyItemsTakeAtMost256) {
  auto r = shaped(1 << 24);
  EXPECT_EQ(r.threads.x, 256u) << "a GPU's occupancy size, at most 256 (BabelStream's lambdas)";
  EXPECT_EQ(r.workgroups.x, (1u << 24) / 256);
  s.occupancy = 128;  // a kernel of many registers
  EXPECT_EQ(shaped(1 << 24).threads.x, 128u);
}

TEST_F(RangeShape, FewItemsSpreadOverTheMultiprocessors) {
  auto r = shaped(2500);  // matrix-rotate's lambda port: 3 workgroups of 1024 once
  EXPECT_EQ(r.threads.x, 64u) << "halved while fewer workgroups than multiprocessors, to 64";
  EXPECT_EQ(r.workgroups.x, (2500u + 63) / 64);
  auto mid = shaped(132 * 256);
  EXPECT_EQ(mid.threads.x, 256u) << "as many workgroups as multiprocessors: no smaller";
}

TEST_F(RangeShape, UnknownMultiprocessorsLeaveTheSize) {
  s.units = 0;
  auto r = shaped(2500);
  EXPECT_EQ(r.threads.x, 256u);
  EXPECT_EQ(r.workgroups.x, 10u);
}
