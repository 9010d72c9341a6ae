# Warnings are errors, in our code and in the code we generate.
set(PEPPHER_WARNING_FLAGS -Wall -Wextra -Wshadow -Werror)

function(peppher_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${PEPPHER_WARNING_FLAGS}>
    $<$<COMPILE_LANGUAGE:C>:${PEPPHER_WARNING_FLAGS}>)
endfunction()
