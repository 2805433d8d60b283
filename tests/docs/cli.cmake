# The command-line reference and the man pages come from the programs' own --help
# (scripts/clidoc.py), so they cannot drift from what the programs accept.

# docs/cli.md as committed must be what histlab-cli's help says now; on a difference the test
# prints the head of the diff and the command that regenerates the page.
add_test(NAME docs.cli_reference_generated
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/clidoc.py
                 --cli $<TARGET_FILE:histlab-cli> --check ${PROJECT_SOURCE_DIR}/docs/cli.md)

# The man pages, made into the build tree and read by groff with every warning on (and by
# mandoc's checker where it is installed): any warning fails the test.
find_program(HISTLAB_GROFF groff REQUIRED)
set(man_programs --cli $<TARGET_FILE:histlab-cli>)
if(HISTLAB_GUI)
    list(APPEND man_programs --gui $<TARGET_FILE:histlab>)
else()
    message(STATUS "docs.man_pages: HISTLAB_GUI is OFF: histlab.1 is not made or checked")
endif()
add_test(NAME docs.man_pages
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/clidoc.py ${man_programs}
                 --man-dir ${CMAKE_CURRENT_BINARY_DIR}/man --version ${PROJECT_VERSION}
                 --lint --groff ${HISTLAB_GROFF})
