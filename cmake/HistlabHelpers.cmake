# Shared settings for every HistLab target: warnings (errors in CI), sanitizers when asked.
function(histlab_target_defaults target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
    if(HISTLAB_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
    if(HISTLAB_SANITIZE)
        target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    endif()
    if(HISTLAB_FUZZ) # libFuzzer's coverage in the libraries; the targets link its main
        target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
                                                 -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    endif()
endfunction()

# Embeds kernels/*.cl into a generated C++ source (as OpenCV's cl2cpp does), so the binaries
# carry their kernels; edits to a .cl file regenerate it.
function(histlab_embed_kernels out_var)
    set(generated ${CMAKE_CURRENT_BINARY_DIR}/embedded_kernels.cpp)
    add_custom_command(
        OUTPUT ${generated}
        COMMAND ${CMAKE_COMMAND} -DOUTPUT=${generated} "-DSOURCES=${ARGN}"
                -P ${PROJECT_SOURCE_DIR}/cmake/EmbedKernels.cmake
        DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/EmbedKernels.cmake
        COMMENT "Embedding OpenCL kernels"
        VERBATIM)
    set(${out_var} ${generated} PARENT_SCOPE)
endfunction()
