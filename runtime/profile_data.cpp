// runtime/profile_data.cpp — see profile_data.hpp.
#include "profile_data.hpp"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>

namespace offload::rt::profile {

table::device_section &table::section(const std::string &device) {
  for (device_section &d : devices_)
    if (d.name == device)
      return d;
  devices_.push_back({device, {}, {}});
  return devices_.back();
}

kernel_row &table::kernel(const std::string &device, const std::string &kernel,
                          const std::string &site) {
  device_section &d = section(device);
  for (kernel_row &k : d.kernels)
    if (k.kernel == kernel && k.site == site)
      return k;
  d.kernels.push_back({kernel, site, {}});
  return d.kernels.back();
}

copy_row &table::copy(const std::string &device, const std::string &direction) {
  device_section &d = section(device);
  for (copy_row &c : d.copies)
    if (c.direction == direction)
      return c;
  d.copies.push_back({direction, 0, {}});
  return d.copies.back();
}

range_row &table::range(const std::string &name) {
  for (range_row &r : ranges_)
    if (r.name == name)
      return r;
  ranges_.push_back({name, {}});
  return ranges_.back();
}

std::string format_time(double us) {
  char text[32];
  if (us < 10)
    std::snprintf(text, sizeof text, "%.2f us", us);
  else if (us < 1000)
    std::snprintf(text, sizeof text, "%.1f us", us);
  else if (us < 1e6)
    std::snprintf(text, sizeof text, "%.2f ms", us / 1e3);
  else
    std::snprintf(text, sizeof text, "%.2f s", us / 1e6);
  return text;
}

std::string format_bytes(std::uint64_t bytes) {
  char text[32];
  const double b = static_cast<double>(bytes);
  if (bytes < 1024)
    std::snprintf(text, sizeof text, "%" PRIu64 " B", bytes);
  else if (bytes < (1u << 20))
    std::snprintf(text, sizeof text, "%.1f KiB", b / 1024);
  else if (bytes < (1ull << 30))
    std::snprintf(text, sizeof text, "%.1f MiB", b / (1 << 20));
  else
    std::snprintf(text, sizeof text, "%.2f GiB", b / (1ull << 30));
  return text;
}

namespace {

/// Rows of cells, left-aligned in the first `left` columns, right-aligned after; two spaces
/// indent, two between columns.
std::string columns(const std::vector<std::vector<std::string>> &rows, std::size_t left) {
  std::vector<std::size_t> width;
  for (const auto &row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c >= width.size())
        width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  std::string out;
  for (const auto &row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - row[c].size(), ' ');
      line += "  ";
      line += c < left ? row[c] + pad : pad + row[c];
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out += line + "\n";
  }
  return out;
}

template <class Row> std::vector<const Row *> by_total(const std::deque<Row> &rows) {
  std::vector<const Row *> sorted;
  for (const Row &r : rows)
    sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Row *a, const Row *b) { return a->time.total > b->time.total; });
  return sorted;
}

void add_times(std::vector<std::string> &cells, const stats &s) {
  cells.push_back(format_time(s.total));
  cells.push_back(format_time(s.mean()));
  cells.push_back(format_time(s.count ? s.min : 0));
  cells.push_back(format_time(s.max));
}

} // namespace

