// The decoders HistLab drives itself (core/io): damage judged by what libjpeg, libpng and
// libtiff report, declared sizes checked before allocation, orientation applied as viewers do,
// TIFF pages, alpha and CMYK as stored, Netpbm's maxval. Every file is made here, in a temporary
// folder, with OpenCV, libtiff or by hand.
#include "unitsupport.h"

#include "io/decoders.h"
#include "io/imageio.h"
#include "pipelines/histogram256/histogram256.h"
#include "runtime/errors.h"

#include <gif_lib.h>
#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <tiffio.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace histlab {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::string loadError(const fs::path& path, int page = 1) {
    try {
        loadImage(path.string(), page);
        return {};
    } catch (const std::exception& e) {
        return e.what();
    }
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// The image's pixels as an OpenCV matrix of its type (R, G, B order kept).
cv::Mat matOf(const HostImage& img) {
    const int depth = img.depth == 32 ? CV_32F : img.depth == 16 ? CV_16U : CV_8U;
    return cv::Mat(img.height, img.width, CV_MAKETYPE(depth, img.channels),
                   const_cast<std::uint8_t*>(img.data.data()))
        .clone();
}

bool samePixels(const cv::Mat& a, const cv::Mat& b) {
    return a.size() == b.size() && a.type() == b.type() && cv::norm(a, b, cv::NORM_INF) == 0;
}

/// A colourful, asymmetric picture (no flip or turn maps it onto itself).
cv::Mat picture(int width, int height) {
    cv::Mat bgr(height, width, CV_8UC3);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            bgr.at<cv::Vec3b>(y, x) =
                cv::Vec3b(std::uint8_t(x * 255 / width), std::uint8_t(y * 255 / height),
                          std::uint8_t((x * y) % 251));
    return bgr;
}

std::string jpegOf(const cv::Mat& bgr) {
    std::vector<unsigned char> out;
    EXPECT_TRUE(cv::imencode(".jpg", bgr, out, {cv::IMWRITE_JPEG_QUALITY, 90}));
    return std::string(out.begin(), out.end());
}

/// An APP1 segment "Exif" holding one IFD with the Orientation tag, little-endian, stored as
/// the TIFF type `type` (3 SHORT as the specification says; 1 BYTE, 4 LONG, 6 SBYTE, 8 SSHORT,
/// 9 SLONG as cameras write it).
std::string exifOrientationSegment(int orientation, char type = 3) {
    std::string tiff = std::string("II*\0", 4) + std::string("\x08\0\0\0", 4) + // header, IFD at 8
                       std::string("\x01\0", 2) +                               // one entry
                       std::string("\x12\x01", 2) + type + std::string("\0\x01\0\0\0", 5) +
                       std::string(1, char(orientation)) + std::string(3, '\0') + // value
                       std::string(4, '\0');                                      // no next IFD
    const std::string body = std::string("Exif\0\0", 6) + tiff;
    const std::size_t length = body.size() + 2;
    return std::string("\xFF\xE1", 2) + char(length >> 8) + char(length & 0xFF) + body;
}

// A truncated photo with an end marker put back was counted with half its pixels libjpeg's
// grey: what libjpeg reports (premature end of the data) refuses it now, and a complete photo
// with bytes after its end marker (camera trailers, motion photos) is read as the photo.
TEST(Decoders, JpegDamageIsWhatLibjpegReportsNotTheLastBytes) {
    TempDir dir;
    const std::string jpeg = jpegOf(picture(96, 64));
    test::writeFile(dir / "whole.jpg", jpeg);
    const HostImage whole = loadImage((dir / "whole.jpg").string());

    test::writeFile(dir / "patched.jpg", jpeg.substr(0, jpeg.size() / 2) + "\xFF\xD9");
    const std::string patched = loadError(dir / "patched.jpg");
    EXPECT_TRUE(contains(patched, "patched.jpg: damaged or truncated JPEG (libjpeg: ")) << patched;

    test::writeFile(dir / "cut.jpg", jpeg.substr(0, jpeg.size() - 300));
    EXPECT_TRUE(contains(loadError(dir / "cut.jpg"), "truncated JPEG"));

    test::writeFile(dir / "trailer.jpg", jpeg + std::string(5000, '\x42') + "MotionPhoto");
    const HostImage trailer = loadImage((dir / "trailer.jpg").string());
    EXPECT_EQ(trailer.data, whole.data);
}

// The EXIF orientations 1 to 8 give what cv::imread shows by default (its EXIF handling), and
// the size a viewer shows: 6 and 8 turn a landscape photo into a portrait one.
TEST(Decoders, JpegExifOrientationAsViewersShowIt) {
    TempDir dir;
    const std::string jpeg = jpegOf(picture(96, 64));
    for (int o = 1; o <= 8; ++o) {
        const fs::path path = dir / ("o" + std::to_string(o) + ".jpg");
        test::writeFile(path, jpeg.substr(0, 2) + exifOrientationSegment(o) + jpeg.substr(2));
        const HostImage img = loadImage(path.string());
        cv::Mat shown = cv::imread(path.string(), cv::IMREAD_COLOR);
        cv::cvtColor(shown, shown, cv::COLOR_BGR2RGB);
        EXPECT_TRUE(samePixels(matOf(img), shown)) << "orientation " << o;
        EXPECT_EQ(img.width, o >= 5 ? 64 : 96) << o;
    }
}

// A Panasonic DMC-GF1 stores the Orientation as a SLONG (gdk-pixbuf's bug725582-testrotate.jpg):
// it was ignored, and the photo counted landscape where OpenCV, PIL and gdk-pixbuf turn it.
// Every integer type is applied; a value outside 1 ... 8 is ignored, as cv::imread ignores it.
TEST(Decoders, JpegExifOrientationOfEveryIntegerType) {
    TempDir dir;
    const std::string jpeg = jpegOf(picture(96, 64));
    test::writeFile(dir / "plain.jpg", jpeg);
    const cv::Mat stored = matOf(loadImage((dir / "plain.jpg").string()));
    for (char type : {1, 3, 4, 6, 8, 9}) {
        const fs::path path = dir / ("t" + std::to_string(int(type)) + ".jpg");
        test::writeFile(path, jpeg.substr(0, 2) + exifOrientationSegment(6, type) + jpeg.substr(2));
        const HostImage img = loadImage(path.string());
        EXPECT_EQ(img.width, 64) << "type " << int(type);
        cv::Mat shown = cv::imread(path.string(), cv::IMREAD_COLOR);
        cv::cvtColor(shown, shown, cv::COLOR_BGR2RGB);
        EXPECT_TRUE(samePixels(matOf(img), shown)) << "type " << int(type);
    }
    for (int o : {0, 9, 255}) {
        const fs::path path = dir / ("v" + std::to_string(o) + ".jpg");
        test::writeFile(path, jpeg.substr(0, 2) + exifOrientationSegment(o, 9) + jpeg.substr(2));
        const HostImage img = loadImage(path.string());
        EXPECT_TRUE(samePixels(matOf(img), stored)) << "value " << o;
    }
}

