// Writes the image fixtures of the histlab-cli end-to-end tests (tests/cli/). The content is
// computed from pixel coordinates only, so running it again gives the same pixels (the encoded
// bytes may differ with another libpng/libjpeg version; the tests only rely on sizes, depths
// and channel counts). Build and run from the repository root:
//
//   g++ -std=c++20 tests/data/make_fixtures.cpp $(pkg-config --cflags --libs opencv4) -o /tmp/mf
//   /tmp/mf tests/data
//
// Licence of the generated files: CC0 (see tests/data/README.md).
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// A small integer hash: "noisy" but reproducible pixel values.
unsigned mix(unsigned x, unsigned y, unsigned c) {
    unsigned h = x * 73856093u ^ y * 19349663u ^ c * 83492791u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    return h ^ (h >> 15);
}

// Gradient plus noise, so every histogram has many occupied bins.
template <typename T>
cv::Mat pattern(int width, int height, int channels, int depth, unsigned maxValue) {
    cv::Mat m(height, width, CV_MAKETYPE(depth, channels));
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < channels; ++c) {
                const unsigned ramp =
                    unsigned((x + y * 3 + c * 40) * maxValue / (width + height * 3));
                const unsigned noise = mix(x, y, c) % (maxValue / 8 + 1);
                m.ptr<T>(y)[x * channels + c] = T((ramp + noise) % (maxValue + 1));
            }
    return m;
}

void write(const fs::path& path, const cv::Mat& image, const std::vector<int>& params = {}) {
    if (!cv::imwrite(path.string(), image, params)) {
        std::cerr << "make_fixtures: cannot write " << path << '\n';
        std::exit(1);
    }
}

std::vector<char> readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& path, const char* data, std::size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data, std::streamsize(size));
    if (!out) {
        std::cerr << "make_fixtures: cannot write " << path << '\n';
        std::exit(1);
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: make_fixtures OUTPUT_DIR\n";
        return 2;
    }
    const fs::path dir = argv[1];
    const std::vector<int> png = {cv::IMWRITE_PNG_COMPRESSION, 9};

    write(dir / "gray8.png", pattern<std::uint8_t>(37, 23, 1, CV_8U, 255), png);
    write(dir / "rgb8.png", pattern<std::uint8_t>(41, 29, 3, CV_8U, 255), png);
    write(dir / "rgba8.png", pattern<std::uint8_t>(19, 13, 4, CV_8U, 255), png);
    write(dir / "gray16.png", pattern<std::uint16_t>(31, 17, 1, CV_16U, 65535), png);
    write(dir / "rgb.jpg", pattern<std::uint8_t>(48, 32, 3, CV_8U, 255),
          {cv::IMWRITE_JPEG_QUALITY, 85});

    // The first half of rgb.jpg: libjpeg still decodes it (padding the missing rows and
    // warning that the file ends early); the loader refuses it on that warning.
    const auto jpeg = readAll(dir / "rgb.jpg");
    writeBytes(dir / "truncated.jpg", jpeg.data(), jpeg.size() / 2);

    // rgb.jpg with an EXIF segment saying "turn right to view" (Orientation 6): a viewer shows
    // it 32 x 48. The segment is APP1 "Exif" holding a little-endian TIFF header and one IFD
    // with the one tag 0x0112 (SHORT, 1 value: 6).
    {
        const unsigned char exif[] = {0xFF, 0xE1, 0, 34, 'E', 'x', 'i', 'f', 0,    0,    'I', 'I',
                                      42,   0,    8, 0,  0,   0,   1,   0,   0x12, 0x01, 3,   0,
                                      1,    0,    0, 0,  6,   0,   0,   0,   0,    0,    0,   0};
        std::vector<char> rotated(jpeg.begin(), jpeg.begin() + 2);
        rotated.insert(rotated.end(), exif, exif + sizeof exif);
        rotated.insert(rotated.end(), jpeg.begin() + 2, jpeg.end());
        writeBytes(dir / "exif6.jpg", rotated.data(), rotated.size());
    }

    // Three 8 x 6 gray pages, each a different shade band: page p holds the values 60 p ...
    // 60 p + 47 once each.
    {
        std::vector<cv::Mat> pages;
        for (int p = 0; p < 3; ++p) {
            cv::Mat m(6, 8, CV_8U);
            for (int i = 0; i < 48; ++i)
                m.data[i] = static_cast<unsigned char>(60 * p + i);
            pages.push_back(m);
        }
        if (!cv::imwritemulti((dir / "pages3.tiff").string(), pages)) {
            std::cerr << "make_fixtures: cannot write pages3.tiff\n";
            return 1;
        }
    }

    // A TIFF whose header lies: 30,000 x 30,000 gray pixels in one uncompressed strip that
    // holds 16 bytes (the file is 126 bytes). Tags: width, length, bits, compression,
    // photometric, strip offset (126 - 16 = 110), rows per strip, strip byte count.
    {
        std::vector<char> t = {'I', 'I', 42, 0, 8, 0, 0, 0, 8, 0};
        const unsigned tags[8][3] = {{256, 4, 30000}, {257, 4, 30000}, {258, 3, 8},
                                     {259, 3, 1},     {262, 3, 1},     {273, 4, 110},
                                     {278, 4, 30000}, {279, 4, 16}};
        for (const auto& [tag, type, value] : tags) {
            const unsigned fields[] = {tag & 0xFF, tag >> 8, type, 0, 1, 0, 0, 0};
            t.insert(t.end(), fields, fields + 8);
            for (int b = 0; b < 4; ++b)
                t.push_back(static_cast<char>((value >> (8 * b)) & 0xFF));
        }
        t.insert(t.end(), 4, 0);     // no next IFD
        t.insert(t.end(), 16, 0x7F); // the one row fragment there is
        writeBytes(dir / "lying.tiff", t.data(), t.size());
    }

    // 32-bit float pixels: OpenCV reads a .pfm as CV_32F.
    write(dir / "float32.pfm", pattern<float>(9, 7, 3, CV_32F, 255) / 255.0);

    // A float TIFF of the values a float histogram must get right: 0 and 1 (the ends of the
    // range), values on NumPy's float32 edges of 4 bins, NaN, +-inf, a denormal, a negative.
    {
        const float inf = std::numeric_limits<float>::infinity();
        const float values[] = {0.0f, 0.25f,  0.5f,  0.75f, 1.0f,  0.1f,  0.9f,   NAN,  inf,
                                -inf, 1e-40f, -0.5f, 0.33f, 0.66f, 0.99f, 0.125f, 0.0f, 1.0f};
        cv::Mat m(3, 6, CV_32F);
        std::memcpy(m.data, values, sizeof values);
        write(dir / "float_edges.tiff", m);
    }
    // 64-bit float pixels: OpenCV reads them (CV_64F), a depth histlab does not take.
    {
        cv::Mat m;
        pattern<float>(5, 4, 1, CV_32F, 255).convertTo(m, CV_64F, 1.0 / 255.0);
        write(dir / "float64.tiff", m);
    }

    // A DICOM file cut after its preamble and "DICM": OpenCV 4.6 hands it to GDCM, whose
    // reader aborts the whole process on it (an assertion), so HistLab refuses DICOM unread.
    {
        std::vector<char> d(128, 0);
        d.insert(d.end(), {'D', 'I', 'C', 'M'});
        writeBytes(dir / "truncated.dcm", d.data(), d.size());
    }

    writeBytes(dir / "empty.png", "", 0);
    const std::string text = "This is not a PNG file, just text with a .png name.\n";
    writeBytes(dir / "not_an_image.png", text.data(), text.size());
    return 0;
}
