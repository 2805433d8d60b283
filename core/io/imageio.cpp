#include "io/imageio.h"

#include "report/files.h"
#include "report/report.h"
#include "runtime/errors.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace histlab {

namespace fs = std::filesystem;

namespace {

bool isJpeg(const std::vector<unsigned char>& b) {
    return b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF;
}

// libjpeg decodes a truncated file by padding it and only prints a warning, so OpenCV returns
// a full-size image: the end-of-image marker is what tells a complete file.
bool jpegHasEnd(const std::vector<unsigned char>& b) {
    std::size_t n = b.size();
    while (n > 2 && (b[n - 1] == 0x00 || b[n - 1] == 0x0A || b[n - 1] == 0x0D))
        --n; // some writers pad after the marker
    return n >= 4 && b[n - 2] == 0xFF && b[n - 1] == 0xD9;
}

/// The OpenCV type of an image's pixels.
int cvTypeOf(const HostImage& image) {
    const int depth = image.depth == 32 ? CV_32F : image.depth == 16 ? CV_16U : CV_8U;
    return CV_MAKETYPE(depth, image.channels);
}

} // namespace

std::string whyNotAnImage(const std::string& path) {
    // A FIFO, socket or device would block the read (or never end): refused by its type,
    // before anything opens it.
    if (std::string why = whyNotARegularFile(path, "an image file"); !why.empty())
        return why;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return "cannot be opened (permission?)";
    if (in.peek() == std::ifstream::traits_type::eof())
        return "file is empty";
    in.close();
    bool known = false;
    try {
        known = cv::haveImageReader(path); // reads the signature, decodes nothing
    } catch (const cv::Exception&) {
        known = false;
    }
    if (!known)
        return "not an image OpenCV can read (no known image signature)";
    return {};
}

HostImage loadImage(const std::string& path) {
    if (const std::string why = whyNotARegularFile(path, "an image file"); !why.empty())
        throw InputError(path + ": " + why);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path + ": cannot be opened (permission?)");
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    if (bytes.empty())
        throw InputError(path + ": file is empty");
    if (isJpeg(bytes) && !jpegHasEnd(bytes))
        throw InputError(path + ": truncated JPEG (the end-of-image marker is missing)");
    cv::Mat mat;
    try {
        mat = cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception& e) {
        throw InputError(path + ": cannot be decoded (" + e.err + ")");
    }
    if (mat.empty())
        throw InputError(path + ": not an image OpenCV can read (unsupported format or damaged "
                                "file)");
    if (mat.depth() == CV_16F) // half floats (OpenEXR) widen exactly
        mat.convertTo(mat, CV_32F);
    const int depth = mat.depth();
    if (depth != CV_8U && depth != CV_16U && depth != CV_32F)
        throw InputError(path + ": channels of type " + cv::typeToString(mat.type()) +
                         " are not supported (8- or 16-bit unsigned, or 32-bit float)");
    cv::Mat rgb;
    switch (mat.channels()) {
    case 1:
        rgb = mat;
        break;
    case 3:
        cv::cvtColor(mat, rgb, cv::COLOR_BGR2RGB);
        break;
    case 4:
        cv::cvtColor(mat, rgb, cv::COLOR_BGRA2RGBA);
        break;
    default:
        throw InputError(path + ": " + std::to_string(mat.channels()) +
                         " channels are not supported (1, 3 or 4)");
    }
    HostImage img;
    img.width = rgb.cols;
    img.height = rgb.rows;
    img.channels = rgb.channels();
    img.depth = depth == CV_32F ? 32 : depth == CV_16U ? 16 : 8;
    img.source = path;
    const std::size_t rowBytes = std::size_t(img.width) * img.channels * (img.depth / 8);
    img.data.resize(rowBytes * img.height);
    for (int y = 0; y < img.height; ++y)
        std::memcpy(img.data.data() + rowBytes * y, rgb.ptr(y), rowBytes);
    return img;
}

HostImage downscaleToFit(const HostImage& image, int maxSide) {
    validateImage(image);
    const int longer = std::max(image.width, image.height);
    if (longer <= maxSide || maxSide < 1)
        return image;
    const double f = double(maxSide) / longer;
    HostImage out;
    out.width = std::max(1, int(std::lround(image.width * f)));
    out.height = std::max(1, int(std::lround(image.height * f)));
    out.channels = image.channels;
    out.depth = image.depth;
    out.source = image.source;
    const int type = cvTypeOf(image);
    out.data.resize(std::size_t(out.width) * out.height * image.channels * (image.depth / 8));
    const cv::Mat src(image.height, image.width, type,
                      const_cast<std::uint8_t*>(image.data.data()));
    cv::Mat dst(out.height, out.width, type, out.data.data());
    cv::resize(src, dst, dst.size(), 0, 0, cv::INTER_AREA);
    return out;
}

void opencvBoxBlur(const HostImage& image, int radius, BorderMode mode, HostImage& out) {
    validateImage(image);
    if (mode == BorderMode::Interior)
        throw UsageError("--compare-opencv", "OpenCV has no interior-only border (use replicate "
                                             "or reflect101)");
    if (out.data.size() != image.data.size())
        out = image;
    if (image.empty())
        return;
    const int type = cvTypeOf(image);
    const cv::Mat src(image.height, image.width, type,
                      const_cast<std::uint8_t*>(image.data.data()));
    cv::Mat dst(image.height, image.width, type, out.data.data());
    cv::blur(src, dst, cv::Size(2 * radius + 1, 2 * radius + 1), cv::Point(-1, -1),
             mode == BorderMode::Replicate ? cv::BORDER_REPLICATE : cv::BORDER_REFLECT_101);
}

void saveImage(const HostImage& image, const std::string& path) {
    validateImage(image);
    const int type = cvTypeOf(image);
    cv::Mat rgb(image.height, image.width, type, const_cast<std::uint8_t*>(image.data.data()));
    cv::Mat bgr;
    if (image.channels == 3)
        cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
    else if (image.channels == 4)
        cv::cvtColor(rgb, bgr, cv::COLOR_RGBA2BGRA);
    else
        bgr = rgb;
    std::vector<unsigned char> encoded;
    const std::string ext = fs::path(path).extension().string();
    try {
        if (!cv::imencode(ext.empty() ? ".png" : ext, bgr, encoded))
            throw InputError(path + ": OpenCV cannot encode '" + ext + "'");
    } catch (const cv::Exception& e) {
        throw InputError(path + ": cannot encode (" + e.err + ")");
    }
    writeFileAtomically(path, std::string(encoded.begin(), encoded.end()));
}

} // namespace histlab