// A window counts a JPEG's reference and makes its preview while it decodes: the preview is
// downscaleToFit's of the decoded image (a last band of rows that is not a whole block too),
// the counts those of the image. With an orientation still to apply the preview is left to
// downscaleToFit (the counts do not change); a damaged file gives neither.
TEST(Decoders, JpegRowsWhileDecodingGiveThePreviewAndTheCounts) {
    TempDir dir;
    const std::string jpeg = jpegOf(picture(149, 101));
    for (int orientation : {1, 6}) {
        const fs::path path = dir / ("o" + std::to_string(orientation) + ".jpg");
        test::writeFile(path,
                        jpeg.substr(0, 2) + exifOrientationSegment(orientation) + jpeg.substr(2));
        ReferenceCounter counter;
        StreamedDownscale preview(50); // 149 x 101 by 3: 50 x 34, its last row of 2 rows
        RowPipe pipe({counter.consumer(), preview.consumer()});
        const HostImage img = loadImage(path.string(), 1, &pipe);
        ASSERT_TRUE(pipe.complete()) << orientation;
        const auto counts = counter.result(true);
        ASSERT_TRUE(counts);
        EXPECT_EQ(counts->channelCounts, referenceHistogram(img.data.data(), img.data.size(), 3));
        const std::vector<std::uint8_t> gray = lumaPlane(img);
        EXPECT_EQ(counts->grayCounts, referenceHistogram(gray.data(), gray.size(), 1));
        const auto small = preview.take(true, img.source);
        if (orientation != 1) {
            EXPECT_FALSE(small) << "a preview before the orientation";
            continue;
        }
        ASSERT_TRUE(small);
        const HostImage whole = downscaleToFit(img, 50);
        EXPECT_EQ(small->width, 50);
        EXPECT_EQ(small->height, 34);
        EXPECT_EQ(small->width, whole.width);
        EXPECT_EQ(small->height, whole.height);
        EXPECT_EQ(small->data, whole.data);
    }
    test::writeFile(dir / "cut.jpg", jpeg.substr(0, jpeg.size() / 2) + "\xFF\xD9");
    ReferenceCounter counter;
    RowPipe pipe({counter.consumer()});
    EXPECT_THROW(loadImage((dir / "cut.jpg").string(), 1, &pipe), InputError);
    EXPECT_FALSE(pipe.complete());
    EXPECT_FALSE(counter.result(pipe.complete()));
}

// The preview made band by band is downscaleToFit's for every height and band size, or none:
// with an even factor, a last partial block can round (cvRound: halves to even) otherwise than
// the whole image's height, and that copy must not be written past its end (found in review:
// 12000 x 7815 by 6).
TEST(Decoders, StreamedDownscaleEqualsTheWholeImagesOrGivesNone) {
    cv::RNG rng(5);
    int streamed = 0, cases = 0;
    for (int k : {2, 3, 6}) {
        const int maxSide = 40, width = k * maxSide - 1; // whole factor k
        for (int height = k; height <= 150; height += 7)
            for (int band : {1, 5, 9, 64}) {
                cv::Mat mat(height, width, CV_8UC3);
                rng.fill(mat, cv::RNG::UNIFORM, 0, 256);
                HostImage img;
                img.width = width;
                img.height = height;
                img.channels = 3;
                img.data.assign(mat.data, mat.data + mat.total() * 3);
                // The consumer called as a RowPipe calls it, on this thread: the bands exact.
                StreamedDownscale small(maxSide);
                const RowPipe::Consumer consumer = small.consumer();
                consumer.begin({width, height, 3, 1});
                for (int first = 0; first < height; first += band)
                    consumer.rows(img.data.data(), first, std::min(first + band, height));
                const auto made = small.take(true, "x");
                ++cases;
                if (k == 6 && height == 27 && band == 9) { // 4.5 rows, then 1.5 for the last band
                    EXPECT_FALSE(made) << "a last band that rounds otherwise gives none";
                }
                if (!made)
                    continue;
                ++streamed;
                const HostImage whole = downscaleToFit(img, maxSide);
                ASSERT_EQ(made->width, whole.width) << k << " " << height << " " << band;
                ASSERT_EQ(made->height, whole.height) << k << " " << height << " " << band;
                EXPECT_EQ(made->data, whole.data) << k << " " << height << " " << band;
            }
    }
    EXPECT_GT(streamed, cases * 3 / 4) << streamed << " of " << cases;
}

// OpenCV decodes a PFM through a temporary copy of the file, and left the copy behind when it
// refused the file (a declared size of 0, or beyond its limit): a refused file of any size stayed
// in /tmp. Refused or read, nothing is left in OpenCV's temporary folder. (A size beyond the
// limits is now refused from the header, before OpenCV; a size of 0 still reaches OpenCV.)
TEST(Decoders, RefusedPfmLeavesNoTemporaryCopy) {
    TempDir dir;
    const fs::path temp = dir / "opencv-temp";
    fs::create_directory(temp);
    const char* before = std::getenv("OPENCV_TEMP_PATH");
    const std::string saved = before ? before : "";
    ::setenv("OPENCV_TEMP_PATH", temp.c_str(), 1);
    test::writeFile(dir / "huge.pfm",
                    std::string("PF\n100000 100000\n-1.0\n") + std::string(64, '\x42'));
    test::writeFile(dir / "zero.pfm", std::string("Pf\n0 5\n-1.0\n") + std::string(64, '\x42'));
    EXPECT_TRUE(contains(loadError(dir / "huge.pfm"), "huge.pfm: declares 100000 x 100000 pixels"));
    EXPECT_TRUE(contains(loadError(dir / "zero.pfm"), "zero.pfm: cannot be decoded"));
    cv::Mat ok(3, 2, CV_32FC1, cv::Scalar(0.5));
    ASSERT_TRUE(cv::imwrite((dir / "ok.pfm").string(), ok));
    EXPECT_EQ(loadImage((dir / "ok.pfm").string()).width, 2);
    EXPECT_TRUE(fs::is_empty(temp));
    if (before)
        ::setenv("OPENCV_TEMP_PATH", saved.c_str(), 1);
    else
        ::unsetenv("OPENCV_TEMP_PATH");
}

/// A TIFF written with libtiff: `samples` a pixel of `bits` bits, the given photometric and
/// extra samples, one page per entry of `pages` (each the page's samples, row-major).
template <typename T>
void writeTiff(const fs::path& path, int width, int height, int samples, int photometric,
               std::vector<std::uint16_t> extras, const std::vector<std::vector<T>>& pages,
               int orientation = ORIENTATION_TOPLEFT) {
    TIFF* tif = TIFFOpen(path.string().c_str(), "w");
    ASSERT_NE(tif, nullptr);
    for (const std::vector<T>& page : pages) {
        TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
        TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
        TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, samples);
        TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, int(sizeof(T) * 8));
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, photometric);
        TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
        TIFFSetField(tif, TIFFTAG_ORIENTATION, orientation);
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, 3);
        if (!extras.empty())
            TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, std::uint16_t(extras.size()), extras.data());
        if (pages.size() > 1)
            TIFFSetField(tif, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
        for (int y = 0; y < height; ++y)
            ASSERT_EQ(TIFFWriteScanline(
                          tif, const_cast<T*>(page.data() + std::size_t(y) * width * samples), y),
                      1);
        TIFFWriteDirectory(tif);
    }
    TIFFClose(tif);
}

std::vector<std::uint8_t> ramp(std::size_t n, unsigned step, unsigned offset = 0) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = std::uint8_t((i * step + offset) % 256);
    return v;
}

// A TIFF page is chosen with page (1-based); the source says which of how many; a page the
// file does not have, or a page of a format without pages, is a usage error on --page.
TEST(Decoders, TiffPages) {
    TempDir dir;
    const int w = 7, h = 5;
    std::vector<std::vector<std::uint8_t>> pages;
    for (unsigned p = 0; p < 3; ++p)
        pages.push_back(ramp(w * h, 3, p * 50));
    writeTiff(dir / "three.tif", w, h, 1, PHOTOMETRIC_MINISBLACK, {}, pages);
    for (int p = 1; p <= 3; ++p) {
        const HostImage img = loadImage((dir / "three.tif").string(), p);
        EXPECT_EQ(img.data, pages[std::size_t(p - 1)]) << p;
        EXPECT_EQ(img.source,
                  (dir / "three.tif").string() + ", page " + std::to_string(p) + " of 3");
        EXPECT_EQ(img.pages, 3);
    }
    EXPECT_THROW(loadImage((dir / "three.tif").string(), 4), UsageError);
    EXPECT_TRUE(contains(loadError(dir / "three.tif", 4), "has 3 pages, not a page 4"));
    cv::imwrite((dir / "one.png").string(), picture(4, 4));
    EXPECT_TRUE(contains(loadError(dir / "one.png", 2), "--page: "));
    EXPECT_EQ(loadImage((dir / "one.png").string()).source, (dir / "one.png").string());
    EXPECT_EQ(loadImage((dir / "one.png").string()).pages, 1);
}

