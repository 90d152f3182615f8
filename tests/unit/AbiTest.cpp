// Unit tests for offload/abi.hpp: the classification of kernel parameter types and the slot
// packing shared by the host packer and the generated device entries.
#include <offload/abi.hpp>
#include <offload/device.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>

namespace {
using offload::abi::param_kind;
template <class P> P from_slot(offload::abi::slot_t s) { return offload::abi::from_slots<P>(&s); }
using offload::abi::param_kind_v;

struct small_pod { float a, b; };
struct big_pod { double v[25]; };  // 200 bytes: in the launch's parameters
struct huge_pod { double v[200]; };  // 1600 bytes: through a device copy
struct nine_bytes { char c[9]; };
struct with_pointer { int *p; };
struct non_trivial { non_trivial(const non_trivial &) {} };
enum class color : std::uint8_t { red, green };
struct copied_once { int a; copied_once &operator=(const copied_once &) { return *this; } };

// The table the tool's ArgClassifier is also tested against (ArgClassifierTest.cpp).
static_assert(param_kind_v<double (*)[256]> == param_kind::map_tofrom);
static_assert(param_kind_v<const double (*)[256]> == param_kind::map_to);
static_assert(param_kind_v<int *> == param_kind::map_tofrom);
static_assert(param_kind_v<const int *> == param_kind::map_to);
static_assert(param_kind_v<small_pod &> == param_kind::map_tofrom);
static_assert(param_kind_v<const small_pod &> == param_kind::map_to);
static_assert(param_kind_v<double> == param_kind::literal);
static_assert(param_kind_v<char> == param_kind::literal);
static_assert(param_kind_v<color> == param_kind::literal);
static_assert(param_kind_v<small_pod> == param_kind::literal);
static_assert(param_kind_v<big_pod> == param_kind::literal);
static_assert(param_kind_v<huge_pod> == param_kind::value_copy);
static_assert(param_kind_v<int **> == param_kind::unmappable);
static_assert(param_kind_v<void *> == param_kind::unmappable);
static_assert(param_kind_v<non_trivial> == param_kind::unmappable);
static_assert(param_kind_v<non_trivial *> == param_kind::unmappable);
static_assert(param_kind_v<int &&> == param_kind::unmappable);
static_assert(param_kind_v<void (*)(int)> == param_kind::unmappable);
static_assert(param_kind_v<std::span<float>> == param_kind::span_tofrom);
static_assert(param_kind_v<std::span<const float, 4>> == param_kind::span_to);
static_assert(param_kind_v<std::span<int *>> == param_kind::unmappable);
// Values are only copied: a trivial copy constructor and destructor are enough.
static_assert(param_kind_v<copied_once> == param_kind::literal);
static_assert(param_kind_v<copied_once *> == param_kind::unmappable);
static_assert(param_kind_v<std::pair<int, int>> == param_kind::literal);
static_assert(param_kind_v<std::tuple<int, double>> == param_kind::literal);
static_assert(param_kind_v<std::optional<int>> == param_kind::literal);
static_assert(param_kind_v<int (&)[8]> == param_kind::map_tofrom);
static_assert(param_kind_v<volatile int *> == param_kind::map_tofrom);
static_assert(param_kind_v<offload::device_ptr<double>> == param_kind::device);
static_assert(offload::abi::slot_count_v<std::span<float>> == 2);
static_assert(offload::abi::slot_count_v<double> == 1);
static_assert(offload::abi::slot_count_v<nine_bytes> == 2);
static_assert(offload::abi::slot_count_v<big_pod> == 25);
static_assert(offload::abi::slot_count_v<huge_pod> == 1);
static_assert(offload::abi::slot_count(param_kind::literal, 1024) == 128);

TEST(Abi, WideValuesComeBackFromTheirSlots) {
  big_pod b;
  for (int i = 0; i < 25; ++i)
    b.v[i] = i * 0.5;
  offload::abi::slot_t slots[25];
  offload::abi::literal_to_slots(b, slots);
  const big_pod back = offload::abi::from_slots<big_pod>(slots);
  for (int i = 0; i < 25; ++i)
    EXPECT_EQ(back.v[i], i * 0.5);
  nine_bytes n{{1, 2, 3, 4, 5, 6, 7, 8, 9}};
  offload::abi::slot_t two[2] = {~0ull, ~0ull};
  offload::abi::literal_to_slots(n, two);
  EXPECT_EQ(two[1], 9u);  // zero-padded
  EXPECT_EQ(offload::abi::from_slots<nine_bytes>(two).c[8], 9);
}

TEST(Abi, SpansComeBackFromTwoSlots) {
  float data[5] = {};
  offload::abi::slot_t slots[2] = {reinterpret_cast<std::uintptr_t>(data), 5};
  std::span<float> s = offload::abi::from_slots<std::span<float>>(slots);
  EXPECT_EQ(s.data(), data);
  EXPECT_EQ(s.size(), 5u);
}

TEST(Abi, DevicePointersArePassedAsIs) {
  double d = 0;
  offload::abi::slot_t slot = reinterpret_cast<std::uintptr_t>(&d);
  EXPECT_EQ(offload::abi::from_slots<offload::device_ptr<double>>(&slot).get(), &d);
}

TEST(Abi, LiteralRoundTripsThroughASlot) {
  EXPECT_EQ(from_slot<double>(offload::abi::literal_to_slot(2.5)), 2.5);
  EXPECT_EQ(from_slot<float>(offload::abi::literal_to_slot(-1.25f)), -1.25f);
  EXPECT_EQ(from_slot<char>(offload::abi::literal_to_slot('x')), 'x');
  EXPECT_EQ(from_slot<color>(offload::abi::literal_to_slot(color::green)),
            color::green);
  small_pod p = from_slot<small_pod>(offload::abi::literal_to_slot(small_pod{1, 2}));
  EXPECT_EQ(p.a, 1.0f);
  EXPECT_EQ(p.b, 2.0f);
}

TEST(Abi, SmallLiteralsAreZeroPadded) {
  EXPECT_EQ(offload::abi::literal_to_slot(std::uint8_t{0xab}), 0xabu);
  EXPECT_EQ(offload::abi::literal_to_slot(std::int32_t{-1}), 0xffffffffu);
}

TEST(Abi, PointersAndReferencesComeBackAsAddresses) {
  double x[4] = {};
  auto slot = static_cast<offload::abi::slot_t>(reinterpret_cast<std::uintptr_t>(&x));
  EXPECT_EQ(from_slot<double (*)[4]>(slot), &x);
  EXPECT_EQ(&from_slot<double &>(slot), &x[0]);
}

TEST(Abi, LargeValuesAreReadThroughTheirCopy) {
  huge_pod b{};
  b.v[199] = 9;
  auto slot = static_cast<offload::abi::slot_t>(reinterpret_cast<std::uintptr_t>(&b));
  EXPECT_EQ(from_slot<huge_pod>(slot).v[199], 9);
}

TEST(Abi, ValuesThatAreOnlyCopiedRoundTrip) {
  const std::pair<int, float> p{7, 2.5f};
  const auto back = from_slot<std::pair<int, float>>(offload::abi::literal_to_slot(p));
  EXPECT_EQ(back.first, 7);
  EXPECT_EQ(back.second, 2.5f);
  const std::optional<int> o{42};
  EXPECT_EQ(*from_slot<std::optional<int>>(offload::abi::literal_to_slot(o)), 42);
}

TEST(Dim3, TakesAnyIntegerAndMarksWhatNoDeviceAllows) {
  const std::size_t n = 1000;
  const offload::dim3 g{(n + 255) / 256};
  EXPECT_EQ(g.x, 4u);
  EXPECT_EQ(g.y, 1u);
  const offload::dim3 h{std::int64_t{3}, short{2}, 1u};
  EXPECT_EQ(h.x * h.y * h.z, 6u);
  EXPECT_EQ(offload::dim3{-1}.x, 0xffffffffu);                       // negative
  EXPECT_EQ(offload::dim3{std::size_t{1} << 32}.x, 0xffffffffu);    // beyond 32 bits
  EXPECT_EQ(offload::dim3{std::uint64_t{0xfffffffe}}.x, 0xfffffffeu);
}

TEST(Abi, KindNamesAreTheManifestSpelling) {
  EXPECT_STREQ(offload::abi::param_kind_name(param_kind::map_tofrom), "tofrom");
  EXPECT_STREQ(offload::abi::param_kind_name(param_kind::map_to), "to");
  EXPECT_STREQ(offload::abi::param_kind_name(param_kind::literal), "literal");
  EXPECT_STREQ(offload::abi::param_kind_name(param_kind::value_copy), "value");
  EXPECT_STREQ(offload::abi::param_kind_name(param_kind::span_to), "span_to");
  EXPECT_STREQ(offload::abi::param_kind_name(param_kind::device), "device");
}
} // namespace
