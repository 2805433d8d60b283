# Installed as a Debian desktop application is: the programs in bin/, a desktop entry, an icon
# in hicolor, AppStream metainfo, man pages made from the programs' own help, the sample image
# and the documents; `cpack -G DEB` in the build folder packs the same files as a .deb whose
# dependencies dpkg-shlibdeps computes from the binaries.
include(GNUInstallDirs)
set(HISTLAB_APP_ID org.histlab.HistLab) # the desktop entry's, icon's and metainfo's name
set(HISTLAB_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/histlab) # Debian's: the package's name

install(TARGETS histlab-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Debian's documents: the copyright file, and the changelog compressed (changelog.gz).
set(changelog ${CMAKE_BINARY_DIR}/changelog.gz)
add_custom_command(
    OUTPUT ${changelog}
    COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/resources/changelog > ${changelog}
    DEPENDS ${PROJECT_SOURCE_DIR}/resources/changelog
    COMMENT "Compressing the changelog")
add_custom_target(histlab_changelog ALL DEPENDS ${changelog})
install(FILES README.md resources/copyright ${changelog} DESTINATION ${HISTLAB_DOC_DIR})
if(HISTLAB_OPENCV) # the bundled sample, for a first `histlab-cli histogram` of a real image
    install(FILES resources/sample.png DESTINATION ${CMAKE_INSTALL_DATADIR}/histlab)
endif()
if(HISTLAB_GUI)
    install(TARGETS histlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(FILES resources/${HISTLAB_APP_ID}.desktop
            DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES resources/histlab.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
            RENAME ${HISTLAB_APP_ID}.svg)
    install(FILES resources/${HISTLAB_APP_ID}.metainfo.xml
            DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

    # Man pages, generated from `histlab-cli --help` (every command's) and `histlab --help` by
    # the generator that also writes docs/cli.md, so neither can drift from the programs.
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    set(man_dir ${CMAKE_BINARY_DIR}/man)
    set(man_pages ${man_dir}/histlab-cli.1.gz ${man_dir}/histlab.1.gz)
    add_custom_command(
        OUTPUT ${man_pages}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${man_dir}
        COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
                ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/clidoc.py
                --cli $<TARGET_FILE:histlab-cli> --gui $<TARGET_FILE:histlab> --man-dir ${man_dir}
                --version ${PROJECT_VERSION}
        COMMAND gzip -9nf ${man_dir}/histlab-cli.1 ${man_dir}/histlab.1
        DEPENDS histlab-cli histlab ${PROJECT_SOURCE_DIR}/scripts/clidoc.py
        COMMENT "Man pages from the programs' help"
        VERBATIM)
    add_custom_target(histlab_man ALL DEPENDS ${man_pages})
    install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# The Debian package.
set(CPACK_PACKAGE_NAME histlab)
set(CPACK_PACKAGE_VENDOR HistLab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "exact image histograms on every OpenCL device, verified and timed")
# Debian wants "Name <address>"; a packager names theirs with -DHISTLAB_MAINTAINER=...
set(HISTLAB_MAINTAINER "HistLab developers" CACHE STRING "The .deb's Maintainer field")
set(CPACK_PACKAGE_CONTACT "${HISTLAB_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # histlab_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# PoCL runs every kernel on the CPU where no GPU driver is installed; any other OpenCL driver
# (NVIDIA's, Mesa's, Intel's) provides opencl-icd as well. dpkg-shlibdeps adds the libraries.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "pocl-opencl-icd | opencl-icd")
# The extended description: CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY before it as the
# synopsis, indents every line and writes an empty line as Debian's " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "HistLab computes histograms of images on the GPU and every other OpenCL
device of the machine (256-bin, 65,536-bin, float and joint histograms with
mutual information), blurs, equalization, scans and bag-of-visual-words
histograms, checks every result against a CPU reference, and times each
kernel against the bandwidth the same device reaches in the same run.

The package holds the Qt window, histlab, and its command-line twin,
histlab-cli.")
set(CPACK_GENERATOR DEB)
include(CPack)