// The same pixels give the same image whatever the container: RGBA with unassociated alpha as
// stored (not premultiplied), gray + alpha as RGBA (as PNG's), CMYK as RGB without an alpha.
TEST(Decoders, TiffAlphaAndCmykAsThePngOfTheSamePixels) {
    TempDir dir;
    const int w = 6, h = 4;
    const std::vector<std::uint8_t> rgba = ramp(w * h * 4, 37, 5);
    writeTiff<std::uint8_t>(dir / "rgba.tif", w, h, 4, PHOTOMETRIC_RGB, {EXTRASAMPLE_UNASSALPHA},
                            {rgba});
    cv::Mat bgra;
    cv::cvtColor(cv::Mat(h, w, CV_8UC4, const_cast<std::uint8_t*>(rgba.data())), bgra,
                 cv::COLOR_RGBA2BGRA);
    cv::imwrite((dir / "rgba.png").string(), bgra);
    const HostImage t = loadImage((dir / "rgba.tif").string());
    EXPECT_EQ(t.channels, 4);
    EXPECT_EQ(t.data, rgba);
    EXPECT_EQ(t.data, loadImage((dir / "rgba.png").string()).data);

    const std::vector<std::uint8_t> ga = ramp(w * h * 2, 29, 3);
    writeTiff<std::uint8_t>(dir / "ga.tif", w, h, 2, PHOTOMETRIC_MINISBLACK,
                            {EXTRASAMPLE_UNASSALPHA}, {ga});
    const HostImage g = loadImage((dir / "ga.tif").string());
    ASSERT_EQ(g.channels, 4);
    for (int i = 0; i < w * h; ++i) {
        EXPECT_EQ(g.data[4 * i], ga[2 * i]);
        EXPECT_EQ(g.data[4 * i + 1], ga[2 * i]);
        EXPECT_EQ(g.data[4 * i + 2], ga[2 * i]);
        EXPECT_EQ(g.data[4 * i + 3], ga[2 * i + 1]);
    }

    const std::vector<std::uint8_t> cmyk = ramp(w * h * 4, 53, 11);
    writeTiff<std::uint8_t>(dir / "cmyk.tif", w, h, 4, PHOTOMETRIC_SEPARATED, {}, {cmyk});
    const HostImage c = loadImage((dir / "cmyk.tif").string());
    ASSERT_EQ(c.channels, 3);
    for (int i = 0; i < w * h; ++i)
        for (int k = 0; k < 3; ++k) {
            const int light = (255 - cmyk[4 * i + k]) * (255 - cmyk[4 * i + 3]);
            EXPECT_EQ(c.data[3 * i + k], (light + 127) / 255) << i << " " << k;
        }
}

// The Orientation tag of a TIFF is applied as EXIF's is in a JPEG.
TEST(Decoders, TiffOrientationTag) {
    TempDir dir;
    const int w = 5, h = 3;
    const std::vector<std::uint8_t> stored = ramp(w * h, 7);
    writeTiff<std::uint8_t>(dir / "right.tif", w, h, 1, PHOTOMETRIC_MINISBLACK, {}, {stored},
                            ORIENTATION_RIGHTTOP);
    const HostImage img = loadImage((dir / "right.tif").string());
    ASSERT_EQ(img.width, h);
    ASSERT_EQ(img.height, w);
    // Orientation 6: the stored first row is the shown last column, top to bottom.
    for (int x = 0; x < w; ++x)
        EXPECT_EQ(img.data[std::size_t(x) * h + (h - 1)], stored[std::size_t(x)]) << x;
}

/// A little-endian, one-strip gray TIFF that declares width x height pixels and holds `data`
/// bytes of them: stored, or `payload` compressed with `compression` (32773: PackBits).
std::string lyingTiff(std::uint32_t width, std::uint32_t height, std::uint32_t data,
                      std::uint32_t compression = 1, const std::string& payload = {}) {
    if (!payload.empty())
        data = std::uint32_t(payload.size());
    std::string b("II*\0\x08\0\0\0", 8);
    auto u16 = [&](unsigned v) { b += char(v & 0xFF), b += char(v >> 8); };
    auto u32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            b += char((v >> (8 * i)) & 0xFF);
    };
    const std::uint32_t tags = 8, dataAt = 8 + 2 + tags * 12 + 4;
    u16(tags);
    for (auto [tag, value] : {std::pair{256u, width},
                              {257u, height},
                              {258u, 8u},
                              {259u, compression},
                              {262u, 1u},
                              {273u, dataAt},
                              {278u, height},
                              {279u, data}}) {
        u16(tag);
        u16(tag == 256 || tag == 257 || tag == 273 || tag == 278 || tag == 279 ? 4 : 3);
        u32(1);
        u32(value);
    }
    u32(0);
    b += payload.empty() ? std::string(data, '\x7F') : payload;
    return b;
}

// A 30000 x 30000 TIFF with one row of data was read as 900 million pixels (4.45 GB, 27 s):
// the first strip it cannot deliver refuses it. A size beyond the pixel limit is refused
// from the header, before anything is allocated.
TEST(Decoders, LyingTiffHeadersAndBombs) {
    TempDir dir;
    test::writeFile(dir / "lying.tif", lyingTiff(30000, 30000, 30000));
    const std::string lying = loadError(dir / "lying.tif");
    EXPECT_TRUE(contains(lying, "lying.tif: damaged or truncated TIFF")) << lying;

    test::writeFile(dir / "huge.tif", lyingTiff(60000, 60000, 16));
    const std::string huge = loadError(dir / "huge.tif");
    EXPECT_TRUE(contains(huge, "declares 60000 x 60000 pixels, more than the 1073741824")) << huge;
    EXPECT_TRUE(contains(huge, "HISTLAB_MAX_IMAGE_PIXELS")) << huge;

    test::writeFile(dir / "honest.tif", lyingTiff(100, 3, 300));
    const HostImage honest = loadImage((dir / "honest.tif").string());
    EXPECT_EQ(honest.pixelCount(), 300u);

    // Compressed, the lie allocated the whole image before its first strip failed (930 MB for
    // 592 bytes): no PackBits data expands more than 64 times (two bytes for a run of 128).
    std::string runs;
    for (int i = 0; i < 235; ++i)
        runs += std::string("\x81\x00", 2); // one 30,080-byte row
    test::writeFile(dir / "packbits.tif", lyingTiff(30000, 30000, 0, 32773, runs));
    const std::string packbits = loadError(dir / "packbits.tif");
    EXPECT_TRUE(contains(packbits, "packbits.tif: damaged or truncated TIFF: its compressed strips "
                                   "hold 470 bytes, at most 30080 once expanded, of the "
                                   "900000000 bytes"))
        << packbits;
    test::writeFile(dir / "packed.tif", lyingTiff(128, 2, 0, 32773, runs.substr(0, 4)));
    EXPECT_EQ(loadImage((dir / "packed.tif").string()).pixelCount(), 256u);

    // An honest file at its codec's best ratio loads: a constant picture, LZW and deflate.
    const cv::Mat flat(3000, 4000, CV_8UC1, cv::Scalar(9));
    for (int codec : {5, 8}) { // COMPRESSION_LZW, COMPRESSION_ADOBE_DEFLATE
        const std::string path = (dir / ("flat" + std::to_string(codec) + ".tif")).string();
        ASSERT_TRUE(cv::imwrite(path, flat, {cv::IMWRITE_TIFF_COMPRESSION, codec}));
        EXPECT_EQ(loadImage(path).pixelCount(), 12000000u) << codec;
    }
}

