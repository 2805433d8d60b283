// The image loader on any bytes: an image or HistLab's InputError/UsageError. Each input is
// tried under a name without an extension and as a .tga (TGA is known by its name), and as a
// TIFF's second page. The size limits are lowered (4 megapixels, 256 MiB) so that a valid huge
// header is refused as it would be on a small machine, rather than exhausting libFuzzer's
// memory limit. OpenCV's own limit (OPENCV_IO_MAX_IMAGE_PIXELS) is read once, when its library
// loads, before this runs: scripts/fuzz.sh sets it in the environment. Without it, a BMP that
// declares 822 megapixels in 50 bytes made OpenCV reserve 2.4 GB before it found the data
// missing (corpus/image/bmp-822mpx-opencv-limit.bmp; untouched memory, but over libFuzzer's
// limit on one malloc).
#include "io/imageio.h"
#include "runtime/errors.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setenv("HISTLAB_MAX_IMAGE_PIXELS", "4000000", 1);
    setenv("HISTLAB_MAX_IMAGE_BYTES", "268435456", 1); // 256 MiB: as on a 1 GiB machine
    if (!std::getenv("OPENCV_IO_MAX_IMAGE_PIXELS"))
        std::fprintf(stderr,
                     "fuzz_image: OPENCV_IO_MAX_IMAGE_PIXELS is not set in the "
                     "environment: OpenCV's decoders keep their 2^30-pixel limit and a "
                     "lying header can exceed the memory limit (scripts/fuzz.sh sets it)\n");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    for (const auto& [name, page] : {std::pair{"fuzz", 1}, {"fuzz.tga", 1}, {"fuzz", 2}}) {
        try {
            const histlab::HostImage image =
                histlab::decodeImage(std::vector<unsigned char>(data, data + size), name, page);
            histlab::validateImage(image);
        } catch (const histlab::InputError&) {
        } catch (const histlab::UsageError&) {
        }
    }
    return 0;
}
