# OffloadCxxFunctions.cmake — offload_add_executable and offload_target_sources (included by
# OffloadCxxConfig.cmake; OFFLOAD_CXX_EXECUTABLE is the driver).
#
# At the end of the top-level CMakeLists.txt (a deferred call, scheduled by find_package) every
# target that has offload sources (offload_target_sources) or links OffloadCxx::runtime, directly
# or through other targets, gets
#   CXX_COMPILER_LAUNCHER = offload-cxx compile-launcher [--offload-arch=...] -- <its launcher>
# and every such executable gets
#   CXX_LINKER_LAUNCHER   = offload-cxx link-launcher -- <its launcher>
# so the project's compiler, flags and depfiles stay as they are, and a plain
# `add_executable(app ...)` + `target_link_libraries(app OffloadCxx::runtime)` gets its kernels
# as offload_add_executable would. A shared or module library that links the runtime is an error
# (kernels in shared libraries are not supported yet) unless its property OFFLOAD_CXX_NO_KERNELS
# says it has none. A project whose CXX compiler is offload-cxx itself needs no launchers.

set(OFFLOAD_ARCHS "" CACHE STRING
    "offload-cxx device architectures (sm_90;gfx90a;host); empty: native,host")

function(offload_add_executable name)
  add_executable(${name})
  offload_target_sources(${name} PRIVATE ${ARGN})
endfunction()

function(offload_target_sources target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "offload_target_sources: '${target}' is not a target")
  endif()
  set(sources ${ARGN})
  set(visibility PRIVATE)
  set(first "")
  if(sources)
    list(GET sources 0 first)
  endif()
  if(first MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    set(visibility ${first})
    list(REMOVE_AT sources 0)
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "offload_target_sources: '${target}' is a ${type}; offload sources go "
                        "into executables and static or object libraries (shared libraries are not "
                        "supported yet: their kernels would need a registration of their own)")
  endif()
  if(sources)
    target_sources(${target} ${visibility} ${sources})
  endif()
  if(type STREQUAL "EXECUTABLE")
    target_link_libraries(${target} PRIVATE OffloadCxx::runtime)
  else()
    target_link_libraries(${target} PUBLIC OffloadCxx::runtime)
  endif()
  get_property(targets GLOBAL PROPERTY OFFLOAD_CXX_TARGETS)
  if(NOT target IN_LIST targets)
    set_property(GLOBAL APPEND PROPERTY OFFLOAD_CXX_TARGETS ${target})
  endif()
  _offload_cxx_schedule_finalize()
endfunction()

# The deferred call runs in the top-level directory, where a find_package made in a subdirectory
# left no variables: the driver's path travels in a global property.
function(_offload_cxx_schedule_finalize)
  get_property(scheduled GLOBAL PROPERTY OFFLOAD_CXX_FINALIZE_SCHEDULED)
  if(NOT scheduled)
    set_property(GLOBAL PROPERTY OFFLOAD_CXX_FINALIZE_SCHEDULED TRUE)
    set_property(GLOBAL PROPERTY OFFLOAD_CXX_DRIVER "${OFFLOAD_CXX_EXECUTABLE}")
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _offload_cxx_finalize)
  endif()
endfunction()