// CCITT fax pages as libtiff writes them (Group 3 2-D and Group 4, strips of 16 rows) are read
// whole: the bound of 8 rows a byte and the count of filled rows pass honest files, a flat page
// (one bit a row in Group 4) among them. Guards the fix for Group 4 strips that end early.
TEST(Decoders, FaxTiffsAsWritten) {
    TempDir dir;
    const int w = 203, h = 101;
    for (int codec : {COMPRESSION_CCITTFAX3, COMPRESSION_CCITTFAX4})
        for (bool flat : {false, true}) {
            const fs::path path =
                dir / ("fax" + std::to_string(codec) + (flat ? "f" : "") + ".tif");
            TIFF* t = TIFFOpen(path.string().c_str(), "w");
            ASSERT_TRUE(t);
            TIFFSetField(t, TIFFTAG_IMAGEWIDTH, w);
            TIFFSetField(t, TIFFTAG_IMAGELENGTH, h);
            TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 1);
            TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
            TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISWHITE);
            TIFFSetField(t, TIFFTAG_COMPRESSION, codec);
            if (codec == COMPRESSION_CCITTFAX3)
                TIFFSetField(t, TIFFTAG_GROUP3OPTIONS, GROUP3OPT_2DENCODING);
            TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 16);
            std::vector<std::uint8_t> row((w + 7) / 8);
            for (int y = 0; y < h; ++y) {
                for (std::size_t i = 0; i < row.size(); ++i)
                    row[i] = flat ? 0 : std::uint8_t((y * 7 + int(i) * 13) % 256);
                ASSERT_EQ(TIFFWriteScanline(t, row.data(), std::uint32_t(y), 0), 1);
            }
            TIFFClose(t);
            const HostImage img = loadImage(path.string());
            ASSERT_EQ(img.width, w);
            ASSERT_EQ(img.height, h);
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    const int bit = flat ? 0 : ((y * 7 + (x / 8) * 13) % 256) >> (7 - x % 8) & 1;
                    ASSERT_EQ(img.data[std::size_t(y) * w + x], bit ? 0 : 255)
                        << codec << " " << flat << " " << x << "," << y;
                }
        }
}

// PNG outputs are written by libpng with any side up to 2^31 - 1 (OpenCV's encoder kept
// libpng's 1,000,000): gray, RGB, RGBA, 8 and 16 bits read back as they were.
TEST(Decoders, PngWrittenAsLoaded) {
    TempDir dir;
    for (int depth : {8, 16})
        for (int channels : {1, 3, 4}) {
            HostImage img;
            img.width = 5;
            img.height = 3;
            img.channels = channels;
            img.depth = depth;
            img.data = ramp(img.width * img.height * channels * depth / 8, 41, 3);
            const std::string path = (dir / "out.png").string();
            saveImage(img, path);
            const HostImage back = loadImage(path);
            EXPECT_EQ(back.channels, channels);
            EXPECT_EQ(back.depth, depth);
            EXPECT_EQ(back.data, img.data) << depth << " " << channels;
        }
    HostImage wide;
    wide.width = 1100000;
    wide.height = 1;
    wide.channels = 1;
    wide.depth = 8;
    wide.data.assign(1100000, 77);
    saveImage(wide, (dir / "wide.png").string());
    EXPECT_EQ(loadImage((dir / "wide.png").string()).data, wide.data);
}

// 64-bit float samples are refused in HistLab's words (OpenCV printed its internal error).
TEST(Decoders, TiffUnsupportedSamplesInOneLine) {
    TempDir dir;
    cv::Mat d(4, 5, CV_64FC1, cv::Scalar(0.5));
    ASSERT_TRUE(cv::imwrite((dir / "double.tif").string(), d));
    testing::internal::CaptureStderr();
    const std::string why = loadError(dir / "double.tif");
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_TRUE(contains(why, "64-bit float are not supported (8- or 16-bit unsigned, or 32-bit "
                              "float)"))
        << why;
}

// A 32-bit float colour TIFF as OpenCV writes it (SGI LogLuv: CIE XYZ, compressed) reads as
// 32-bit float RGB equal to what cv::imread gives (which is BGR), with a note saying so.
TEST(Decoders, LogLuvTiffAsOpenCvReadsIt) {
    TempDir dir;
    cv::Mat bgr(30, 40, CV_32FC3);
    cv::randu(bgr, cv::Scalar::all(0.0), cv::Scalar::all(4.0));
    const std::string path = (dir / "float.tiff").string();
    ASSERT_TRUE(cv::imwrite(path, bgr));
    TIFF* tif = TIFFOpen(path.c_str(), "r");
    ASSERT_NE(tif, nullptr);
    std::uint16_t photometric = 0;
    TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFClose(tif);
    ASSERT_EQ(photometric, PHOTOMETRIC_LOGLUV) << "OpenCV wrote another kind of float TIFF";

    const HostImage image = loadImage(path);
    ASSERT_EQ(image.depth, 32);
    ASSERT_EQ(image.channels, 3);
    ASSERT_EQ(image.width, 40);
    ASSERT_EQ(image.height, 30);
    cv::Mat expected = cv::imread(path, cv::IMREAD_UNCHANGED);
    ASSERT_EQ(expected.type(), CV_32FC3);
    cv::cvtColor(expected, expected, cv::COLOR_BGR2RGB);
    ASSERT_EQ(image.data.size(), expected.total() * expected.elemSize());
    EXPECT_EQ(std::memcmp(image.data.data(), expected.data, image.data.size()), 0);
}

// libpng's own "libpng error" line is no longer printed; the damage is in HistLab's one line.
TEST(Decoders, DamagedPngInOneLineAndNothingPrinted) {
    TempDir dir;
    cv::imwrite((dir / "ok.png").string(), picture(40, 30));
    const std::string png = test::readFile(dir / "ok.png");
    test::writeFile(dir / "cut.png", png.substr(0, png.size() / 2));
    std::string flipped = png;
    flipped[png.size() / 2] = char(flipped[png.size() / 2] ^ 0x5A); // inside IDAT: a bad CRC
    test::writeFile(dir / "flipped.png", flipped);
    testing::internal::CaptureStderr();
    const std::string cut = loadError(dir / "cut.png");
    const std::string bad = loadError(dir / "flipped.png");
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_TRUE(contains(cut, "cut.png: damaged or truncated PNG (libpng: ")) << cut;
    EXPECT_TRUE(contains(bad, "flipped.png: damaged or truncated PNG (libpng: ")) << bad;
}

// Netpbm: a sample is a fraction of the maxval, so other maxvals are scaled to 8 or 16 bits;
// samples above it, or fewer bytes than declared, refuse the file; PBM's 1 is black.
TEST(Decoders, NetpbmMaxvalDamageAndBitmaps) {
    TempDir dir;
    test::writeFile(dir / "m1000.pgm", "P2\n# a comment\n4 1\n1000\n0 1 500 1000\n");
    const HostImage wide = loadImage((dir / "m1000.pgm").string());
    EXPECT_EQ(wide.depth, 16);
    const auto* v = reinterpret_cast<const std::uint16_t*>(wide.data.data());
    EXPECT_EQ(std::vector<std::uint16_t>(v, v + 4),
              (std::vector<std::uint16_t>{0, 66, 32768, 65535})); // round(x * 65535 / 1000)

    test::writeFile(dir / "m15.pgm", std::string("P5 4 1 15\n\x00\x01\x07\x0f", 14));
    const HostImage narrow = loadImage((dir / "m15.pgm").string());
    EXPECT_EQ(narrow.depth, 8);
    EXPECT_EQ(narrow.data, (std::vector<std::uint8_t>{0, 17, 119, 255}));

    test::writeFile(dir / "above.pgm", std::string("P5 4 1 15\n\x00\x01\x50\x0f", 14));
    EXPECT_TRUE(contains(loadError(dir / "above.pgm"),
                         "above.pgm: damaged PGM (sample 80 at pixel (2, 0) is above the maxval "
                         "15)"));
    test::writeFile(dir / "above16.ppm", "P3 1 1 1000 0 5000 1\n");
    EXPECT_TRUE(contains(loadError(dir / "above16.ppm"), "damaged PPM (sample 5000"));

    test::writeFile(dir / "short.pgm", "P5 30000 30000 255\n" + std::string(100, 'x'));
    EXPECT_TRUE(contains(loadError(dir / "short.pgm"),
                         "truncated PGM (30000 x 30000 pixels need 900000000 bytes of samples, "
                         "the file has 100)"));

    test::writeFile(dir / "plain.pbm", "P1 3 2 101\n0 1 0");
    EXPECT_EQ(loadImage((dir / "plain.pbm").string()).data,
              (std::vector<std::uint8_t>{0, 255, 0, 255, 0, 255}));
    test::writeFile(dir / "raw.pbm", std::string("P4 3 2\n\xA0\x40", 9));
    EXPECT_EQ(loadImage((dir / "raw.pbm").string()).data,
              (std::vector<std::uint8_t>{0, 255, 0, 255, 0, 255}));
}

} // namespace
} // namespace histlab

