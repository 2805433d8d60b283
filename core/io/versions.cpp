#include "io/versions.h"

#include <opencv2/core.hpp>

#include <cstdio> // jpeglib.h needs FILE
#include <gif_lib.h>
#include <jpeglib.h>
#include <png.h>
#include <tiffvers.h>

#include <string>

namespace histlab {

std::string imageLibraryVersions() {
    std::string text = "OpenCV " + cv::getVersionString();
#ifdef LIBJPEG_TURBO_VERSION
#define HISTLAB_TEXT(x) #x
#define HISTLAB_STRING(x) HISTLAB_TEXT(x)
    text += ", libjpeg-turbo " HISTLAB_STRING(LIBJPEG_TURBO_VERSION);
#undef HISTLAB_STRING
#undef HISTLAB_TEXT
#endif
    text += " (libjpeg API " + std::to_string(JPEG_LIB_VERSION) + ")";
    text += ", libpng " PNG_LIBPNG_VER_STRING;
    text += ", libtiff " + std::to_string(TIFFLIB_MAJOR_VERSION) + "." +
            std::to_string(TIFFLIB_MINOR_VERSION) + "." + std::to_string(TIFFLIB_MICRO_VERSION);
    text += ", giflib " + std::to_string(GIFLIB_MAJOR) + "." + std::to_string(GIFLIB_MINOR) + "." +
            std::to_string(GIFLIB_RELEASE);
    return text + ", libexif";
}

} // namespace histlab
