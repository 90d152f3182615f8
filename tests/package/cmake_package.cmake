# Run by ctest (tests/package/CMakeLists.txt): install, configure, build, run. Any failing step
# fails the test; the program's output must say it passed.
cmake_minimum_required(VERSION 3.21)
set(prefix ${WORK_DIR}/prefix)
set(example ${WORK_DIR}/example)
file(REMOVE_RECURSE ${prefix} ${example})
string(REPLACE "," ";" archs "${ARCHS}")  # sm_90,host -> OFFLOAD_ARCHS=sm_90;host
unset(ENV{OFFLOAD_DEVICE})  # no GPU here: the program picks the CPU device itself

execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
foreach(f bin/offload-cxx lib/liboffload-cxx-rt.so include/offload/offload.hpp
          lib/cmake/OffloadCxx/OffloadCxxConfig.cmake
          lib/cmake/OffloadCxx/OffloadCxxConfigVersion.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "cmake --install did not install ${f}")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${example} -G Ninja
                        -DCMAKE_MAKE_PROGRAM=${NINJA} -DCMAKE_CXX_COMPILER=g++
                        -DCMAKE_PREFIX_PATH=${prefix} "-DOFFLOAD_ARCHS=${archs}"
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${example} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${example} --target offload-archs
                OUTPUT_VARIABLE archs COMMAND_ERROR_IS_FATAL ANY)
if(NOT archs MATCHES "host\tthe CPU device")
  message(FATAL_ERROR "OffloadCxx::offload-cxx --print-offload-archs did not list host:\n${archs}")
endif()
if(ARCHS MATCHES "sm_90")  # the sm_90 image of the linked device code is in the program
  file(STRINGS ${example}/vecops-demo listed REGEX "^sm_90,host$")
  if(NOT listed)
    message(FATAL_ERROR "vecops-demo holds no sm_90 image: the link launcher did not register it")
  endif()
endif()
execute_process(COMMAND ${example}/vecops-demo
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vecops-demo exited with ${rc}")
endif()
if(NOT out MATCHES "cmake-project: all checks passed on CPU device")
  message(FATAL_ERROR "vecops-demo did not say that its checks passed on the CPU device")
endif()
# `cmake --install` of the project: the installed program starts (CMake drops its build run
# path; the package's own keeps the runtime's folder: adversarial pass).
file(REMOVE_RECURSE ${WORK_DIR}/example-installed)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${example} --prefix ${WORK_DIR}/example-installed
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${WORK_DIR}/example-installed/bin/vecops-demo
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "cmake-project: all checks passed on CPU device")
  message(FATAL_ERROR "the installed vecops-demo failed (${rc}): ${out}${err}")
endif()
# The installed driver's `devices` runs the installed offload-cxx-devices on the program.
execute_process(COMMAND ${prefix}/bin/offload-cxx devices ${example}/vecops-demo
                OUTPUT_VARIABLE devices RESULT_VARIABLE rc)
message("${devices}")
if(NOT rc EQUAL 0 OR NOT devices MATCHES "vecops-demo runs here \\(its host code\\)")
  message(FATAL_ERROR "offload-cxx devices from the install prefix failed (${rc})")
endif()

# The build tree is a package too (issue 32, item 6): find_package(OffloadCxx) with
# OffloadCxx_DIR=<this build> builds and runs the same example with the build's own driver.
set(from_build ${WORK_DIR}/example-from-build)
file(REMOVE_RECURSE ${from_build})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${from_build} -G Ninja
                        -DCMAKE_MAKE_PROGRAM=${NINJA} -DCMAKE_CXX_COMPILER=g++
                        -DOffloadCxx_DIR=${BUILD_DIR} "-DOFFLOAD_ARCHS=host"
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${from_build} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${from_build}/vecops-demo
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "cmake-project: all checks passed on CPU device")
  message(FATAL_ERROR "vecops-demo built against the build tree failed (${rc})")
endif()