namespace histlab {
namespace {

/// A GIF written with giflib: a 4-colour global map, `frames` frames, the first `fw` x `fh` at
/// (left, top) of a w x h screen with index (x + 2 y) % 4 at (x, y); interlaced or not; with
/// `transparent` as the first frame's transparent index (-1: none).
void writeGif(const fs::path& path, int w, int h, int frames, int fw, int fh, int left, int top,
              bool interlaced, int transparent) {
    int error = 0;
    GifFileType* g = EGifOpenFileName(path.string().c_str(), false, &error);
    ASSERT_NE(g, nullptr);
    const GifColorType colours[4] = {{10, 20, 30}, {200, 0, 0}, {0, 210, 0}, {5, 6, 220}};
    ColorMapObject* map = GifMakeMapObject(4, colours);
    EGifSetGifVersion(g, true);
    ASSERT_EQ(EGifPutScreenDesc(g, w, h, 2, 0, map), GIF_OK);
    for (int f = 0; f < frames; ++f) {
        GraphicsControlBlock gcb{DISPOSAL_UNSPECIFIED, false, 10, f == 0 ? transparent : -1};
        GifByteType ext[4];
        EGifGCBToExtension(&gcb, ext);
        ASSERT_EQ(EGifPutExtension(g, GRAPHICS_EXT_FUNC_CODE, 4, ext), GIF_OK);
        ASSERT_EQ(EGifPutImageDesc(g, left, top, fw, fh, interlaced, nullptr), GIF_OK);
        std::vector<int> order; // the rows in the order they are stored
        if (interlaced)
            for (auto [start, step] : {std::pair{0, 8}, {4, 8}, {2, 4}, {1, 2}})
                for (int y = start; y < fh; y += step)
                    order.push_back(y);
        else
            for (int y = 0; y < fh; ++y)
                order.push_back(y);
        for (int y : order) {
            std::vector<GifPixelType> line(static_cast<std::size_t>(fw));
            for (int x = 0; x < fw; ++x)
                line[std::size_t(x)] = GifPixelType((x + 2 * y + f) % 4);
            ASSERT_EQ(EGifPutLine(g, line.data(), fw), GIF_OK);
        }
    }
    EGifCloseFile(g, &error);
    GifFreeMapObject(map);
}

// GIF (OpenCV 4.6 reads none): the first frame on the logical screen, as a viewer shows a still;
// an animation names how many frames it has; interlaced rows in place; the transparent colour as
// alpha.
TEST(Decoders, GifFirstFrameInterlacingAndTransparency) {
    TempDir dir;
    const std::uint8_t rgb[4][3] = {{10, 20, 30}, {200, 0, 0}, {0, 210, 0}, {5, 6, 220}};
    writeGif(dir / "anim.gif", 12, 9, 3, 12, 9, 0, 0, false, -1);
    const HostImage anim = loadImage((dir / "anim.gif").string());
    EXPECT_EQ(anim.source, (dir / "anim.gif").string() + ", frame 1 of 3");
    ASSERT_EQ(anim.channels, 3);
    for (int y = 0; y < 9; ++y)
        for (int x = 0; x < 12; ++x)
            for (int c = 0; c < 3; ++c)
                ASSERT_EQ(anim.data[(std::size_t(y) * 12 + x) * 3 + c], rgb[(x + 2 * y) % 4][c]);

    writeGif(dir / "laced.gif", 10, 19, 1, 10, 19, 0, 0, true, 2);
    const HostImage laced = loadImage((dir / "laced.gif").string());
    EXPECT_EQ(laced.source, (dir / "laced.gif").string());
    ASSERT_EQ(laced.channels, 4);
    for (int y = 0; y < 19; ++y)
        for (int x = 0; x < 10; ++x) {
            const std::uint8_t* p = &laced.data[(std::size_t(y) * 10 + x) * 4];
            const int i = (x + 2 * y) % 4;
            ASSERT_EQ(p[0], rgb[i][0]) << x << "," << y;
            ASSERT_EQ(p[3], i == 2 ? 0 : 255) << x << "," << y;
        }

    // A frame smaller than the screen is shown on the screen, which starts transparent.
    writeGif(dir / "small.gif", 8, 8, 1, 4, 4, 2, 3, false, -1);
    const HostImage small = loadImage((dir / "small.gif").string());
    ASSERT_EQ(small.width, 8);
    ASSERT_EQ(small.height, 8);
    ASSERT_EQ(small.channels, 4);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const std::uint8_t* p = &small.data[(std::size_t(y) * 8 + x) * 4];
            const bool inside = x >= 2 && x < 6 && y >= 3 && y < 7;
            ASSERT_EQ(p[3], inside ? 255 : 0) << x << "," << y;
            if (inside) {
                ASSERT_EQ(p[0], rgb[(x - 2 + 2 * (y - 3)) % 4][0]) << x << "," << y;
            }
        }

    // Found by fuzzing: a frame header giflib refuses without an error code (GifErrorString has
    // no words for 0) crashed the message; it is one line now.
    test::writeFile(dir / "header.gif",
                    std::string("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9"
                                "\x04\x01\x00\x00\x00\x00,\x00[\x00\x00U\x00\x01\x00;",
                                37));
    EXPECT_TRUE(contains(loadError(dir / "header.gif"), "header.gif: damaged or truncated GIF ("));

