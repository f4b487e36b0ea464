# Warnings are errors for every target of ours. Third-party headers come in as SYSTEM includes.
function(coralsim_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror -Wshadow
                                            -Wnon-virtual-dtor -Wimplicit-fallthrough)
  # Debian's SystemC 2.3.4 is built as C++17; its API-version check symbol must match.
  target_compile_definitions(${target} PUBLIC SC_CPLUSPLUS=201703L)
endfunction()
