// Image files through OpenCV (histlab_io): every refusal names its reason, channel order and
// depth survive a round trip, and the core's luma is OpenCV's cvtColor bit for bit. All files
// are made at test time in a temporary folder.
#include "unitsupport.h"

#include "io/imageio.h"
#include "pipelines/blur/blur.h"
#include "pipelines/histogram256/histogram256.h"
#include "pipelines/largebin/largebin.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

namespace histlab {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

/// loadImage's InputError message, or "" if it loaded.
std::string loadError(const fs::path& path) {
    try {
        loadImage(path.string());
        return {};
    } catch (const InputError& e) {
        return e.what();
    }
}

TEST(LoadImage, MissingFolderEmptyAndNotAnImage) {
    TempDir dir;
    const std::string missing = loadError(dir / "nope.png");
    EXPECT_NE(missing.find("no such file"), std::string::npos) << missing;
    EXPECT_NE(missing.find("nope.png"), std::string::npos) << missing;

    const std::string folder = loadError(dir.path());
    EXPECT_NE(folder.find("folder"), std::string::npos) << folder;

    test::writeFile(dir / "empty.png", "");
    const std::string empty = loadError(dir / "empty.png");
    EXPECT_NE(empty.find("empty"), std::string::npos) << empty;

    test::writeFile(dir / "notes.png", "this is a text file, not an image\n");
    const std::string text = loadError(dir / "notes.png");
    EXPECT_NE(text.find("not an image"), std::string::npos) << text;
}

// The quick screen used for drops and file lists: the same reasons, from the first bytes only,
// whatever the file's name says.
TEST(WhyNotAnImage, ScreensByFileSystemAndSignature) {
    TempDir dir;
    EXPECT_EQ(whyNotAnImage((dir / "nope.png").string()), "no such file");
    EXPECT_EQ(whyNotAnImage(dir.path().string()), "is a folder, not an image file");
    test::writeFile(dir / "empty.png", "");
    EXPECT_EQ(whyNotAnImage((dir / "empty.png").string()), "file is empty");
    test::writeFile(dir / "notes.png", "this is a text file, not an image\n");
    EXPECT_NE(whyNotAnImage((dir / "notes.png").string()).find("not an image HistLab can read"),
              std::string::npos);
    test::writeFile(dir / "report.pdf", "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n");
    EXPECT_NE(whyNotAnImage((dir / "report.pdf").string()), "");

    cv::Mat bgr(8, 8, CV_8UC3, cv::Scalar(1, 2, 3));
    for (const char* name : {"a.png", "b.jpg", "c.tif", "d.bmp", "e.ppm", "f.webp"}) {
        ASSERT_TRUE(cv::imwrite((dir / name).string(), bgr)) << name;
        EXPECT_EQ(whyNotAnImage((dir / name).string()), "") << name;
    }
    // A PNG named .txt is still a PNG: the signature decides, not the name.
    fs::copy_file(dir / "a.png", dir / "png-named.txt");
    EXPECT_EQ(whyNotAnImage((dir / "png-named.txt").string()), "");
}

// The formats handed to OpenCV go by their own signatures (an allowlist): each that OpenCV 4.6
// writes still screens as an image and opens with its size and depth.
TEST(LoadImage, EveryFormatHandedToOpenCvStillOpens) {
    TempDir dir;
    const cv::Mat bgr(64, 48, CV_8UC3, cv::Scalar(1, 2, 3));
    const cv::Mat floats(64, 48, CV_32FC3, cv::Scalar(0.25, 0.5, 2.0));
    struct Case {
        const char* name;
        const cv::Mat& mat;
        int depth;
    };
    for (const Case& c : {Case{"a.bmp", bgr, 8}, Case{"b.webp", bgr, 8}, Case{"c.pam", bgr, 8},
                          Case{"d.sr", bgr, 8}, Case{"e.jp2", bgr, 8}, Case{"f.pfm", floats, 32},
                          Case{"g.hdr", floats, 32}, Case{"h.exr", floats, 32}}) {
        const fs::path path = dir / c.name;
        bool written = false;
        try {
            written = cv::imwrite(path.string(), c.mat);
        } catch (const cv::Exception& e) {
            ADD_FAILURE() << c.name << ": OpenCV cannot write it here: " << e.what();
            continue;
        }
        ASSERT_TRUE(written) << c.name;
        EXPECT_EQ(whyNotAnImage(path.string()), "") << c.name;
        const HostImage image = loadImage(path.string());
        EXPECT_EQ(image.width, 48) << c.name;
        EXPECT_EQ(image.height, 64) << c.name;
        EXPECT_EQ(image.channels, 3) << c.name;
        EXPECT_EQ(image.depth, c.depth) << c.name;
    }
}

// DICOM is refused by its signature before any decoder sees it: OpenCV 4.6 hands it to GDCM,
// which aborted the process on a damaged file (found by fuzzing). Whatever the file's name.
TEST(LoadImage, DicomIsRefusedUnread) {
    TempDir dir;
    const std::string cut(128, '\0');
    for (const std::string& bytes : {cut + "DICM", cut + "DICM\x02\x00\x00\x00UL\x04\x00"}) {
        test::writeFile(dir / "scan.png", bytes);
        const std::string why = whyNotAnImage((dir / "scan.png").string());
        EXPECT_NE(why.find("a DICOM file, which HistLab does not read"), std::string::npos) << why;
        const std::string error = loadError(dir / "scan.png");
        EXPECT_NE(error.find("scan.png: a DICOM file"), std::string::npos) << error;
    }
    // The input the fuzzer found: a broken PPM header, "DICM" at byte 128.
    std::string found = "P6222" + std::string(24, '\xff') + "P4 3 \xa0\n" + '\0' +
                        std::string(85, '\xff') + "22\n7\n\x1a" + "DICM\n";
    ASSERT_EQ(found.size(), 133u);
    ASSERT_EQ(found.substr(128, 4), "DICM");
    test::writeFile(dir / "found.bin", found);
    EXPECT_NE(loadError(dir / "found.bin").find("DICOM"), std::string::npos);
    // OpenCV tries GDCM before its OpenEXR and JPEG 2000 readers: one of their signatures in
    // front does not make a file with "DICM" at byte 128 safe to hand over (those three
    // aborted through cv::imdecode); nor a PAM's, which OpenCV happens to try first.
    using namespace std::string_literals;
    for (const std::string& head : {"P7\nWIDTH 1\n"s, "\x76\x2f\x31\x01"s,
                                    "\x00\x00\x00\x0cjP  \r\n\x87\n"s, "\xff\x4f\xff\x51"s}) {
        const std::string bytes = head + std::string(128 - head.size(), ' ') + "DICM";
        test::writeFile(dir / "mixed.bin", bytes);
        EXPECT_NE(loadError(dir / "mixed.bin").find("a DICOM file"), std::string::npos)
            << head.size();
    }
}

// The window's previews and thumbnails: the aspect is kept, each output pixel is the average of
// its area, 16-bit stays 16-bit, a whole factor where it costs little of the size, and a small
// image comes back as it is.
TEST(DownscaleToFit, AreaAverageKeepsAspectAndDepth) {
    HostImage stripes; // columns alternate 0 and 200 in every channel: the average is 100
    stripes.width = 4000;
    stripes.height = 1000;
    stripes.channels = 3;
    stripes.data.resize(std::size_t(4000) * 1000 * 3);
    for (std::size_t i = 0; i < stripes.data.size(); ++i)
        stripes.data[i] = (i / 3) % 2 ? 200 : 0;
    const HostImage small = downscaleToFit(stripes, 100);
    EXPECT_EQ(small.width, 100);
    EXPECT_EQ(small.height, 25);
    EXPECT_EQ(small.channels, 3);
    EXPECT_EQ(small.depth, 8);
    ASSERT_EQ(small.data.size(), std::size_t(100) * 25 * 3);
    for (std::uint8_t v : small.data)
        EXPECT_EQ(v, 100);

    HostImage deep;
    deep.width = 30;
    deep.height = 300;
    deep.channels = 1;
    deep.depth = 16;
    deep.data.assign(std::size_t(30) * 300 * 2, 0x12);
    const HostImage deepSmall = downscaleToFit(deep, 50);
    EXPECT_EQ(deepSmall.width, 5);
    EXPECT_EQ(deepSmall.height, 50);
    EXPECT_EQ(deepSmall.depth, 16);
    for (std::uint8_t v : deepSmall.data)
        EXPECT_EQ(v, 0x12);

    // 6000 x 4000 to at most 2048: by 3 (the integer path), not 2.93 (a fractional one).
    HostImage photo;
    photo.width = 6000;
    photo.height = 4000;
    photo.channels = 3;
    photo.data.assign(std::size_t(6000) * 4000 * 3, 77);
    const HostImage byThree = downscaleToFit(photo, 2048);
    EXPECT_EQ(byThree.width, 2000);
    EXPECT_EQ(byThree.height, 1333);
    ASSERT_EQ(byThree.data.size(), std::size_t(2000) * 1333 * 3);
    EXPECT_EQ(byThree.data.front(), 77);
    EXPECT_EQ(byThree.data.back(), 77);
    // 3000 wide: a whole factor (2) would lose a quarter of the side; 2048 it is.
    photo.width = 3000;
    photo.height = 1000;
    photo.data.resize(std::size_t(3000) * 1000 * 3);
    EXPECT_EQ(downscaleToFit(photo, 2048).width, 2048);
    // A thin strip stays at least one pixel high.
    photo.width = 6000;
    photo.height = 2;
    photo.data.resize(std::size_t(6000) * 2 * 3);
    const HostImage strip = downscaleToFit(photo, 2048);
    EXPECT_GE(strip.height, 1);
    EXPECT_LE(strip.width, 2048);

    const HostImage same = downscaleToFit(deep, 300);
    EXPECT_EQ(same.width, 30);
    EXPECT_EQ(same.data, deep.data);
}

// The box blur's CPU reference against OpenCV's cv::blur on the same pixels: replicate and
// reflect101 are OpenCV's BORDER_REPLICATE and BORDER_REFLECT_101 (cv::blur's default).
TEST(BoxBlurReference, EqualsOpenCvBlur) {
    for (const auto& [w, h, channels] :
         {std::tuple{1, 1, 1}, std::tuple{2, 2, 1}, std::tuple{3, 3, 4}, std::tuple{17, 13, 1},
          std::tuple{97, 61, 4}, std::tuple{64, 5, 1}}) {
        cv::Mat src(h, w, CV_8UC(channels));
        cv::randu(src, 0, 256);
        HostImage img;
        img.width = w;
        img.height = h;
        img.channels = channels;
        img.data.assign(src.data, src.data + src.total() * src.elemSize());
        for (int radius : {1, 2, 5}) {
            for (const auto& [mode, border] :
                 {std::pair{BorderMode::Replicate, cv::BORDER_REPLICATE},
                  std::pair{BorderMode::Reflect101, cv::BORDER_REFLECT_101}}) {
                cv::Mat expected;
                cv::blur(src, expected, cv::Size(2 * radius + 1, 2 * radius + 1), cv::Point(-1, -1),
                         border);
                const HostImage mine = boxBlurReference(img, radius, mode);
                int differ = 0;
                for (std::size_t i = 0; i < mine.data.size(); ++i)
                    differ += mine.data[i] != expected.data[i];
                EXPECT_EQ(differ, 0) << w << "x" << h << "x" << channels << " R=" << radius << " "
                                     << borderModeName(mode);
            }
        }
    }
}

TEST(LoadImage, TruncatedJpegIsRefused) {
    TempDir dir;
    cv::Mat bgr(64, 80, CV_8UC3);
    cv::randu(bgr, 0, 256);
    const fs::path whole = dir / "whole.jpg";
    ASSERT_TRUE(cv::imwrite(whole.string(), bgr));
    const HostImage ok = loadImage(whole.string());
    EXPECT_EQ(ok.width, 80);
    EXPECT_EQ(ok.height, 64);
    EXPECT_EQ(ok.channels, 3);

    const std::string bytes = test::readFile(whole);
    test::writeFile(dir / "half.jpg", bytes.substr(0, bytes.size() / 2));
    const std::string half = loadError(dir / "half.jpg");
    EXPECT_NE(half.find("truncated"), std::string::npos) << half;
}

TEST(LoadImage, GrayRgbRgbaAnd16BitRoundTrips) {
    TempDir dir;
    // Gray 8-bit.
    cv::Mat gray(3, 5, CV_8UC1);
    for (int i = 0; i < 15; ++i)
        gray.data[i] = static_cast<std::uint8_t>(i * 17);
    ASSERT_TRUE(cv::imwrite((dir / "gray.png").string(), gray));
    HostImage g = loadImage((dir / "gray.png").string());
    EXPECT_EQ(g.channels, 1);
    EXPECT_EQ(g.depth, 8);
    EXPECT_EQ(g.width, 5);
    EXPECT_EQ(g.height, 3);
    EXPECT_EQ(g.data, std::vector<std::uint8_t>(gray.data, gray.data + 15));
    EXPECT_EQ(g.source, (dir / "gray.png").string());

    // RGB: OpenCV stores B, G, R; ours is R, G, B.
    cv::Mat bgr(2, 3, CV_8UC3, cv::Scalar(0, 0, 0));
    bgr.at<cv::Vec3b>(1, 2) = cv::Vec3b(10, 20, 30); // B=10 G=20 R=30
    ASSERT_TRUE(cv::imwrite((dir / "rgb.png").string(), bgr));
    HostImage rgb = loadImage((dir / "rgb.png").string());
    ASSERT_EQ(rgb.channels, 3);
    ASSERT_EQ(rgb.data.size(), 18u);
    const std::uint8_t* px = rgb.data.data() + (1 * 3 + 2) * 3;
    EXPECT_EQ(px[0], 30) << "R";
    EXPECT_EQ(px[1], 20) << "G";
    EXPECT_EQ(px[2], 10) << "B";

    // RGBA.
    cv::Mat bgra(1, 2, CV_8UC4, cv::Scalar(0, 0, 0, 255));
    bgra.at<cv::Vec4b>(0, 1) = cv::Vec4b(1, 2, 3, 4);
    ASSERT_TRUE(cv::imwrite((dir / "rgba.png").string(), bgra));
    HostImage rgba = loadImage((dir / "rgba.png").string());
    ASSERT_EQ(rgba.channels, 4);
    EXPECT_EQ(std::vector<std::uint8_t>(rgba.data.begin() + 4, rgba.data.end()),
              (std::vector<std::uint8_t>{3, 2, 1, 4}));

    // 16-bit gray keeps its depth and values (host byte order).
    cv::Mat deep(2, 2, CV_16UC1);
    const std::uint16_t values[] = {0, 0x1234, 0xABCD, 0xFFFF};
    std::memcpy(deep.data, values, sizeof values);
    ASSERT_TRUE(cv::imwrite((dir / "deep.png").string(), deep));
    HostImage d = loadImage((dir / "deep.png").string());
    EXPECT_EQ(d.depth, 16);
    EXPECT_EQ(d.channels, 1);
    ASSERT_EQ(d.data.size(), 8u);
    std::uint16_t back[4];
    std::memcpy(back, d.data.data(), 8);
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(back[i], values[i]) << i;
    EXPECT_NO_THROW(validateImage(d));
}

TEST(SaveImage, RoundTripThroughOurOwnWriter) {
    TempDir dir;
    for (int channels : {1, 3, 4}) {
        HostImage img = test::syntheticImage(SyntheticKind::Random, 7 * 5, channels, 7);
        const fs::path path = dir / ("out" + std::to_string(channels) + ".png");
        saveImage(img, path.string());
        const HostImage back = loadImage(path.string());
        EXPECT_EQ(back.channels, channels);
        EXPECT_EQ(back.data, img.data) << channels << " channels";
    }
    EXPECT_EQ(test::readFile(dir / "out3.png").substr(1, 3), "PNG");
    HostImage img = test::syntheticImage(SyntheticKind::Random, 4, 1);
    EXPECT_THROW(saveImage(img, (dir / "missing" / "x.png").string()), InputError);
}

// Guards a bug: lumaOf (core/image.h) uses OpenCV's 14-bit coefficients, but OpenCV 4.6's
// cvtColor computes 8-bit BGR2GRAY with 15-bit ones (9798, 19235, 3735): about 0.26 % of random
// pixels differ by one.
TEST(Luma, EqualsOpenCvCvtColorBitExactly) {
    for (int channels : {3, 4}) {
        const HostImage img =
            test::syntheticImage(SyntheticKind::Random, 257 * 263, channels, 257, 40 + channels);
        // OpenCV's BGR(A) layout from our R, G, B(, A) bytes.
        cv::Mat rgbMat(img.height, img.width, CV_8UC(channels),
                       const_cast<std::uint8_t*>(img.data.data()));
        cv::Mat bgr, gray;
        cv::cvtColor(rgbMat, bgr, channels == 3 ? cv::COLOR_RGB2BGR : cv::COLOR_RGBA2BGR);
        cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
        ASSERT_TRUE(gray.isContinuous());
        const std::vector<std::uint8_t> cv(gray.data, gray.data + gray.total());
        const std::vector<std::uint8_t> ours = lumaPlane(img);
        ASSERT_EQ(ours.size(), cv.size());
        std::size_t mismatches = 0, first = 0;
        for (std::size_t i = 0; i < cv.size(); ++i)
            if (ours[i] != cv[i] && mismatches++ == 0)
                first = i;
        EXPECT_EQ(mismatches, 0u) << "first at pixel " << first << ": ours " << int(ours[first])
                                  << ", OpenCV " << int(cv[first]);
    }
}

// Guards the same bug end to end: the device's gray histogram (luma_of in
// kernels/histogram256.cl) must be the histogram of OpenCV's gray image.
TEST(Luma, DeviceGrayHistogramOfALoadedImage) {
    TempDir dir;
    cv::Mat bgr(61, 67, CV_8UC3);
    cv::randu(bgr, 0, 256);
    ASSERT_TRUE(cv::imwrite((dir / "img.png").string(), bgr));
    cv::Mat gray;
    cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
    std::array<std::uint64_t, 256> expected{};
    for (std::size_t i = 0; i < gray.total(); ++i)
        ++expected[gray.data[i]];
    const HostImage img = loadImage((dir / "img.png").string());
    HistogramRunOptions o;
    o.channel = ChannelSelection::Gray;
    o.repeats = 1;
    o.verify = true;
    const HistogramRun run = runHistogram(test::sharedDevice(), img, {}, o);
    ASSERT_EQ(run.histograms.size(), 1u);
    EXPECT_EQ(run.histograms[0].name, "gray");
    EXPECT_EQ(run.histograms[0].counts, expected);
    EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
}

// 32-bit float files (TIFF) load as floats with every special value intact, and half floats
// widen; 64-bit floats are refused by name.
TEST(LoadImage, FloatTiffKeepsEveryValue) {
    TempDir dir;
    const float inf = std::numeric_limits<float>::infinity();
    const float values[] = {0.0f, 1.0f, NAN, inf, -inf, 1e-40f, -0.5f, 3.25f};
    cv::Mat m(2, 4, CV_32F);
    std::memcpy(m.data, values, sizeof values);
    ASSERT_TRUE(cv::imwrite((dir / "f.tiff").string(), m));
    const HostImage f = loadImage((dir / "f.tiff").string());
    EXPECT_EQ(f.depth, 32);
    EXPECT_TRUE(f.isFloat());
    EXPECT_EQ(f.channels, 1);
    ASSERT_EQ(f.data.size(), sizeof values);
    EXPECT_EQ(std::memcmp(f.data.data(), values, sizeof values), 0); // NaN bits too
    EXPECT_NO_THROW(validateImage(f));

    cv::Mat d;
    m.convertTo(d, CV_64F);
    ASSERT_TRUE(cv::imwrite((dir / "d.tiff").string(), d));
    const std::string why = loadError(dir / "d.tiff");
    EXPECT_NE(why.find("d.tiff"), std::string::npos) << why;
    EXPECT_NE(why.find("64-bit float are not supported"), std::string::npos) << why;
}

// The pages of a stack read one at a time from the file are the pages loadImage gives; a file
// cut inside a page is refused naming that page, after the pages before it were read.
TEST(ImagePages, StreamedPagesAreLoadImagesPages) {
    TempDir dir;
    std::vector<cv::Mat> pages;
    for (int p = 0; p < 3; ++p) {
        cv::Mat m(5 + p, 7, CV_16U);
        for (int y = 0; y < m.rows; ++y)
            for (int x = 0; x < m.cols; ++x)
                m.at<std::uint16_t>(y, x) = std::uint16_t(p * 1000 + y * 31 + x);
        pages.push_back(m);
    }
    const std::string path = (dir / "stack.tiff").string();
    ASSERT_TRUE(cv::imwritemulti(path, pages, {cv::IMWRITE_TIFF_COMPRESSION, 1}));
    const std::unique_ptr<ImagePageReader> reader = openImagePageFile(path);
    ASSERT_EQ(reader->pages(), 3);
    for (int p = 1; p <= 3; ++p) {
        const HostImage streamed = reader->read(p);
        const HostImage loaded = loadImage(path, p);
        EXPECT_EQ(streamed.source, path + ", page " + std::to_string(p) + " of 3");
        EXPECT_EQ(streamed.height, 4 + p);
        EXPECT_EQ(streamed.data, loaded.data);
        EXPECT_EQ(firstPixelDifference(streamed, loaded), "");
    }
    EXPECT_THROW(reader->read(4), UsageError);

    // Cut short (OpenCV writes each page's header after its pixels: the last header is cut):
    // refused naming the file, never a page made up.
    const std::uintmax_t size = std::filesystem::file_size(path);
    std::filesystem::resize_file(path, size - 20);
    try {
        openImagePageFile(path)->read(3);
        ADD_FAILURE() << "a cut page was read";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("stack.tiff"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
    }
}

// A float color image's luma is OpenCV's BGR2GRAY formula for floats as its scalar code writes
// it (B * 0.114f + G * 0.587f + R * 0.299f). OpenCV's SIMD path fuses the multiply-adds, so its
// own result depends on where a pixel falls in a row: it is matched to within its rounding.
// The channels are copied out exactly.
TEST(Luma, FloatLumaIsOpenCvsFormula) {
    cv::Mat bgr(37, 41, CV_32FC3);
    cv::randu(bgr, -2.0f, 3.0f);
    cv::Mat gray;
    cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
    HostImage img;
    img.width = bgr.cols;
    img.height = bgr.rows;
    img.channels = 3;
    img.depth = 32;
    img.source = "float test";
    cv::Mat rgb;
    cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    img.data.assign(rgb.data, rgb.data + rgb.total() * rgb.elemSize());
    const SamplePlane luma = imagePlane(img, "gray");
    ASSERT_EQ(luma.type, SampleType::F32);
    ASSERT_EQ(luma.count(), gray.total());
    for (std::size_t i = 0; i < luma.count(); ++i) {
        const float* p = bgr.ptr<float>(0) + 3 * i;
        const float scalar = p[0] * 0.114f + p[1] * 0.587f + p[2] * 0.299f;
        const float ours = float(sampleValue(luma, i)), cv = gray.ptr<float>(0)[i];
        ASSERT_EQ(ours, scalar) << i;
        // Rounding of the three products and two sums: a few steps of the terms' size.
        const float terms =
            std::fabs(p[0] * 0.114f) + std::fabs(p[1] * 0.587f) + std::fabs(p[2] * 0.299f);
        ASSERT_LE(std::fabs(ours - cv), 4 * std::numeric_limits<float>::epsilon() * terms) << i;
    }
    const SamplePlane g = imagePlane(img, "g");
    for (std::size_t i = 0; i < g.count(); ++i)
        ASSERT_EQ(sampleValue(g, i), double(rgb.ptr<float>(0)[3 * i + 1])) << i;
}

} // namespace
} // namespace histlab