    const std::string bytes = test::readFile(dir / "laced.gif");
    test::writeFile(dir / "cut.gif", bytes.substr(0, bytes.size() / 2));
    const std::string cut = loadError(dir / "cut.gif");
    EXPECT_TRUE(contains(cut, "cut.gif: damaged or truncated GIF (")) << cut;
    EXPECT_EQ(whyNotAnImage((dir / "anim.gif").string()), "");
}

/// `v` as a 16-bit little-endian word, as GIF stores its numbers.
std::string word16(int v) {
    return {char(v & 0xFF), char((v >> 8) & 0xFF)};
}

/// One image block of gifFile(): its rectangle, colour indices row by row, and its graphics
/// control extension (none where `control` is false).
struct GifBlock {
    int left = 0, top = 0, width = 0, height = 0;
    std::vector<int> indices;
    bool control = false;
    int delay = 0, disposal = 0, transparent = -1;
};

/// GIF image data for `indices` as literal LZW codes only, with a clear code wherever the table
/// would make the codes a bit wider. With a minimum code size of 11 the codes are 12 bits from
/// the first and never clear: the maximal codes of the GIF test suite's max-codes.gif, which
/// giflib refuses.
std::string lzwLiterals(const std::vector<int>& indices, int minCodeSize) {
    const int clear = 1 << minCodeSize, width = minCodeSize + 1;
    std::string data;
    std::uint32_t bits = 0;
    int held = 0;
    auto put = [&](int code) {
        bits |= std::uint32_t(code) << held;
        for (held += width; held >= 8; held -= 8, bits >>= 8)
            data += char(bits & 0xFF);
    };
    put(clear);
    int next = clear + 2;
    bool fresh = true;
    for (int i : indices) {
        if (!fresh && next + 1 == 1 << width && width < 12) {
            put(clear);
            next = clear + 2;
            fresh = true;
        }
        put(i);
        if (!fresh && next < 4096)
            ++next;
        fresh = false;
    }
    put(clear + 1);
    if (held > 0)
        data += char(bits & 0xFF);
    std::string out(1, char(minCodeSize));
    for (std::size_t at = 0; at < data.size(); at += 255) {
        const std::string part = data.substr(at, 255);
        out += char(part.size()) + part;
    }
    return out + '\0';
}

/// A GIF89a file of a w x h screen, a global colour map of 2^k colours (colour i is (i, 2 i,
/// 255 - i)), the blocks in order, and a NETSCAPE2.0 looping extension where `loop`.
std::string gifFile(int w, int h, int mapBits, const std::vector<GifBlock>& blocks, int minCodeSize,
                    bool loop = false) {
    std::string f = "GIF89a" + word16(w) + word16(h) + char(0xF0 | (mapBits - 1)) + '\0' + '\0';
    for (int i = 0; i < 1 << mapBits; ++i)
        f += std::string{char(i), char(2 * i), char(255 - i)};
    if (loop)
        f += std::string("!\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00", 19);
    for (const GifBlock& b : blocks) {
        if (b.control)
            f += std::string("!\xF9\x04", 3) +
                 char((b.disposal << 2) | (b.transparent >= 0 ? 1 : 0)) + word16(b.delay) +
                 char(std::max(b.transparent, 0)) + '\0';
        f += ',' + word16(b.left) + word16(b.top) + word16(b.width) + word16(b.height) + '\0' +
             lzwLiterals(b.indices, minCodeSize);
    }
    return f + ';';
}

/// A block of one colour index.
GifBlock gifBlock(int left, int top, int width, int height, int index) {
    GifBlock b{left, top, width, height, std::vector<int>(std::size_t(width * height), index)};
    return b;
}

/// The message that refuses `bytes` written to `path`.
std::string refusal(const fs::path& path, const std::string& bytes) {
    test::writeFile(path, bytes);
    return loadError(path);
}

/// The RGB(A) pixel of `img` at (x, y).
std::vector<int> pixelAt(const HostImage& img, int x, int y) {
    const std::uint8_t* p =
        &img.data[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * img.channels];
    return std::vector<int>(p, p + img.channels);
}

// The GIF test suite's max-codes.gif (LZW minimum code size 11: every code 12 bits) was refused
// as "Failed to read from given file": giflib's decoder takes minimum code sizes up to 8 only.
// HistLab decodes the LZW data itself now, as PIL and browsers do.
TEST(Decoders, GifMaximalLzwCodes) {
    TempDir dir;
    GifBlock b{0, 0, 37, 23, {}};
    for (int y = 0; y < 23; ++y)
        for (int x = 0; x < 37; ++x)
            b.indices.push_back((x * 3 + y * 5) % 16);
    for (int codeSize : {11, 4, 8}) {
        const fs::path path = dir / ("codes" + std::to_string(codeSize) + ".gif");
        test::writeFile(path, gifFile(37, 23, 4, {b}, codeSize));
        const HostImage img = loadImage(path.string());
        ASSERT_EQ(img.channels, 3) << codeSize;
        ASSERT_EQ(img.width, 37);
        for (int y = 0; y < 23; ++y)
            for (int x = 0; x < 37; ++x) {
                const int i = (x * 3 + y * 5) % 16;
                ASSERT_EQ(pixelAt(img, x, y), (std::vector<int>{i, 2 * i, 255 - i}))
                    << codeSize << ": " << x << "," << y;
            }
    }
    // A code size beyond LZW's 12-bit codes is damage, named.
    std::string bad = gifFile(37, 23, 4, {b}, 11);
    bad[bad.find(',') + 10] = 12;
    EXPECT_TRUE(contains(refusal(dir / "bad.gif", bad),
                         "bad.gif: damaged or truncated GIF (frame 1 has an LZW minimum code size "
                         "of 12, not 1 ... 11)"));
}

// A block reaching past the logical screen was refused as damaged; PIL and browsers clip it.
TEST(Decoders, GifBlockPastTheScreenIsClipped) {
    TempDir dir;
    GifBlock whole = gifBlock(0, 0, 6, 4, 1);
    GifBlock past{4, 2, 5, 3, {}};
    for (int i = 0; i < 15; ++i)
        past.indices.push_back(2 + i % 2);
    test::writeFile(dir / "past.gif", gifFile(6, 4, 2, {whole, past}, 2));
    const HostImage img = loadImage((dir / "past.gif").string());
    ASSERT_EQ(img.width, 6);
    ASSERT_EQ(img.height, 4);
    ASSERT_EQ(img.channels, 3);
    EXPECT_EQ(pixelAt(img, 3, 3), (std::vector<int>{1, 2, 254}));
    EXPECT_EQ(pixelAt(img, 4, 2), (std::vector<int>{2, 4, 253})); // index 0 of the block
    EXPECT_EQ(pixelAt(img, 5, 2), (std::vector<int>{3, 6, 252})); // index 1
    EXPECT_EQ(pixelAt(img, 4, 3), (std::vector<int>{3, 6, 252})); // index 5: row 1, x 0
    // Wholly off the screen: nothing of it is shown.
    test::writeFile(dir / "one.gif", gifFile(6, 4, 2, {whole}, 2));
    test::writeFile(dir / "off.gif", gifFile(6, 4, 2, {whole, gifBlock(7, 9, 3, 3, 2)}, 2));
    EXPECT_EQ(loadImage((dir / "off.gif").string()).data,
              loadImage((dir / "one.gif").string()).data);
    // A large screen its blocks barely cover is cut to the rectangle they cover; a block off the
    // screen, and the disposals of blocks within it, keep to that rectangle.
    GifBlock a = gifBlock(10, 10, 2, 2, 1), off = gifBlock(2500, 2500, 1, 1, 2),
             c = gifBlock(11, 11, 1, 1, 3);
    a.control = off.control = c.control = true;
    a.disposal = 3, off.disposal = 2, c.delay = 10;
    test::writeFile(dir / "cut.gif", gifFile(2000, 2000, 2, {a, off, c}, 2));
    const HostImage cut = loadImage((dir / "cut.gif").string());
    ASSERT_EQ(cut.width, 2);
    ASSERT_EQ(cut.height, 2);
    ASSERT_EQ(cut.channels, 4);
    EXPECT_EQ(pixelAt(cut, 0, 0)[3], 0); // block a, put back as it was
    EXPECT_EQ(pixelAt(cut, 1, 1), (std::vector<int>{3, 6, 252, 255}));
}

// The first image is every block up to the first delay, painted on the screen with each
// block's disposal (the suite's high-color.gif: four 16 x 16 blocks of 256 colours make one
// 32 x 32 image of 1,024 colours; it was its first block, 75 % of its screen left out).
TEST(Decoders, GifFirstImageComposesBlocksUpToTheFirstDelay) {
    TempDir dir;
    // Four quadrants without any control extension: one image of every block.
    std::vector<GifBlock> quads;
    for (int q = 0; q < 4; ++q)
        quads.push_back(gifBlock(q % 2 * 2, q / 2 * 2, 2, 2, q + 1));
    test::writeFile(dir / "quads.gif", gifFile(4, 4, 3, quads, 3));
    const HostImage combined = loadImage((dir / "quads.gif").string());
    EXPECT_EQ(combined.source, (dir / "quads.gif").string());
    ASSERT_EQ(combined.channels, 3);
    for (int q = 0; q < 4; ++q)
        EXPECT_EQ(pixelAt(combined, q % 2 * 2 + 1, q / 2 * 2 + 1)[0], q + 1) << q;

    // Disposal: 1 keeps the block, 2 clears its rectangle to transparent, 3 puts back what was
    // under it; the block of a non-zero delay ends the first image, the next starts frame 2.
    GifBlock base = gifBlock(0, 0, 4, 4, 1);
    base.control = true, base.disposal = 1;
    GifBlock restored = gifBlock(0, 0, 2, 2, 2);
    restored.control = true, restored.disposal = 3;
    GifBlock cleared = gifBlock(2, 2, 2, 2, 3);
    cleared.control = true, cleared.disposal = 2;
    GifBlock shown = gifBlock(1, 1, 1, 1, 4);
    shown.control = true, shown.delay = 10;
    GifBlock later = gifBlock(0, 0, 4, 4, 5);
    test::writeFile(dir / "dispose.gif",
                    gifFile(4, 4, 3, {base, restored, cleared, shown, later}, 3));
    const HostImage img = loadImage((dir / "dispose.gif").string());
    EXPECT_EQ(img.source, (dir / "dispose.gif").string() + ", frame 1 of 2");
    ASSERT_EQ(img.channels, 4);
    EXPECT_EQ(pixelAt(img, 0, 0), (std::vector<int>{1, 2, 254, 255})); // block 2 put back
    EXPECT_EQ(pixelAt(img, 1, 1), (std::vector<int>{4, 8, 251, 255})); // the delayed block
    EXPECT_EQ(pixelAt(img, 3, 3)[3], 0);                               // block 3 cleared
    EXPECT_EQ(pixelAt(img, 3, 0), (std::vector<int>{1, 2, 254, 255}));

    // A looping animation without any delay shows each block as a frame: the first is shown.
    test::writeFile(dir / "loop.gif", gifFile(4, 4, 3, {gifBlock(0, 0, 4, 4, 6), later}, 3, true));
    const HostImage loop = loadImage((dir / "loop.gif").string());
    EXPECT_EQ(loop.source, (dir / "loop.gif").string() + ", frame 1 of 2");
    EXPECT_EQ(pixelAt(loop, 2, 2), (std::vector<int>{6, 12, 249}));

    // A hostile file of many blocks before any delay is refused, not composed without end.
    std::vector<GifBlock> many(4097, gifBlock(0, 0, 1, 1, 1));
    EXPECT_TRUE(contains(refusal(dir / "many.gif", gifFile(1, 1, 1, many, 2)),
                         "many.gif: damaged or truncated GIF (more than 4096 image blocks before "
                         "the first delay)"));
}

// A transparent colour that no shown pixel uses added an alpha channel of 255 everywhere: the
// image is RGB, as if there were no transparent colour.
TEST(Decoders, GifUnusedTransparentColourAddsNoAlpha) {
    TempDir dir;
    GifBlock b = gifBlock(0, 0, 3, 2, 1);
    b.indices[4] = 2;
    b.control = true, b.transparent = 3;
    test::writeFile(dir / "unused.gif", gifFile(3, 2, 2, {b}, 2));
    const HostImage unused = loadImage((dir / "unused.gif").string());
    EXPECT_EQ(unused.channels, 3);
    EXPECT_EQ(pixelAt(unused, 1, 1), (std::vector<int>{2, 4, 253}));
    b.transparent = 2;
    test::writeFile(dir / "used.gif", gifFile(3, 2, 2, {b}, 2));
    const HostImage used = loadImage((dir / "used.gif").string());
    ASSERT_EQ(used.channels, 4);
    EXPECT_EQ(pixelAt(used, 1, 1)[3], 0);
    EXPECT_EQ(pixelAt(used, 0, 0), (std::vector<int>{1, 2, 254, 255}));
}

// TGA (no signature: known by its name) through stb_image, bottom-up rows put upright.
TEST(Decoders, TgaByName) {
    TempDir dir;
    const int w = 5, h = 3;
    std::string tga(18, '\0');
    tga[2] = 2; // uncompressed true colour
    tga[12] = char(w), tga[14] = char(h);
    tga[16] = 24; // bits a pixel; descriptor 0: rows bottom-up
    for (int y = h - 1; y >= 0; --y)
        for (int x = 0; x < w; ++x)
            tga += std::string{char(x * 10), char(y * 20), char(x + y)}; // B, G, R
    test::writeFile(dir / "t.tga", tga);
    const HostImage img = loadImage((dir / "t.tga").string());
    ASSERT_EQ(img.channels, 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::uint8_t* p = &img.data[(std::size_t(y) * w + x) * 3];
            EXPECT_EQ(p[0], x + y);
            EXPECT_EQ(p[1], y * 20);
            EXPECT_EQ(p[2], x * 10);
        }
    EXPECT_EQ(whyNotAnImage((dir / "t.tga").string()), "");
    test::writeFile(dir / "cut.tga", tga.substr(0, 30));
    EXPECT_TRUE(contains(loadError(dir / "cut.tga"), "cut.tga: damaged or truncated TGA"));
}

std::string le(std::uint32_t v, int bytes) {
    std::string s;
    for (int i = 0; i < bytes; ++i)
        s += char((v >> (8 * i)) & 0xFF);
    return s;
}

/// An icon of the given entries (width, height, bits, payload).
std::string icon(const std::vector<std::tuple<int, int, int, std::string>>& entries) {
    std::string dir = le(0, 2) + le(1, 2) + le(std::uint32_t(entries.size()), 2), data;
    std::uint32_t at = 6 + 16 * std::uint32_t(entries.size());
    for (const auto& [w, h, bits, payload] : entries) {
        dir += std::string{char(w & 0xFF), char(h & 0xFF), 0, 0} + le(1, 2) + le(bits, 2) +
               le(std::uint32_t(payload.size()), 4) + le(at, 4);
        at += std::uint32_t(payload.size());
        data += payload;
    }
    return dir + data;
}

// ICO: the largest image counts (a PNG entry through libpng); a 24-bit BMP entry takes its alpha
// from the AND mask.
TEST(Decoders, IconLargestImageAndMask) {
    TempDir dir;
    std::vector<unsigned char> png;
    ASSERT_TRUE(cv::imencode(".png", picture(32, 32), png));
    // A 4 x 2 24-bit bitmap: header, colour rows bottom-up (padded to 4 bytes), AND mask rows.
    std::string bmp =
        le(40, 4) + le(4, 4) + le(4, 4) + le(1, 2) + le(24, 2) + std::string(24, '\0');
    for (int y = 1; y >= 0; --y) // bottom row first
        for (int x = 0; x < 4; ++x)
            bmp += std::string{char(x), char(y), char(100 + x)}; // B, G, R
    bmp += le(0x00000040u, 4) + le(0x000000C0u, 4); // bottom row: x 1 transparent; top: x 0, 1
    test::writeFile(dir / "two.ico",
                    icon({{4, 2, 24, bmp}, {32, 32, 32, std::string(png.begin(), png.end())}}));
    const HostImage two = loadImage((dir / "two.ico").string());
    EXPECT_EQ(two.width, 32);
    EXPECT_EQ(two.channels, 3);

    test::writeFile(dir / "masked.ico", icon({{4, 2, 24, bmp}}));
    const HostImage masked = loadImage((dir / "masked.ico").string());
    ASSERT_EQ(masked.width, 4);
    ASSERT_EQ(masked.height, 2);
    ASSERT_EQ(masked.channels, 4);
    const int alpha[2][4] = {{0, 0, 255, 255}, {255, 0, 255, 255}};
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 4; ++x) {
            const std::uint8_t* p = &masked.data[(std::size_t(y) * 4 + x) * 4];
            EXPECT_EQ(p[0], 100 + x) << x << "," << y;
            EXPECT_EQ(p[1], y) << x << "," << y;
            EXPECT_EQ(p[3], alpha[y][x]) << x << "," << y;
        }
    test::writeFile(dir / "bad.ico", icon({{4, 2, 24, bmp.substr(0, 50)}}));
    EXPECT_TRUE(contains(loadError(dir / "bad.ico"), "bad.ico: damaged icon ("));
}

