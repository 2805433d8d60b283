# histlab-cli as a whole: help, version, devices, global options, no OpenCL platform, the leak check.
# --- exit 0 ----------------------------------------------------------------------------------
cli_test(help EXIT 0 EXPECT --stdout "^Exit codes:" --stdout "1  verification mismatch"
         --stdout "4  device error" ARGS --help)
cli_test(version EXIT 0 EXPECT --stdout "^histlab-cli [0-9]" ARGS --version)
cli_test(devices EXIT 0 EXPECT --stdout "^device 0: " --stdout "work_group_scan_exclusive_add"
         ARGS devices)
cli_test(devices_json EXIT 0 EXPECT --check "${check} json @STDOUT@ --nonempty devices"
         ARGS devices --json)

# --- exit 2: usage ---------------------------------------------------------------------------
cli_test(no_command EXIT 2 EXPECT --stderr "no command given" ARGS)
cli_test(unknown_command EXIT 2 EXPECT --stderr "unknown command 'frobnicate'" ARGS frobnicate)
cli_test(unknown_global_option EXIT 2 EXPECT --stderr "unknown option '--bogus'"
         ARGS --bogus devices)
cli_test(unknown_devices_option EXIT 2 EXPECT --stderr "unknown option '--bogus'"
         ARGS devices --bogus)
cli_test(kernel_dir_missing EXIT 2 EXPECT --stderr "--kernel-dir: .* is not a folder"
         ARGS --kernel-dir @W@/nowhere devices)

# --- exit 4: device and kernel build ---------------------------------------------------------
cli_test(no_opencl_platform EXIT 4 EXPECT --env OCL_ICD_VENDORS=@W@
         --stderr "no OpenCL platform" ARGS devices)

# --- leak check ------------------------------------------------------------------------------
# An ASan build (HISTLAB_SANITIZE, or HISTLAB_FUZZ's) checks leaks in every case and cannot
# run under valgrind; otherwise one memcheck run of a whole histogram job (see leakcheck.sh).
if(HISTLAB_SANITIZE OR HISTLAB_FUZZ)
    message(STATUS "cli.leakcheck: skipped (AddressSanitizer: LeakSanitizer checks every case)")
else()
    find_program(VALGRIND valgrind REQUIRED)
    add_test(NAME cli.leakcheck
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/leakcheck.sh ${VALGRIND}
                     ${CMAKE_CURRENT_SOURCE_DIR}/valgrind.supp $<TARGET_FILE:histlab-cli>
                     histogram ${data}/rgb8.png --verify --repeat 2)
    set_tests_properties(cli.leakcheck PROPERTIES LABELS "cli;valgrind" TIMEOUT 600)
endif()
