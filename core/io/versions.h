#pragma once
// Which versions of the image libraries this build reads files with: the window's About box
// says so, since what a file decodes to can depend on them.
#include <string>

namespace histlab {

/// "OpenCV 4.6.0, libjpeg-turbo 2.1.5 (libjpeg API 62), libpng 1.6.39, libtiff 4.5.0, giflib
/// 5.2.1, libexif": OpenCV's as it runs, the others' as compiled against.
std::string imageLibraryVersions();

} // namespace histlab