/// The bytes `text` replaced by `with` at its first place in `bytes` (which must hold it).
std::string replaced(std::string bytes, const std::string& text, const std::string& with) {
    const std::size_t at = bytes.find(text);
    EXPECT_NE(at, std::string::npos) << text;
    return at == std::string::npos ? bytes : bytes.replace(at, text.size(), with);
}

/// `value` as 4 bytes, little-endian or big-endian.
std::string le32Of(std::uint32_t v) {
    return {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
}
std::string be32Of(std::uint32_t v) {
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

// The formats OpenCV decodes were checked against HistLab's limits only after OpenCV had
// allocated the whole image (a few bytes of HDR or OpenEXR can declare 12-16 GB). Their
// headers are read first now: each file OpenCV writes declares its real size, and the same file
// made to declare 40000 x 40000 pixels is refused from its header, in HistLab's words.
TEST(Decoders, OpenCvFormatsAreHeldToTheLimitsFromTheirHeaders) {
    TempDir dir;
    const cv::Mat bgr(64, 48, CV_8UC3, cv::Scalar(1, 2, 3));
    const cv::Mat floats(64, 48, CV_32FC3, cv::Scalar(0.25, 0.5, 2.0));
    const cv::Mat gray(64, 48, CV_32FC1, cv::Scalar(0.75));
    const std::string huge = "declares 40000 x 40000 pixels, more than the 1073741824";
    struct Case {
        const char* name;
        const cv::Mat& mat;
        int channels, bytesPerChannel; // what decoding it allocates per pixel, at most
        std::function<std::string(const std::string&)> lie; // the file declaring 40000^2
        std::vector<int> params = {};
    };
    const std::string big = le32Of(40000), bigBe = be32Of(40000);
    const std::vector<Case> cases = {
        {"a.bmp", bgr, 3, 1,
         [&](const std::string& f) { return f.substr(0, 18) + big + big + f.substr(26); }},
        {"b.pam", bgr, 3, 1,
         [](const std::string& f) {
             return replaced(replaced(f, "WIDTH 48", "WIDTH 40000"), "HEIGHT 64", "HEIGHT 40000");
         }},
        {"c.sr", bgr, 3, 1,
         [&](const std::string& f) { return f.substr(0, 4) + bigBe + bigBe + f.substr(12); }},
        // (PFM and HDR: OpenCV decodes into a float image of its own, then converts it)
        {"d.pfm", floats, 3, 8,
         [](const std::string& f) { return replaced(f, "48 64", "+40000 40000x"); }},
        {"e.hdr", floats, 3, 8,
         [](const std::string& f) { return replaced(f, "-Y 64 +X 48", "-Y40000 +X +40000"); }},
        {"f.exr", floats, 3, 4,
         [&](const std::string& f) {
             // dataWindow (box2i): xMin, yMin, xMax, yMax
             const std::string name = std::string("dataWindow\0box2i\0", 17) + le32Of(16);
             return replaced(f, name + le32Of(0) + le32Of(0) + le32Of(47) + le32Of(63),
                             name + le32Of(0) + le32Of(0) + le32Of(39999) + le32Of(39999));
         }},
        {"g.jp2", bgr, 3, 6, // (OpenJPEG's 32-bit samples, then OpenCV's)
         [&](const std::string& f) {
             return replaced(f, "ihdr" + be32Of(64) + be32Of(48), "ihdr" + bigBe + bigBe);
         }},
        // (14 bits a side: at most 16384^2, within the pixel limit; lossless keeps ARGB too)
        {"h.webp", bgr, 4, 2, nullptr},
        {"i.webp", bgr, 4, 1, nullptr, {cv::IMWRITE_WEBP_QUALITY, 80}},
        {"j.exr", gray, 1, 4, nullptr},
    };
    for (const Case& c : cases) {
        const fs::path path = dir / c.name;
        ASSERT_TRUE(cv::imwrite(path.string(), c.mat, c.params)) << c.name;
        const std::string file = test::readFile(path);
        const std::vector<unsigned char> bytes(file.begin(), file.end());
        const auto d = io::openCvDeclaredSize(bytes);
        ASSERT_TRUE(d.has_value()) << c.name;
        EXPECT_EQ(d->width, 48u) << c.name;
        EXPECT_EQ(d->height, 64u) << c.name;
        EXPECT_EQ(d->channels, c.channels) << c.name;
        EXPECT_EQ(d->bytesPerChannel, c.bytesPerChannel) << c.name;
        // never less than what OpenCV makes of it
        const cv::Mat decoded = cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
        EXPECT_GE(std::size_t(d->channels * d->bytesPerChannel), decoded.elemSize()) << c.name;
        EXPECT_EQ(decoded.cols, 48) << c.name;
        if (!c.lie)
            continue;
        const fs::path lying = dir / (std::string("lying-") + c.name);
        test::writeFile(lying, c.lie(file));
        const std::string error = loadError(lying);
        EXPECT_TRUE(contains(error, lying.filename().string() + ": " + huge))
            << c.name << ": " << error;
    }

    // OpenEXR channels OpenCV does not name count as four; a JP2 image header's component count
    // below its codestream's does not lower it (OpenJPEG checks only the sizes).
    const auto declaredBy = [](const std::string& file) {
        return io::openCvDeclaredSize(std::vector<unsigned char>(file.begin(), file.end()));
    };
    const std::string rgbExr = test::readFile(dir / "f.exr");
    const std::string chlist = std::string("channels\0chlist\0", 16);
    const std::size_t entries = rgbExr.find(chlist) + chlist.size() + 4;
    ASSERT_EQ(rgbExr.substr(entries, 2), std::string("B\0", 2));
    std::string otherExr = rgbExr;
    otherExr[entries] = 'Q';
    EXPECT_EQ(declaredBy(otherExr)->channels, 4);
    const std::string jp2 = test::readFile(dir / "g.jp2");
    EXPECT_EQ(declaredBy(replaced(jp2, "ihdr" + be32Of(64) + be32Of(48) + std::string("\0\3", 2),
                                  "ihdr" + be32Of(64) + be32Of(48) + std::string("\0\1", 2)))
                  ->channels,
              3);

    // A BMP whose pixels are cut short is refused before OpenCV (which filled them); a file
    // OpenCV fails to decode is named with its format: a Sun raster of RGB order (type 3, which
    // OpenCV 4.6 does not read).
    const std::string bmpFile = test::readFile(dir / "a.bmp");
    test::writeFile(dir / "short.bmp", bmpFile.substr(0, bmpFile.size() / 2));
    EXPECT_TRUE(contains(loadError(dir / "short.bmp"),
                         "short.bmp: damaged or truncated BMP: its pixel data holds "))
        << loadError(dir / "short.bmp");
    std::string rgbOrder = test::readFile(dir / "c.sr");
    rgbOrder.replace(20, 4, be32Of(3));
    test::writeFile(dir / "rgb-order.sr", rgbOrder);
    EXPECT_TRUE(contains(loadError(dir / "rgb-order.sr"), "a Sun raster file OpenCV cannot decode"))
        << loadError(dir / "rgb-order.sr");

    // A header whose size cannot be read as OpenCV would read it is refused, not passed on.
    test::writeFile(dir / "x-first.hdr",
                    replaced(test::readFile(dir / "e.hdr"), "-Y 64 +X 48", "+X 48 -Y 64"));
    EXPECT_TRUE(contains(loadError(dir / "x-first.hdr"),
                         "x-first.hdr: damaged Radiance HDR file (its header declares no size "
                         "HistLab can read)"));

    // A bare JPEG 2000 codestream: the SIZ marker's grid less its offset; 16-bit components.
    std::string siz = "\xff\x4f\xff\x51" + std::string("\x00\x2f\x00\x00", 4) + be32Of(40100) +
                      be32Of(40200) + be32Of(100) + be32Of(200) + std::string(16, '\0') +
                      std::string("\x00\x03", 2) + std::string("\x0f\x01\x01", 3) +
                      std::string("\x0f\x01\x01", 3) + std::string("\x0f\x01\x01", 3);
    const auto stream = io::openCvDeclaredSize(std::vector<unsigned char>(siz.begin(), siz.end()));
    ASSERT_TRUE(stream.has_value());
    EXPECT_EQ(stream->width, 40000u);
    EXPECT_EQ(stream->height, 40000u);
    EXPECT_EQ(stream->channels, 3);
    test::writeFile(dir / "stream.j2k", siz);
    EXPECT_TRUE(contains(loadError(dir / "stream.j2k"), "stream.j2k: " + huge));

    // Lossless and extended WebP headers, and a header cut short: left to OpenCV.
    std::string vp8l =
        "RIFF" + le32Of(20) + "WEBPVP8L" + le32Of(5) + "\x2f" + le32Of(16383u | 16383u << 14);
    const auto lossless =
        io::openCvDeclaredSize(std::vector<unsigned char>(vp8l.begin(), vp8l.end()));
    ASSERT_TRUE(lossless.has_value());
    EXPECT_EQ(lossless->width, 16384u);
    EXPECT_EQ(lossless->height, 16384u);
    std::string vp8x = "RIFF" + le32Of(22) + "WEBPVP8X" + le32Of(10) + std::string(4, '\0') +
                       std::string("\xff\x3f\x00\x01\x02\x00", 6);
    const auto extended =
        io::openCvDeclaredSize(std::vector<unsigned char>(vp8x.begin(), vp8x.end()));
    ASSERT_TRUE(extended.has_value());
    EXPECT_EQ(extended->width, 16384u);
    EXPECT_EQ(extended->height, 514u);
    EXPECT_FALSE(io::openCvDeclaredSize(std::vector<unsigned char>(vp8x.begin(), vp8x.end() - 3)));
}

} // namespace
} // namespace histlab
