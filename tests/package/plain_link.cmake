# Run by ctest (tests/package/CMakeLists.txt), after cmake_package installed offload-cxx into
# WORK_DIR/prefix: tests/package/plain-link — add_executable + target_link_libraries(app
# OffloadCxx::runtime), no offload_* function — must get its kernels (issue 18, item 2): the
# programs hold the device images of every architecture asked for and run on the CPU device. A
# shared library that links the runtime stops the configuration with an error naming it.
cmake_minimum_required(VERSION 3.21)
set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/plain-link)
file(REMOVE_RECURSE ${build} ${build}-shared)
string(REPLACE "," ";" archs "${ARCHS}")
unset(ENV{OFFLOAD_DEVICE})

execute_process(COMMAND ${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${build} -G Ninja
                        -DCMAKE_MAKE_PROGRAM=${NINJA} -DCMAKE_CXX_COMPILER=g++
                        -DCMAKE_PREFIX_PATH=${prefix} "-DOFFLOAD_ARCHS=${archs}"
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${build} COMMAND_ERROR_IS_FATAL ANY)
foreach(prog app app-direct)
  # The architectures the program was linked with (its .offload_cxx_archs section), as asked
  file(STRINGS ${build}/${prog} listed REGEX "^${ARCHS}$")
  if(NOT listed)
    message(FATAL_ERROR "${prog} was not linked for ${ARCHS}: the launchers were not arranged")
  endif()
  if(ARCHS MATCHES "sm_90")  # and the sm_90 image itself is in the program (a CUDA ELF)
    execute_process(COMMAND ${PYTHON} ${CMAKE_CURRENT_LIST_DIR}/cuda_images.py ${build}/${prog}
                    OUTPUT_VARIABLE images COMMAND_ERROR_IS_FATAL ANY)
    if(NOT images MATCHES "sm_90")
      message(FATAL_ERROR "${prog} holds no sm_90 image (${images})")
    endif()
    message("${prog}: NVIDIA images ${images}")
  endif()
  execute_process(COMMAND ${build}/${prog} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  message("${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "plain-link: all checks passed on CPU device")
    message(FATAL_ERROR "${prog} did not pass on the CPU device (exit ${rc})")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${build}-shared -G Ninja
                        -DCMAKE_MAKE_PROGRAM=${NINJA} -DCMAKE_CXX_COMPILER=g++
                        -DCMAKE_PREFIX_PATH=${prefix} -DPLAIN_LINK_SHARED=ON
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "'twice-shared' is a shared library")
  message(FATAL_ERROR "a shared library linking the runtime did not stop the configuration:\n${err}")
endif()
message("plain-link: passed")
