#include "services/bowopencv.h"

#include "io/imageio.h"
#include "report/files.h"
#include "runtime/errors.h"
#include "runtime/timing.h"

#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace histlab {

namespace {

using Clock = std::chrono::steady_clock;

/// The smallest side SIFT describes (measured with OpenCV 4.6: smaller ones throw).
constexpr int kSiftMinSide = 3;

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

/// XML: the depth of elements (comments, declarations and CDATA skipped, attribute values
/// read as quoted text).
std::size_t xmlNesting(std::string_view t, bool* unclosed = nullptr) {
    std::size_t depth = 0, deepest = 0;
    auto skipTo = [&](std::size_t from, std::string_view end) {
        const std::size_t at = t.find(end, from);
        if (at == std::string_view::npos && unclosed)
            *unclosed = true;
        return at == std::string_view::npos ? t.size() : at + end.size();
    };
    for (std::size_t i = 0; i < t.size();) {
        if (t[i] != '<') {
            ++i;
            continue;
        }
        const std::string_view rest = t.substr(i);
        if (rest.rfind("<!--", 0) == 0) {
            i = skipTo(i + 4, "-->");
        } else if (rest.rfind("<![CDATA[", 0) == 0) {
            i = skipTo(i + 9, "]]>");
        } else if (rest.rfind("<?", 0) == 0) {
            i = skipTo(i + 2, "?>");
        } else if (rest.rfind("<!", 0) == 0) {
            i = skipTo(i + 2, ">");
        } else if (rest.rfind("</", 0) == 0) {
            depth -= depth ? 1 : 0;
            i = skipTo(i + 2, ">");
        } else {
            std::size_t j = i + 1;
            for (char quote = 0; j < t.size(); ++j) {
                const char c = t[j];
                if (quote)
                    quote = c == quote ? 0 : quote;
                else if (c == '"' || c == '\'')
                    quote = c;
                else if (c == '>')
                    break;
            }
            if (j >= t.size() && unclosed)
                *unclosed = true;
            if (!(j < t.size() && t[j - 1] == '/')) // <a/> opens nothing
                deepest = std::max(deepest, ++depth);
            i = j + 1;
        }
    }
    return deepest;
}

/// YAML (block and flow styles) and JSON: brackets and braces outside quoted strings and
/// comments, on top of the block levels of the line they are on (each deeper indentation, and
/// each "- " that opens a sequence inside a sequence on one line).
std::size_t yamlNesting(std::string_view t) {
    std::size_t flow = 0, block = 0, deepest = 0;
    std::vector<std::size_t> indents;
    char quote = 0;
    for (std::size_t i = 0; i < t.size();) {
        const std::size_t eol = std::min(t.find('\n', i), t.size());
        std::size_t p = i;
        if (flow == 0 && quote == 0) {
            while (p < eol && t[p] == ' ')
                ++p;
            if (p < eol && t[p] != '#' && t[p] != '\r') {
                const std::size_t indent = p - i;
                while (!indents.empty() && indents.back() >= indent)
                    indents.pop_back();
                indents.push_back(indent);
                block = indents.size();
                for (; p < eol && t[p] == '-' &&
                       (p + 1 == eol || t[p + 1] == ' ' || t[p + 1] == '\r');) {
                    ++block;
                    for (++p; p < eol && t[p] == ' ';)
                        ++p;
                }
                deepest = std::max(deepest, block);
            }
        }
        for (; p < eol; ++p) {
            const char c = t[p];
            if (quote) {
                if (quote == '"' && c == '\\')
                    ++p;
                else if (c == quote)
                    quote = 0;
                continue;
            }
            if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '#' && (p == i || t[p - 1] == ' ' || t[p - 1] == '\t')) {
                break; // a comment to the end of the line
            } else if (c == '[' || c == '{') {
                deepest = std::max(deepest, block + ++flow);
            } else if (c == ']' || c == '}') {
                flow -= flow ? 1 : 0;
            }
        }
        i = eol + 1;
    }
    return deepest;
}

