// offload/detail/runtime_api.hpp — the calls the header-only launch makes into the runtime
// library (liboffload-cxx-rt.so), and the program record that offload-cxx's host pass registers.
// Internal: include <offload/offload.hpp> instead.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/abi.hpp>
#include <offload/device.hpp>

#include <cstdint>

namespace offload::detail {

/// What the runtime does with one launch slot.
enum class transfer : std::uint8_t {
  literal,  ///< the slot is `literal` as is
  to,       ///< map `bytes` at `host_ptr`, copy in
  from,     ///< map, copy back out
  tofrom,   ///< map, copy in and back out
  alloc,    ///< map without copying (device scratch shaped like the host object)
};

/// One launch slot, as the host packer describes it to the runtime.
struct arg_desc {
  transfer how;
  /// For mapped slots: the host address of the object (of the copy, for large values).
  const void *host_ptr;
  /// For mapped slots: the bytes to map. For literals: the value's size.
  std::uint64_t bytes;
  /// For literals: the slot (the value's bits).
  abi::slot_t literal;
  /// For a span's data and a device pointer: the size of one element, as the host compiler laid
  /// it out (the launch compares it with the kernel's); 0 where there is none.
  std::uint64_t element_bytes = 0;
  /// For mapped slots: the kernel's parameter is const (`const U*`, `const U&`,
  /// `std::span<const U>`) and U a scalar or an array of them (a class may have a `mutable`
  /// member), so the kernel only reads the object. The CPU device reads such an object of a
  /// plain launch where it lies instead of copying it (cpu_in_place.hpp).
  bool read_only = false;
};

/// Where a launch was written, for diagnostics and OFFLOAD_INFO.
struct source_loc {
  const char *file;
  const char *function;
  std::uint32_t line;
  std::uint32_t column;
};

/// Runs one work-item of the kernel on the CPU device with the host-compiled kernel, its
/// arguments rebuilt from `slots` (the launch's slots, mapped objects at the CPU device's copies
/// of them: runtime/cpu_mapping.hpp).
using cpu_body_fn = void (*)(void *context, const abi::slot_t *slots);

/// Everything the runtime needs for one launch.
struct launch_request {
  const void *kernel;  ///< the kernel's host address: its identity in the registration table
  dim3 workgroups, threads;
  std::uint32_t dynamic_shared_bytes;
  int device;  ///< -1: the default device
  source_loc where;
  const arg_desc *args;  ///< one per slot
  std::uint32_t num_args;
  cpu_body_fn cpu_body;
  void *cpu_context;
  /// A launch over an offload::range: `workgroups`/`threads` are chosen by the runtime for the
  /// device to cover [range_begin, range_end) (rt::shape_range).
  bool is_range = false;
  std::uint64_t range_begin = 0, range_end = 0;
};

/// Launches, and waits unless nothing comes back (offload::launch). Throws offload::error naming
/// the kernel and `where` on failure; the host objects the launch maps are then as they were
/// before it.
void launch(const launch_request &request);

} // namespace offload::detail

extern "C" {
/// One kernel of a program, as offload-cxx's host pass registers it (layout shared with the
/// registration code that compiler/HostPass.cpp emits: change both or neither).
struct offload_cxx_kernel_record {
  const void *host_address;  ///< the host-compiled kernel instantiation
  const char *name;          ///< human-readable, e.g. "fill<double>"
  const char *entry;         ///< the device entry symbol in every image
  const char *declared_at;   ///< "file:line" of the kernel's declaration
  const char *param_names;   ///< each launch slot's name, comma-separated: "x,value"
  /// Each launch slot's size as the kernel's compiler laid it out (one per slot, as param_names):
  /// a mapped object's or a value's bytes; a span's or a device pointer's element size, marked
  /// OFFLOAD_CXX_PARAM_BYTES_ELEMENT (compared with arg_desc::element_bytes); 0 where there is
  /// nothing to compare (a span's length). The launch refuses arguments whose host sizeof
  /// differs (a macro only one compiler defines picking a type).
  const std::uint64_t *param_bytes;
  std::uint64_t flags;       ///< OFFLOAD_CXX_KERNEL_* bits
  /// The kernel's workgroup loop in the program's CPU image (offload/detail/cpu_entry.hpp), or
  /// null: the CPU device then runs the host-compiled kernel one work-item at a time.
  void (*cpu_entry)(const offload::abi::slot_t *slots);
};

/// In offload_cxx_kernel_record::param_bytes: the size is an element's (arg_desc::element_bytes).
#define OFFLOAD_CXX_PARAM_BYTES_ELEMENT (1ull << 63)

/// The kernel may call offload::barrier() or a warp operation (directly or through callees).
#define OFFLOAD_CXX_KERNEL_USES_BARRIERS 1u

/// One GPU image of a program (an executable cubin, an AMDGPU code object); the runtime loads it
/// once on each device that can run it (runtime/device.hpp).
struct offload_cxx_image {
  const char *arch;  ///< "sm_90", "gfx90a"
  const void *start;
  std::uint64_t size;
};

/// A program's registration: its kernels and the architectures its device image was built for.
struct offload_cxx_program {
  std::uint32_t version;  ///< OFFLOAD_CXX_PROGRAM_VERSION
  std::uint32_t num_kernels;
  const offload_cxx_kernel_record *kernels;
  std::uint32_t num_archs;
  const char *const *archs;  ///< e.g. "sm_90", "gfx90a", "host"
  std::uint32_t num_images;
  const offload_cxx_image *images;  ///< the GPU images, one per GPU architecture
};

#define OFFLOAD_CXX_PROGRAM_VERSION 5u

/// Called from the constructor that the host pass emits into every program.
void __offload_cxx_register_program(const offload_cxx_program *program);
}

#pragma pack(pop)
