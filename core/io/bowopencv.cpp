#include "io/bowopencv.h"

#include "io/imageio.h"
#include "report/files.h"
#include "runtime/errors.h"
#include "runtime/timing.h"

#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace histlab {

namespace {

using Clock = std::chrono::steady_clock;

/// A K x D (or count x D) CV_32F matrix over a flat row-major vector (no copy).
cv::Mat matOf(const std::vector<float>& values, std::size_t rows, std::size_t cols) {
    return cv::Mat(int(rows), int(cols), CV_32F, const_cast<float*>(values.data()));
}

/// The rows of a CV_32F (or convertible) matrix as a flat vector.
std::vector<float> valuesOf(const cv::Mat& m) {
    cv::Mat f;
    m.convertTo(f, CV_32F);
    std::vector<float> out(std::size_t(f.rows) * std::size_t(f.cols));
    for (int r = 0; r < f.rows; ++r)
        std::copy_n(f.ptr<float>(r), f.cols, out.begin() + std::ptrdiff_t(r) * f.cols);
    return out;
}

std::string extensionOf(const std::string& path) {
    std::string e = std::filesystem::path(path).extension().string();
    std::transform(e.begin(), e.end(), e.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return e;
}

/// A FileStorage file opened for reading; InputError naming it.
cv::FileStorage openStorage(const std::string& path) {
    if (const std::string why = whyNotARegularFile(path); !why.empty())
        throw InputError(path + ": " + why);
    try {
        cv::FileStorage fs(path, cv::FileStorage::READ);
        if (!fs.isOpened())
            throw InputError(path + ": not an OpenCV FileStorage file (YAML, XML or JSON)");
        return fs;
    } catch (const cv::Exception& e) {
        throw InputError(path + ": not a readable FileStorage file (" + e.err + ")");
    }
}

/// The matrix of node `name`, else the first matrix at the top of the file.
cv::Mat readMatrix(const std::string& path, const char* name) {
    cv::FileStorage fs = openStorage(path);
    cv::Mat m;
    try {
        cv::FileNode node = fs[name];
        if (!node.empty() && node.isMap())
            node >> m;
        if (m.empty())
            for (cv::FileNode child : fs.root()) {
                if (!child.isMap())
                    continue;
                child >> m;
                if (!m.empty())
                    break;
            }
    } catch (const cv::Exception& e) {
        throw InputError(path + ": its matrix cannot be read (" + e.err + ")");
    }
    if (m.empty())
        throw InputError(path + std::string(": no matrix in the file (looked for '") + name +
                         "', then any)");
    if (m.channels() != 1 || m.dims != 2)
        throw InputError(path + ": the matrix has " + std::to_string(m.channels()) +
                         " channels; a descriptor matrix has one (rows x dimensions)");
    return m;
}

ImageFeatures describe(const std::string& path, const DescribeOptions& options) {
    ImageFeatures out;
    const auto start = Clock::now();
    const HostImage image = loadImage(path);
    out.width = image.width;
    out.height = image.height;
    const HostImage small = options.maxSide > 0 ? downscaleToFit(image, options.maxSide) : image;
    const HostImage eight = toDisplay8(small);
    std::vector<std::uint8_t> luma = lumaPlane(eight);
    out.decodeMs = msSince(start);
    const auto describeStart = Clock::now();
    const cv::Mat gray(small.height, small.width, CV_8UC1, luma.data());
    cv::Ptr<cv::Feature2D> detector;
    if (options.detector == BowDetector::Sift)
        detector = cv::SIFT::create(int(options.maxFeatures));
    else
        detector = cv::KAZE::create();
    std::vector<cv::KeyPoint> keypoints;
    cv::Mat descriptors;
    try {
        detector->detect(gray, keypoints);
        if (options.maxFeatures && keypoints.size() > options.maxFeatures)
            cv::KeyPointsFilter::retainBest(keypoints, int(options.maxFeatures));
        detector->compute(gray, keypoints, descriptors);
    } catch (const cv::Exception& e) {
        throw InputError(path + ": " + bowDetectorName(options.detector) + " failed (" + e.err +
                         ")");
    }
    out.describeMs = msSince(describeStart);
    out.descriptors.count = std::size_t(descriptors.rows);
    out.descriptors.dim = descriptors.empty() ? (options.detector == BowDetector::Sift ? 128 : 64)
                                              : std::size_t(descriptors.cols);
    out.descriptors.values = valuesOf(descriptors);
    const float sx = float(image.width) / float(std::max(1, small.width)),
                sy = float(image.height) / float(std::max(1, small.height));
    for (const cv::KeyPoint& k : keypoints)
        out.keypoints.push_back({k.pt.x * sx, k.pt.y * sy, k.size * sx, k.angle});
    return out;
}

/// The rows of the matrix `name` (else the first), at most kBowMaxDim floats each.
template <typename Rows> Rows readRows(const std::string& path, const char* name) {
    const cv::Mat m = readMatrix(path, name);
    if (m.rows == 0 || m.cols == 0)
        throw InputError(path + ": the matrix '" + name + "' is empty");
    if (std::size_t(m.cols) > kBowMaxDim)
        throw InputError(path + ": rows of " + std::to_string(m.cols) + " floats: at most " +
                         std::to_string(kBowMaxDim));
    Rows r;
    r.dim = std::size_t(m.cols);
    r.values = valuesOf(m);
    return r;
}

Descriptors readDescriptors(const std::string& path) {
    Descriptors d = readRows<Descriptors>(path, "descriptors");
    d.count = d.values.size() / d.dim;
    return d;
}

Codebook readCodebook(const std::string& path) {
    Codebook c = readRows<Codebook>(path, "vocabulary");
    c.k = c.values.size() / c.dim;
    return c;
}

std::string codebookText(const Codebook& codebook, const std::string& path) {
    const std::string e = extensionOf(path);
    const char* format = e == ".xml" ? ".xml" : e == ".json" ? ".json" : ".yml";
    cv::FileStorage fs(format, cv::FileStorage::WRITE | cv::FileStorage::MEMORY);
    fs << "vocabulary" << matOf(codebook.values, codebook.k, codebook.dim);
    return fs.releaseAndGetString();
}

std::vector<std::uint32_t> bfMatch(const Descriptors& d, const Codebook& c) {
    cv::BFMatcher matcher(cv::NORM_L2);
    std::vector<cv::DMatch> matches;
    matcher.match(matOf(d.values, d.count, d.dim), matOf(c.values, c.k, c.dim), matches);
    std::vector<std::uint32_t> labels(d.count, 0);
    for (const cv::DMatch& m : matches)
        labels[std::size_t(m.queryIdx)] = std::uint32_t(m.trainIdx);
    return labels;
}

Codebook cvKmeans(const Descriptors& d, std::size_t k, int iterations, std::uint64_t seed,
                  double& compactness) {
    cv::theRNG().state = seed;
    cv::Mat labels, centres;
    compactness = cv::kmeans(matOf(d.values, d.count, d.dim), int(k), labels,
                             cv::TermCriteria(cv::TermCriteria::MAX_ITER, iterations, 0), 1,
                             cv::KMEANS_PP_CENTERS, centres);
    Codebook c;
    c.k = k;
    c.dim = d.dim;
    c.values = valuesOf(centres);
    return c;
}

} // namespace

BowOpenCv bowThroughOpenCv() {
    BowOpenCv f;
    f.describe = describe;
    f.readDescriptors = readDescriptors;
    f.readCodebook = readCodebook;
    f.codebookText = codebookText;
    f.bfMatch = bfMatch;
    f.kmeans = cvKmeans;
    return f;
}

} // namespace histlab