/// The matrix of node `name`, else the first matrix at the top of the text.
cv::Mat readMatrix(const std::string& text, const std::string& path, const char* name) {
    // OpenCV parses text held in memory up to its first NUL (strlen), then reads past the end
    // of what it measured (a fuzzer's SIGSEGV): FileStorage text never holds one.
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        throw InputError(path + ": a NUL byte at offset " + std::to_string(nul) +
                         ": not FileStorage text (YAML, XML or JSON)");
    if (const std::size_t depth = storageNesting(text); depth > kStorageMaxNesting)
        throw InputError(path + ": nested " + std::to_string(depth) + " levels deep (at most " +
                         std::to_string(kStorageMaxNesting) + ")");
    // OpenCV's YAML parser measures an empty key (a line that begins with ':') as a negative
    // length and throws std::length_error where nothing can catch it (std::terminate): found by
    // fuzzing, and refused here in its words.
    // Nor does it end (an endless loop, also found by fuzzing) on a document whose top level
    // begins indented and comes back to the first column: the top level must begin there, as
    // every file OpenCV writes does.
    if (const std::size_t first = text.find_first_not_of(" \t\r\n");
        first != std::string::npos && text[first] != '<' && text[first] != '{') {
        bool content = false;
        for (std::size_t at = 0, line = 1; at < text.size(); ++line) {
            const std::size_t eol = std::min(text.find('\n', at), text.size());
            const std::size_t key = text.find_first_not_of(" \t", at);
            if (key < eol && text[key] == ':')
                throw InputError(path + ": line " + std::to_string(line) +
                                 ": a key may not be empty");
            const std::string_view head(text.data() + std::min(key, eol), eol - std::min(key, eol));
            // A document marker stands alone on its line, as OpenCV writes it: after "---",
            // OpenCV parses the rest of the line as the document, and a block sequence begun
            // there ("--- - 0", "-----x") followed by a line in the first column never ends
            // (found by fuzzing).
            if (head.rfind("---", 0) == 0) {
                const std::size_t after = head.find_first_not_of(" \t\r", 3);
                if (after != std::string_view::npos && head[after] != '#')
                    throw InputError(path + ": line " + std::to_string(line) +
                                     ": text after the document marker '---' (it stands "
                                     "alone on its line)");
            }
            const bool skipped = head.empty() || head[0] == '#' || head[0] == '%' ||
                                 head[0] == '\r' || head.rfind("---", 0) == 0 ||
                                 head.rfind("...", 0) == 0;
            if (!content && !skipped) {
                content = true;
                if (key != at)
                    throw InputError(path + ": line " + std::to_string(line) +
                                     ": the top level is indented (it begins in the first "
                                     "column)");
            }
            at = eol + 1;
        }
    }
    // Its XML parser dereferences a null pointer on a tag that the text ends inside ("<?xml N=",
    // "<v a="): found by fuzzing, the old build crashed on it too.
    if (const std::size_t first = text.find_first_not_of(" \t\r\n");
        first != std::string::npos && text[first] == '<') {
        bool unclosed = false;
        xmlNesting(text, &unclosed);
        if (unclosed)
            throw InputError(path + ": the text ends inside a tag (no closing '>')");
    }
    // OpenCV allocates the size a matrix declares before it counts the values it holds: a
    // "cols" of 2147483647 over four values reserved 16 GiB. The declared size is checked first.
    auto checkDeclared = [&path](const cv::FileNode& node) {
        const cv::FileNode data = node["data"];
        if (node["rows"].empty() && node["cols"].empty() && node["sizes"].empty())
            return; // no size declared: OpenCV reads no matrix from it
        std::uint64_t declared = 1;
        auto times = [&](const cv::FileNode& n) {
            if (!n.isInt() || int(n) < 0)
                throw InputError(path + ": a matrix whose size is not whole numbers");
            declared = std::min<std::uint64_t>(declared * std::uint64_t(int(n)), 1ull << 40);
        };
        if (const cv::FileNode sizes = node["sizes"]; !sizes.empty()) {
            for (const cv::FileNode n : sizes)
                times(n);
        } else {
            times(node["rows"]);
            times(node["cols"]);
        }
        if (declared > data.size())
            throw InputError(path + ": a matrix that declares " + std::to_string(declared) +
                             " values and holds " + std::to_string(data.size()));
    };
    cv::Mat m;
    try {
        cv::FileStorage fs(text, cv::FileStorage::READ | cv::FileStorage::MEMORY);
        if (!fs.isOpened())
            throw InputError(path + ": not an OpenCV FileStorage file (YAML, XML or JSON)");
        cv::FileNode node = fs[name];
        if (!node.empty() && node.isMap()) {
            checkDeclared(node);
            node >> m;
        }
        if (m.empty())
            for (cv::FileNode child : fs.root()) {
                if (!child.isMap())
                    continue;
                checkDeclared(child);
                child >> m;
                if (!m.empty())
                    break;
            }
    } catch (const cv::Exception& e) {
        throw InputError(path + ": not a readable FileStorage file (" + e.err + ")");
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
    // SIFT's pyramid needs octaves: on a smaller image OpenCV sizes a vector by a negative
    // count and throws std::length_error ("vector::_M_default_append"), no reason a person reads.
    const int least = options.detector == BowDetector::Sift ? kSiftMinSide : 1;
    if (std::min(small.width, small.height) < least)
        throw InputError(path + ": " + std::to_string(small.width) + " x " +
                         std::to_string(small.height) + " is too small for " +
                         bowDetectorName(options.detector) + " (at least " + std::to_string(least) +
                         " x " + std::to_string(least) + ")");
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
    } catch (const std::length_error& e) {
        throw InputError(path + ": " + bowDetectorName(options.detector) + " failed (" +
                         std::to_string(small.width) + " x " + std::to_string(small.height) +
                         " is too small for it)");
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

/// The rows of the matrix `name` (else the first), at most kBowMaxDim finite floats each.
template <typename Rows>
Rows readRows(const std::string& text, const std::string& path, const char* name) {
    const cv::Mat m = readMatrix(text, path, name);
    if (m.rows == 0 || m.cols == 0)
        throw InputError(path + ": the matrix '" + name + "' is empty");
    if (std::size_t(m.cols) > kBowMaxDim)
        throw InputError(path + ": rows of " + std::to_string(m.cols) + " floats: at most " +
                         std::to_string(kBowMaxDim));
    Rows r;
    r.dim = std::size_t(m.cols);
    r.values = valuesOf(m);
    // NaN is nearer to nothing and Inf to everything: one such value decides every assignment.
    for (std::size_t i = 0; i < r.values.size(); ++i)
        if (!std::isfinite(r.values[i]))
            throw InputError(path + ": row " + std::to_string(i / r.dim + 1) + ", column " +
                             std::to_string(i % r.dim + 1) + ": " +
                             (std::isnan(r.values[i]) ? "nan" : "a value beyond a float") +
                             " is not a finite number");
    return r;
}

std::string readStorageText(const std::string& path) {
    return readTextFile(path, kStorageFileLimit, "a codebook or descriptor file");
}

Descriptors readDescriptors(const std::string& path) {
    return descriptorsFromStorage(readStorageText(path), path);
}

Codebook readCodebook(const std::string& path) {
    return codebookFromStorage(readStorageText(path), path);
}

std::string codebookText(const Codebook& codebook, const std::string& path) {
    const std::string e = lowercaseExtension(path);
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

std::size_t storageNesting(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    return i < text.size() && text[i] == '<' ? xmlNesting(text) : yamlNesting(text);
}

Descriptors descriptorsFromStorage(const std::string& text, const std::string& path) {
    Descriptors d = readRows<Descriptors>(text, path, "descriptors");
    d.count = d.values.size() / d.dim;
    return d;
}

Codebook codebookFromStorage(const std::string& text, const std::string& path) {
    Codebook c = readRows<Codebook>(text, path, "vocabulary");
    c.k = c.values.size() / c.dim;
    return c;
}

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
