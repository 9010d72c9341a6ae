# Runs the reader fuzzer for SECONDS on a working corpus seeded from every *.xml under the
# SEEDS folders (good and bad descriptors). Invoked by the compose_read_fuzz ctest entry.
file(MAKE_DIRECTORY ${CORPUS})
string(REPLACE "|" ";" SEEDS "${SEEDS}")
foreach(dir ${SEEDS})
  file(GLOB_RECURSE seeds ${dir}/*.xml)
  foreach(s ${seeds})
    string(MD5 h "${s}")
    configure_file(${s} ${CORPUS}/seed-${h}.xml COPYONLY)
  endforeach()
endforeach()
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -max_len=8192 -timeout=10
                        -rss_limit_mb=2048 ${CORPUS}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzzer failed (exit ${rc}); the crashing input is in the working directory")
endif()
