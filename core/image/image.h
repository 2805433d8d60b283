#pragma once
// Host images and synthetic data as the core sees them: tightly packed rows, channels in
// R, G, B, A order (1, 3 or 4 channels), 8- or 16-bit unsigned or 32-bit float per channel (in
// host byte order).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace histlab {

struct HostImage {
    int width = 0;
    int height = 0;
    int channels = 0; ///< 1 (gray), 3 (RGB) or 4 (RGBA)
    int depth = 8;    ///< bits per channel: 8 or 16 (unsigned), 32 (IEEE float)
    std::vector<std::uint8_t> data;
    std::string source; ///< file path or synthetic description, for messages and reports
    /// How many pages the file holds (a multi-page TIFF; 1 for every other image); `source`
    /// names the one read ("PATH, page P of N").
    int pages = 1;

    std::size_t pixelCount() const { return std::size_t(width) * std::size_t(height); }
    std::size_t byteCount() const { return pixelCount() * channels * (depth / 8); }
    bool empty() const { return pixelCount() == 0; }
    bool isFloat() const { return depth == 32; }
};

/// The file extensions (lower case, without the dot) of the image formats HistLab reads: how
/// a folder's images are told from its other files and what the window's Open dialog lists.
const std::vector<std::string>& imageFileExtensions();

/// "8-bit", "16-bit" or "32-bit float": how messages and reports name a depth.
std::string depthName(int depth);

/// Throws InputError if the fields disagree (size, channels, depth).
void validateImage(const HostImage& image);

/// Throws InputError naming the image unless it is 8- or 16-bit: what `what` does ("blur",
/// "equalize", ...) works on integer values only, and a float image is refused, not converted.
void requireIntegerImage(const HostImage& image, const std::string& what);

/// 16-bit to 8-bit by keeping each value's high byte (v >> 8); 8-bit images are returned as is.
/// Throws InputError for a float image (requireIntegerImage).
HostImage toHighByte(const HostImage& image);

/// An 8-bit copy to look at: 8-bit as is, 16-bit by its high byte, 32-bit float stretched
/// linearly from the smallest to the largest finite value of all its channels to 0 ... 255
/// (NaN and -inf show as 0, +inf as 255; a constant image as 0).
HostImage toDisplay8(const HostImage& image);

/// Luma of one 8-bit RGB pixel exactly as OpenCV's cvtColor(COLOR_BGR2GRAY) computes it for
/// 8-bit data (OpenCV 4.6, checked on all 2^24 colors): fixed point with 15 fractional bits,
/// coefficients 9798 (R), 19235 (G), 3735 (B) (0.299, 0.587, 0.114 scaled), rounded.
inline std::uint8_t lumaOf(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    return static_cast<std::uint8_t>((r * 9798u + g * 19235u + b * 3735u + (1u << 14)) >> 15);
}

/// Gray plane of an 8-bit image (luma for RGB/RGBA, alpha ignored; a copy for gray).
std::vector<std::uint8_t> lumaPlane(const HostImage& image);

/// A rectangle of pixels: left, top, width, height.
struct Region {
    int x = 0, y = 0, width = 0, height = 0;
};

/// Parses "X,Y,W,H" (whole numbers, W and H > 0); throws UsageError("--region").
Region parseRegion(const std::string& text);

/// The pixels of `region` as an image of their own (rows copied, channels and depth kept; the
/// source names the region). Throws UsageError("--region") if the region is empty or does not
/// lie inside the image.
HostImage cropImage(const HostImage& image, const Region& region);

enum class SyntheticKind { Random, Uniform, Gradient, Skewed };

/// Parses "random", "uniform", "gradient", "skewed"; throws UsageError("--synthetic").
SyntheticKind parseSyntheticKind(const std::string& name);
const char* syntheticKindName(SyntheticKind kind);

/// The memory this process may use, in bytes: the machine's physical memory (sysconf; 4 GiB
/// where it cannot say), or less where its address space is limited (ulimit -v, RLIMIT_AS).
std::uint64_t hostMemoryBytes();

/// What hostMemoryBytes() is, for messages: "this machine's memory", or "the memory ulimit -v
/// allows" where that is less.
std::string hostMemoryName();

/// The most bytes of synthetic data a run makes on the host: a quarter of the machine's
/// memory, leaving room for a CPU device's copy, the results and the reference.
std::uint64_t syntheticLimitBytes();

/// UsageError(option) when `bytes` (a double, so that an absurd size cannot wrap) of synthetic
/// data exceed syntheticLimitBytes(): "--size: 97.7 GiB of synthetic data: more than a quarter
/// of this machine's memory (5.9 GiB of 23.5 GiB)".
void checkSyntheticSize(const std::string& option, double bytes);

/// The most host memory one run may plan to hold: half of the machine's memory. Synthetic
/// data alone is held to a quarter (checkSyntheticSize); a run also holds its results, its
/// CPU reference and, on a CPU device, the device's buffers, which live in host memory too.
std::uint64_t runMemoryLimitBytes();

/// UsageError(option) when a run would hold `bytes` (a double, so that an absurd size cannot
/// wrap) on the host; `what` says what they are: "--count: 2147483648 values need 48 GiB of
/// host memory (values, result, CPU reference, a CPU device's buffers): more than half of this
/// machine's memory (11.8 GiB of 23.5 GiB)".
void checkRunMemory(const std::string& option, const std::string& what, double bytes);