# Every buildsystem target of dir and its subdirectories.
function(_offload_cxx_all_targets dir out)
  get_property(found DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _offload_cxx_all_targets("${sub}" more)
    list(APPEND found ${more})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# Whether target has offload sources, links a target that has them, or links OffloadCxx::runtime
# (directly or through other targets: the imported target may not be visible from here when
# find_package ran in a subdirectory, so it is recognised by name).
function(_offload_cxx_uses target out)
  set(seen "")
  set(queue ${target})
  get_property(offload_targets GLOBAL PROPERTY OFFLOAD_CXX_TARGETS)
  while(queue)
    list(POP_FRONT queue t)
    if(t STREQUAL "OffloadCxx::runtime")
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
    if(t IN_LIST seen OR NOT TARGET ${t})
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(aliased ${t} ALIASED_TARGET)
    if(aliased)
      list(APPEND queue ${aliased})
      continue()
    endif()
    if(t IN_LIST offload_targets)
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
    set(deps "")
    get_target_property(imported ${t} IMPORTED)
    if(NOT imported)
      get_target_property(direct ${t} LINK_LIBRARIES)
      if(direct)
        list(APPEND deps ${direct})
      endif()
    endif()
    get_target_property(interface ${t} INTERFACE_LINK_LIBRARIES)
    if(interface)
      list(APPEND deps ${interface})
    endif()
    foreach(d IN LISTS deps)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}")
      if(NOT d MATCHES "\\$<")
        list(APPEND queue ${d})
      endif()
    endforeach()
  endwhile()
  set(${out} FALSE PARENT_SCOPE)
endfunction()

function(_offload_cxx_launcher_prefix target property out)
  get_target_property(previous ${target} ${property})
  if(NOT previous)
    set(previous "")
  endif()
  set(${out} ${previous} PARENT_SCOPE)
endfunction()

function(_offload_cxx_finalize)
  get_filename_component(compiler "${CMAKE_CXX_COMPILER}" NAME)
  if(compiler MATCHES "^offload-cxx")
    return()  # CXX=offload-cxx: the compiler builds and links the device code itself
  endif()
  get_property(driver GLOBAL PROPERTY OFFLOAD_CXX_DRIVER)
  get_property(offload_targets GLOBAL PROPERTY OFFLOAD_CXX_TARGETS)
  _offload_cxx_all_targets("${CMAKE_SOURCE_DIR}" all)
  foreach(t IN LISTS all)
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY)$")
      continue()
    endif()
    get_target_property(imported ${t} IMPORTED)
    if(imported)
      continue()
    endif()
    set(uses FALSE)
    if(t IN_LIST offload_targets)
      set(uses TRUE)
    else()
      _offload_cxx_uses(${t} uses)
    endif()
    if(NOT uses)
      continue()
    endif()
    if(type MATCHES "^(SHARED|MODULE)_LIBRARY$")
      get_target_property(no_kernels ${t} OFFLOAD_CXX_NO_KERNELS)
      if(NOT no_kernels)
        message(FATAL_ERROR "offload-cxx: '${t}' is a shared library and links OffloadCxx::runtime, "
                "but kernels in shared libraries are not supported yet (they would never be "
                "registered, and the program would run without their GPU code). Make '${t}' a "
                "STATIC or OBJECT library, or, if it defines and launches no kernel, set "
                "`set_target_properties(${t} PROPERTIES OFFLOAD_CXX_NO_KERNELS ON)`.")
      endif()
      continue()
    endif()
    get_target_property(archs ${t} OFFLOAD_ARCHS)
    if(NOT archs)
      set(archs "${OFFLOAD_ARCHS}")
    endif()
    set(arch_option "")
    if(archs)
      list(JOIN archs "," joined)
      set(arch_option "--offload-arch=${joined}")
    endif()
    _offload_cxx_launcher_prefix(${t} CXX_COMPILER_LAUNCHER previous)
    set_property(TARGET ${t} PROPERTY CXX_COMPILER_LAUNCHER
                 "${driver}" compile-launcher ${arch_option} -- ${previous})
    if(type STREQUAL "EXECUTABLE")
      _offload_cxx_launcher_prefix(${t} CXX_LINKER_LAUNCHER previous)
      set_property(TARGET ${t} PROPERTY CXX_LINKER_LAUNCHER
                   "${driver}" link-launcher -- ${previous})
    endif()
  endforeach()
endfunction()

# find_package(OffloadCxx) alone schedules the call: a target that only links
# OffloadCxx::runtime gets its launchers too.
_offload_cxx_schedule_finalize()