std::string table::render() const {
  if (empty())
    return "offload-cxx profile: nothing was launched, copied or timed\n";
  std::string out;
  for (const device_section &d : devices_) {
    out += "offload-cxx profile: " + d.name + "\n";
    if (!d.kernels.empty()) {
      std::vector<std::vector<std::string>> rows{
          {"kernel", "launch site", "launches", "total", "mean", "min", "max"}};
      for (const kernel_row *k : by_total(d.kernels)) {
        rows.push_back({k->kernel, k->site, std::to_string(k->time.count)});
        add_times(rows.back(), k->time);
      }
      out += columns(rows, 2);
    }
    if (!d.copies.empty()) {
      std::vector<std::vector<std::string>> rows{
          {"copies", "bytes", "count", "total", "mean", "min", "max"}};
      for (const copy_row *c : by_total(d.copies)) {
        rows.push_back({c->direction, format_bytes(c->bytes), std::to_string(c->time.count)});
        add_times(rows.back(), c->time);
      }
      out += columns(rows, 1);
    }
  }
  if (!ranges_.empty()) {
    out += "offload-cxx profile: ranges (host time)\n";
    std::vector<std::vector<std::string>> rows{{"range", "count", "total", "mean", "min", "max"}};
    for (const range_row *r : by_total(ranges_)) {
      rows.push_back({r->name, std::to_string(r->time.count)});
      add_times(rows.back(), r->time);
    }
    out += columns(rows, 1);
  }
  return out;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else {
      // A whole, shortest-form UTF-8 sequence (no surrogates) is kept; anything else is U+FFFD.
      std::size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      if (c >= 0xf5)
        n = 0;
      bool ok = n != 0 && i + n <= text.size();
      std::uint32_t cp = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
      for (std::size_t k = 1; ok && k < n; ++k) {
        const auto b = static_cast<unsigned char>(text[i + k]);
        ok = (b & 0xc0) == 0x80;
        cp = cp << 6 | (b & 0x3f);
      }
      ok = ok && !(n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) &&
           !(n == 4 && (cp < 0x10000 || cp > 0x10ffff));
      if (ok) {
        out.append(text.substr(i, n));
        i += n;
      } else {
        out += "\\ufffd";
        ++i;
      }
    }
  }
  return out + "\"";
}


std::string trace_json(const std::deque<trace_event> &events, const trace_tracks &tracks) {
  std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  bool first = true;
  auto begin_event = [&] {
    if (!first)
      out += ",\n";
    first = false;
  };
  for (const auto &[pid, name] : tracks.processes) {
    begin_event();
    out += "{\"name\":\"process_name\",\"ph\":\"M\",\"ts\":0,\"pid\":" + std::to_string(pid) +
           ",\"tid\":0,\"args\":{\"name\":" + json_string(name) + "}},\n";
    out += "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"ts\":0,\"pid\":" + std::to_string(pid) +
           ",\"tid\":0,\"args\":{\"sort_index\":" + std::to_string(pid) + "}}";
  }
  for (const auto &[track, name] : tracks.threads) {
    begin_event();
    out += "{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0,\"pid\":" + std::to_string(track.first) +
           ",\"tid\":" + std::to_string(track.second) + ",\"args\":{\"name\":" + json_string(name) +
           "}}";
  }
  // One snprintf per event: a trace holds hundreds of thousands of them. Names repeat: each is
  // escaped once.
  std::map<const std::string *, std::string> escaped;
  auto quoted = [&](const std::string *text) -> const std::string & {
    auto [it, inserted] = escaped.try_emplace(text);
    if (inserted)
      it->second = json_string(text ? *text : std::string());
    return it->second;
  };
  // std::to_chars, not printf: the file is written at exit, and a trace of a million launches
  // should not hold the exit up.
  char buffer[32];
  auto fixed = [&](double v) {
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, v < 0 ? 0.0 : v,
                                     std::chars_format::fixed, 3).ptr);
  };
  auto integer = [&](std::uint64_t v) {
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, v).ptr);
  };
  auto three = [&](const std::uint32_t (&v)[3]) {
    out += '[';
    integer(v[0]);
    out += ',';
    integer(v[1]);
    out += ',';
    integer(v[2]);
    out += ']';
  };
  for (const trace_event &e : events) {
    begin_event();
    out += "{\"name\":";
    out += quoted(e.name);
    out += ",\"cat\":\"";
    out += e.category;  // one of ours: plain ASCII
    out += "\",\"ph\":\"X\",\"ts\":";
    fixed(e.ts);
    out += ",\"dur\":";
    fixed(e.dur);
    out += ",\"pid\":";
    integer(static_cast<std::uint64_t>(e.pid));
    out += ",\"tid\":";
    integer(static_cast<std::uint64_t>(e.tid));
    out += ",\"args\":{";
    const char *comma = "";
    if (e.site) {
      out += "\"site\":";
      out += quoted(e.site);
      comma = ",";
    }
    if (e.has_grid) {
      out += comma;
      out += "\"grid\":";
      three(e.grid);
      out += ",\"block\":";
      three(e.block);
      comma = ",";
    }
    if (e.bytes) {
      out += comma;
      out += "\"bytes\":";
      integer(e.bytes);
    }
    out += "}}";
  }
  return out + "\n]}\n";
}

} // namespace offload::rt::profile
