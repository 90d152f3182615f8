# Run by ctest (tests/package/CMakeLists.txt; issue 18, item 5): makes the .deb and the .tar.gz
# of this build with CPack (as `cmake --build build --target package` does, into WORK_DIR),
# then
#   - the .deb: its Depends name the Debian package of every library the installed driver and
#     runtime load; unpacked with `dpkg -x` into a scratch root, examples/cmake-project is
#     configured, built and run against it (CMAKE_PREFIX_PATH=<root>/usr) on the CPU device;
#   - the .tar.gz: unpacked and then moved elsewhere (it must be relocatable), its driver builds
#     and runs examples/fill.cpp.
cmake_minimum_required(VERSION 3.21)
set(out ${WORK_DIR}/cpack)
set(root ${WORK_DIR}/deb-root)
set(example ${WORK_DIR}/deb-example)
set(tgz ${WORK_DIR}/tgz)
file(REMOVE_RECURSE ${out} ${root} ${example} ${tgz})
file(MAKE_DIRECTORY ${root} ${tgz})
unset(ENV{OFFLOAD_DEVICE})

execute_process(COMMAND ${CPACK} --config ${BUILD_DIR}/CPackConfig.cmake -B ${out}
                OUTPUT_VARIABLE log ERROR_VARIABLE log RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack failed (${rc}):\n${log}")
endif()
file(GLOB deb ${out}/offload-cxx_*.deb)
file(GLOB tarball ${out}/offload-cxx-*.tar.gz)
if(NOT deb OR NOT tarball)
  message(FATAL_ERROR "cpack made no .deb or no .tar.gz in ${out}:\n${log}")
endif()
message("made ${deb} and ${tarball}")

# --- the .deb --------------------------------------------------------------------------------
execute_process(COMMAND dpkg-deb -f ${deb} Package Version Architecture Depends
                OUTPUT_VARIABLE fields COMMAND_ERROR_IS_FATAL ANY)
message("${fields}")
string(REGEX MATCH "Depends: [^\n]*" depends "${fields}")
string(REPLACE "Depends: " "" depends_list "${depends}")
string(REPLACE ", " ";" depends_list "${depends_list}")
execute_process(COMMAND dpkg -x ${deb} ${root} COMMAND_ERROR_IS_FATAL ANY)
foreach(f usr/bin/offload-cxx usr/lib/liboffload-cxx-rt.so usr/lib/liboffload-cxx-system-dl.so
          usr/include/offload/offload.hpp
          usr/lib/offload-cxx/offload-cxx-devices usr/lib/cmake/OffloadCxx/OffloadCxxConfig.cmake
          usr/lib/cmake/OffloadCxx/OffloadCxxTargets.cmake)
  if(NOT EXISTS ${root}/${f})
    message(FATAL_ERROR "the .deb does not install /${f}")
  endif()
endforeach()
# Every library the driver and the runtime link (DT_NEEDED, resolved by ldd) comes from a package
# the .deb depends on (those packages bring their own dependencies).
foreach(binary usr/bin/offload-cxx usr/lib/liboffload-cxx-rt.so)
  execute_process(COMMAND ${READELF} -d ${root}/${binary} OUTPUT_VARIABLE dynamic
                  COMMAND_ERROR_IS_FATAL ANY)
  string(REGEX MATCHALL "Shared library: \\[[^]]+\\]" needed "${dynamic}")
  execute_process(COMMAND ldd ${root}/${binary} OUTPUT_VARIABLE ldd COMMAND_ERROR_IS_FATAL ANY)
  foreach(n IN LISTS needed)
    string(REGEX REPLACE "Shared library: \\[(.*)\\]" "\\1" n "${n}")
    set(p "")
    string(REPLACE "\n" ";" lines "${ldd}")
    foreach(line IN LISTS lines)
      if(line MATCHES "^[ \t]*([^ ]+) => (/[^ ]+)" AND CMAKE_MATCH_1 STREQUAL n)
        set(p "${CMAKE_MATCH_2}")
      endif()
    endforeach()
    if(n MATCHES "^ld-linux")
      continue()  # the dynamic loader: libc6
    endif()
    if(NOT p)
      message(FATAL_ERROR "${binary} needs ${n}, which ldd does not resolve:\n${ldd}")
    endif()
    file(REAL_PATH ${p} real)
    file(REAL_PATH ${root} real_root)
    if(real MATCHES "^${real_root}/")
      message("${binary}: ${n} from the .deb itself")
      continue()  # the package's own library (liboffload-cxx-system-dl.so beside the runtime)
    endif()
    execute_process(COMMAND dpkg -S ${real} OUTPUT_VARIABLE owner RESULT_VARIABLE rc ERROR_QUIET)
    if(NOT rc EQUAL 0)
      execute_process(COMMAND dpkg -S ${p} OUTPUT_VARIABLE owner RESULT_VARIABLE rc ERROR_QUIET)
    endif()
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${binary} loads ${p}, which no installed Debian package owns")
    endif()
    string(REGEX REPLACE "[:,].*" "" owner "${owner}")
    message("${binary}: ${n} from ${owner}")
    if(NOT owner IN_LIST depends_list)
      message(FATAL_ERROR "${binary} loads ${p} from the package ${owner}, which the .deb does "
                          "not depend on (${depends})")
    endif()
  endforeach()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${example} -G Ninja
                        -DCMAKE_MAKE_PROGRAM=${NINJA} -DCMAKE_CXX_COMPILER=g++
                        -DCMAKE_PREFIX_PATH=${root}/usr -DOFFLOAD_ARCHS=host
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
file(READ ${example}/CMakeCache.txt cache)
if(NOT cache MATCHES "OffloadCxx_DIR:PATH=${root}/usr/lib/cmake/OffloadCxx")
  message(FATAL_ERROR "find_package(OffloadCxx) did not find the unpacked .deb")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${example} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${example}/vecops-demo OUTPUT_VARIABLE run RESULT_VARIABLE rc)
message("${run}")
if(NOT rc EQUAL 0 OR NOT run MATCHES "cmake-project: all checks passed on CPU device")
  message(FATAL_ERROR "vecops-demo built against the .deb did not pass (${rc})")
endif()

# --- the .tar.gz, relocated ------------------------------------------------------------------
execute_process(COMMAND ${CMAKE_COMMAND} -E tar xf ${tarball} WORKING_DIRECTORY ${tgz}
                COMMAND_ERROR_IS_FATAL ANY)
file(GLOB unpacked LIST_DIRECTORIES true ${tgz}/offload-cxx-*)
file(RENAME ${unpacked} ${tgz}/moved)
execute_process(COMMAND ${tgz}/moved/bin/offload-cxx -O2 ${SOURCE_DIR}/examples/fill.cpp
                        -o ${tgz}/fill COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${tgz}/fill OUTPUT_VARIABLE run RESULT_VARIABLE rc)
message("${run}")
if(NOT rc EQUAL 0 OR NOT run MATCHES "all checks passed on CPU device")
  message(FATAL_ERROR "fill, built by the relocated .tar.gz's driver, did not pass (${rc})")
endif()
execute_process(COMMAND ldd ${tgz}/fill OUTPUT_VARIABLE ldd)
if(NOT ldd MATCHES "liboffload-cxx-rt.so => ${tgz}/moved/lib/")
  message(FATAL_ERROR "fill does not load the relocated .tar.gz's runtime:\n${ldd}")
endif()
message("deb_package: passed")
