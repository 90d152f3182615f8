// runtime/cpu_in_place.cpp — see cpu_in_place.hpp.
#include "cpu_in_place.hpp"

#include "cpu_fault.hpp"
#include "device.hpp"
#include "errors.hpp"
#include "present_table.hpp"
#include "settings.hpp"

#include <cinttypes>
#include <cstdio>

namespace offload::rt {
namespace {
using detail::arg_desc;
using detail::transfer;

bool mapped(const arg_desc &a) { return a.how != transfer::literal && a.host_ptr && a.bytes; }
bool only_read(const arg_desc &a) { return mapped(a) && a.how == transfer::to && a.read_only; }
std::uintptr_t begin_of(const arg_desc &a) { return reinterpret_cast<std::uintptr_t>(a.host_ptr); }
bool overlap(const arg_desc &a, const arg_desc &b) {
  return begin_of(a) < begin_of(b) + b.bytes && begin_of(b) < begin_of(a) + a.bytes;
}
} // namespace

bool in_place_reads::take(device &cpu, const detail::launch_request &request,
                          const map_site &site) {
  present_table &table = cpu.present();
  const arg_desc *args = request.args;
  const std::uint32_t n = request.num_args;
  std::uint32_t i = 0;
  while (i < n && !only_read(args[i]))
    ++i;
  if (i == n)
    return false;  // the usual launch: nothing allocated
  for (; i < n; ++i) {
    const arg_desc &a = args[i];
    if (!only_read(a) || a.bytes > UINTPTR_MAX - begin_of(a))
      continue;
    bool written_over = false;
    for (std::uint32_t j = 0; j < n && !written_over; ++j)
      written_over = j != i && mapped(args[j]) && !only_read(args[j]) && overlap(a, args[j]);
    if (written_over || table.holds_any(begin_of(a), begin_of(a) + a.bytes))
      continue;
    if (args_.empty())
      args_.assign(args, args + n);
    original_.push_back(a);
    args_[i] = {transfer::literal, nullptr, sizeof(void *), static_cast<abi::slot_t>(begin_of(a)),
                a.element_bytes};
    if (info_flags() & info_mapping_changed)
      info_line("%s: Reading in place HstPtrBegin=0x%016" PRIxPTR ", Size=%" PRIu64 ", Name=%s",
                cpu.name().c_str(), begin_of(a), a.bytes, table.name_of(i, site).c_str());
  }
  if (original_.empty())
    return false;
  request_ = request;
  request_.args = args_.data();
  return true;
}

void in_place_reads::explain_failure(const std::string &context) const {
  for (const arg_desc &a : original_)
    if (!cpu_host_readable(a.host_ptr, a.bytes)) {
      char address[32];
      std::snprintf(address, sizeof address, "0x%016" PRIxPTR, begin_of(a));
      fail(context, std::string("an argument's memory at address ") + address + " (" +
                        std::to_string(a.bytes) +
                        " bytes) cannot be read: it is not the host object the argument should "
                        "point at");
    }
}

bool cpu_host_readable(const void *p, std::uint64_t bytes) {
  if (bytes == 0)
    return true;
  struct range {
    const volatile unsigned char *at;
    std::uint64_t bytes;
  } r{static_cast<const volatile unsigned char *>(p), bytes};
  auto touch = [](void *raw) {
    const range &r = *static_cast<const range *>(raw);
    constexpr std::uintptr_t page = 4096;
    const auto first = reinterpret_cast<std::uintptr_t>(r.at);
    const std::uintptr_t last = first + (r.bytes - 1);
    for (std::uintptr_t pg = first / page;; ++pg) {
      (void)*reinterpret_cast<const volatile unsigned char *>(std::max(first, pg * page));
      if (pg == last / page)
        break;
    }
  };
  cpu_fault fault;
  return run_catching_faults(touch, &r, fault);
}

} // namespace offload::rt
