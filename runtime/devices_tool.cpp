// runtime/devices_tool.cpp — offload-cxx-devices: prints the devices the offload-cxx runtime sees
// (each GPU the offload runtime finds, then the CPU device) with name, vendor, architecture and
// memory; given a program's architectures, says which devices can run it.
//
//   offload-cxx-devices [--program=NAME --archs=sm_90,host]
//
// `offload-cxx devices [PROGRAM]` runs it (reading the architectures from PROGRAM); a bundle
// ships it as DIR/devices.
#include <offload/device_info.hpp>

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> split(const std::string &list) {
  std::vector<std::string> parts;
  std::stringstream in(list);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(1ull << 30));
  return text;
}

} // namespace

int main(int argc, char **argv) {
  std::string program;
  std::vector<std::string> archs;
  bool with_program = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--program=", 10) == 0) {
      program = argv[i] + 10;
      with_program = true;
    } else if (std::strncmp(argv[i], "--archs=", 8) == 0) {
      archs = split(argv[i] + 8);
      with_program = true;
    } else {
      std::fprintf(stderr,
                   "offload-cxx-devices: error: unknown argument '%s'\n"
                   "usage: offload-cxx-devices [--program=NAME --archs=ARCH,...]\n",
                   argv[i]);
      return 2;
    }
  }
  std::string built_for;
  for (const std::string &a : archs)
    built_for += (built_for.empty() ? "" : ",") + a;
  const std::vector<offload::device_info> devices = offload::list_devices();
  // What the program holds, whatever this machine has (new user: no command said whether a
  // build really held sm_90 code).
  if (with_program)
    std::printf("%s holds code for: %s\n", program.c_str(), built_for.c_str());
  std::printf("%zu device%s:\n", devices.size(), devices.size() == 1 ? "" : "s");
  int gpu = 0;
  for (const offload::device_info &d : devices) {
    // This tool holds no GPU code, so its GPUs are not "usable": number them in order, as a
    // program with code for all of them numbers them.
    const std::string number = d.is_gpu ? "GPU " + std::to_string(gpu++) : "CPU device";
    std::printf("  %-10s  %s\n", number.c_str(), d.name.c_str());
    std::printf("              vendor %s, arch %s, %s, %u %s, up to %u threads per workgroup\n",
                d.vendor.c_str(), d.arch.c_str(), gib(d.memory_bytes).c_str(), d.compute_units,
                d.is_gpu ? "compute units" : "threads", d.max_workgroup_threads);
    if (!with_program)
      continue;
    bool runs = false;
    for (const std::string &a : archs)
      runs |= a == d.arch;
    if (runs)
      std::printf("              %s runs here (its %s code)\n", program.c_str(), d.arch.c_str());
    else
      std::printf("              %s cannot run here: built for %s, not %s\n", program.c_str(),
                  built_for.c_str(), d.arch.c_str());
  }
  return 0;
}