/// `bytes` of 8-bit gray data as a 1-row image: random (uniformly distributed bytes, fixed
/// seed), uniform (every byte 0x5A), gradient (i * 256 / bytes), skewed (90 % one value, the
/// rest random). Deterministic for a given seed. `option` names the size's option in
/// UsageErrors (0 bytes, more than checkSyntheticSize allows).
HostImage makeSynthetic(SyntheticKind kind, std::size_t bytes, std::uint64_t seed = 1,
                        const std::string& option = "--size");

/// makeSynthetic's bytes as pixels of `channels` channels (1, 3 or 4), interleaved: `bytes`
/// rounded down to whole pixels (and, past 2^31 pixels, to whole rows of 2^20 pixels). Its
/// source reads "synthetic KIND, N pixels of C channels". UsageError(option) for less than one
/// pixel and for makeSynthetic's reasons.
HostImage makeSyntheticPixels(SyntheticKind kind, std::size_t bytes, int channels,
                              const std::string& option = "--size");

/// A width x height image of `channels` channels (1, 3 or 4) at `depth` bits (8 or 16) whose
/// bytes are the synthetic pattern, for runs without an image file (GPU machines have no
/// loader); its source reads "synthetic KIND WxH". Sizes are refused as makeSynthetic's, under
/// "--width/--height".
/// `seed` picks the random bytes (other kinds ignore it).
HostImage makeSyntheticImage(SyntheticKind kind, int width, int height, int channels = 1,
                             int depth = 8, std::uint64_t seed = 1);

/// How the core reads an image file where it must do so itself (the images of a folder): the
/// front end's loader, given once at start-up (histlab-cli and the window give io/imageio's
/// loadImage), since the core has no decoder. It is called from several threads at once.
using ImageFileReader = std::function<HostImage(const std::string& path)>;
void setImageFileReader(ImageFileReader reader);
bool canReadImageFiles();
/// The image of `path` through the front end's reader (InputError naming the file and the
/// reason, as the reader throws it); InputError naming the file where no reader was given.
HostImage readImageFile(const std::string& path);

/// The pages of one image file read one after another (a multi-page TIFF: a z-stack, a time
/// series), for the stack runs: a page is decoded when it is asked for, so that a stack need
/// not fit in memory.
class ImagePageReader {
public:
    virtual ~ImagePageReader() = default;
    /// How many pages the file holds (1 for every image but a multi-page TIFF).
    virtual int pages() const = 0;
    /// Page `page` (from 1; pages are best read in increasing order): its source reads "PATH,
    /// page P of N". InputError naming the file, the page and the reason (damaged, truncated,
    /// a decoder warning); UsageError("--page") for a page the file does not have.
    virtual HostImage read(int page) = 0;
};
/// Pages of a stack to read together (--page all, --page A-B): from `first` to `last`, both
/// from 1 and included; `last` 0 for the file's last page.
struct PageRange {
    int first = 1;
    int last = 0;
};

/// Whether a --page value names several pages ("all", "A-B") rather than one ("3").
bool isPageRange(const std::string& text);

/// Parses "all" or "A-B" (whole numbers from 1, B not before A); UsageError("--page") naming
/// the value and the reason.
PageRange parsePageRange(const std::string& text);

/// The range's last page for a file of `pages` pages; UsageError("--page", "PATH has 12 pages,
/// not a page 13") where the range reaches past the last page.
int lastPageOf(const PageRange& range, int pages, const std::string& path);

/// How the core opens a file's pages: the front end's (io/imageio's openImagePageFile), given
/// once at start-up beside the ImageFileReader.
using ImagePagesOpener = std::function<std::unique_ptr<ImagePageReader>(const std::string& path)>;
void setImagePagesOpener(ImagePagesOpener opener);
/// The pages of `path` through the front end's opener (InputError naming the file, as it
/// throws it); InputError naming the file where none was given.
std::unique_ptr<ImagePageReader> openImagePages(const std::string& path);

/// How the core writes an image file where it must do so itself (batch --out): the front
/// end's writer (io/imageio's saveImage: encoded by the path's extension, through a temporary
/// file and a rename), given once at start-up. It is called from several threads at once.
using ImageFileWriter = std::function<void(const HostImage& image, const std::string& path)>;
void setImageFileWriter(ImageFileWriter writer);
bool canWriteImageFiles();
/// Writes `image` to `path` through the front end's writer (InputError naming the file and the
/// reason); InputError naming the file where no writer was given.
void writeImageFile(const HostImage& image, const std::string& path);

/// A random 8-bit gray image of about `pixels` pixels, nearly square, its width a multiple of
/// 16 (at least 16): the input of benchmarks sized in bytes.
HostImage randomGrayImage(std::size_t pixels, std::uint64_t seed = 31);

/// Fills `out` with the synthetic pattern (for callers that own pinned memory).
void fillSynthetic(SyntheticKind kind, std::uint8_t* out, std::size_t bytes, std::uint64_t seed);

/// Where a device's image first differs from the reference (same size and layout): "pixel (x,
/// y) channel c: device v, CPU reference w"; "" when they are equal.
std::string firstPixelDifference(const HostImage& device, const HostImage& reference);

} // namespace histlab
