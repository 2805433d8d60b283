#pragma once
// A collection of images as bags of visual words: the folder's files (sorted, optionally one
// shard of them), each image's local features (described through OpenCV, which the front end
// provides: the core has no image decoder), the histogram of its words, and what makes the
// histograms worth having: weights (L1 as OpenCV's BOWImgDescriptorExtractor, L2, tf-idf with
// the inverse document frequency over the whole collection), cosine similarity and the nearest
// images of each. The table of raw counts is the CSV that shards write and `bow merge` joins.
#include "pipelines/bow/bow.h"

#include "runtime/errors.h"

#include <algorithm>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace histlab {

enum class BowDetector { Kaze, Sift };
/// "kaze" (64 floats, the nearest to SURF in OpenCV's main modules) or "sift" (128).
const char* bowDetectorName(BowDetector detector);
/// UsageError("--detector") for any other name.
BowDetector parseBowDetector(const std::string& name);
/// The floats of one descriptor: 64 for KAZE (cv::KAZE::create()'s default, not extended), 128
/// for SIFT (OpenCV's documentation of both).
std::size_t bowDetectorDimensions(BowDetector detector);

/// A keypoint as OpenCV describes it: centre, diameter, angle in degrees (-1: none).
struct BowKeypoint {
    float x = 0, y = 0, size = 0, angle = -1;
};

/// One image's local features.
struct ImageFeatures {
    Descriptors descriptors;
    std::vector<BowKeypoint> keypoints; ///< in the image's own pixel coordinates
    int width = 0, height = 0;          ///< of the image as decoded
    double decodeMs = 0, describeMs = 0;
};

/// How images are described: the detector, the longer side images are reduced to first (0:
/// full size) and the strongest features kept (0: all).
struct DescribeOptions {
    BowDetector detector = BowDetector::Kaze;
    int maxSide = 1024;
    std::size_t maxFeatures = 0;
};

/// What only OpenCV does, given by the front end (setBowOpenCv); each member throws InputError
/// naming the file and the reason.
struct BowOpenCv {
    /// Decodes an image file and describes it.
    std::function<ImageFeatures(const std::string& path, const DescribeOptions& options)> describe;
    /// Descriptors from an OpenCV FileStorage file (.yml, .yaml, .xml, .json): the matrix named
    /// "descriptors", else the first matrix of the file.
    std::function<Descriptors(const std::string& path)> readDescriptors;
    /// A codebook from FileStorage: the matrix "vocabulary" (K x D, CV_32F), as
    /// BOWImgDescriptorExtractor::setVocabulary takes it.
    std::function<Codebook(const std::string& path)> readCodebook;
    /// A codebook as FileStorage text, in the format of `path`'s extension (YAML by default).
    std::function<std::string(const Codebook& codebook, const std::string& path)> codebookText;
    /// The peers: cv::BFMatcher(NORM_L2)::match's train index for every descriptor, and
    /// cv::kmeans (k-means++ seeding, `iterations` at most) with its compactness.
    std::function<std::vector<std::uint32_t>(const Descriptors&, const Codebook&)> bfMatch;
    std::function<Codebook(const Descriptors&, std::size_t k, int iterations, std::uint64_t seed,
                           double& compactness)>
        kmeans;
};
void setBowOpenCv(BowOpenCv functions);
const BowOpenCv& bowOpenCv();
/// InputError("<what>: this build has no OpenCV ...") where the front end gave none.
void requireBowOpenCv(const std::string& what);

/// Descriptors from a file: CSV (one descriptor a line, a header line of names allowed) in the
/// core, FileStorage through OpenCV. InputError naming the file for ragged rows, a value that is
/// not a number, no rows, or more than kBowMaxDim values a row.
Descriptors readDescriptorFile(const std::string& path);

/// A CSV descriptor file's text (a descriptor a line, an optional header line of names);
/// InputError naming `path` and the line for what is wrong.
Descriptors parseDescriptorCsv(const std::string& text, const std::string& path);

/// --shard I/N: the I-th of N shares (0 <= I < N) of a sorted listing: entries I, I + N, ...
struct Shard {
    std::size_t index = 0, count = 1;
};
/// "I/N"; UsageError("--shard") for anything else.
Shard parseShard(const std::string& text);

/// The help of every --shard option: what I/N means and that shards count from 0.
std::string shardHelp();

/// Shards' rows (each with a file name, `fileOf`) joined and sorted by file as one listing
/// would be: what `bow merge` and `merge` do with the tables that --shard I/N runs write.
/// InputError naming the file that two shards (sources[s]) hold.
template <typename Row, typename FileOf>
std::vector<Row> mergeShardRows(const std::vector<std::vector<Row>>& shards,
                                const std::vector<std::string>& sources, FileOf fileOf) {
    std::vector<Row> merged;
    std::map<std::string, std::size_t> seen; // file -> shard
    for (std::size_t s = 0; s < shards.size(); ++s)
        for (const Row& row : shards[s]) {
            const auto [at, fresh] = seen.emplace(fileOf(row), s);
            if (!fresh)
                throw InputError(sources[s] + ": " + fileOf(row) + " is also in " +
                                 sources[at->second]);
            merged.push_back(row);
        }
    std::stable_sort(merged.begin(), merged.end(),
                     [&](const Row& a, const Row& b) { return fileOf(a) < fileOf(b); });
    return merged;
}

/// The files of a folder to describe, relative to it with '/' separators and sorted by their
/// bytes: images by their extension (png, jpg, jpeg, tif, tiff, bmp, pgm, ppm, pbm, pnm, webp,
/// pfm, hdr, exr, jp2, sr, ras), or descriptor files (csv, yml, yaml, xml, json) when
/// `descriptorFiles`; subfolders too when `recursive` (links to folders not followed); then the
/// shard's share. `skipped` counts the other files. InputError naming the folder when it is
/// missing, not a folder or a loop of links, or naming a subfolder that cannot be read.
std::vector<std::string> listCollection(const std::string& folder, bool recursive,
                                        bool descriptorFiles, const Shard& shard,
                                        std::size_t* skipped = nullptr);

/// Whether listCollection takes a file of this name (by its extension): images, or descriptor
/// files when `descriptorFiles`.
bool listedInCollection(const std::string& name, bool descriptorFiles);

struct PipelineInput;
/// The folder a listing read as a pipeline's input (option `option`): `files` as listed when
/// `shard` is the whole folder, else the whole folder listed again (another shard's run reads
/// the rest, and no output may replace those either).
PipelineInput collectionInput(const std::string& option, const std::string& folder, bool recursive,
                              bool descriptorFiles, const Shard& shard,
                              const std::vector<std::string>& files);

/// One image's words: its file (relative to the folder), the reason it could not be described
/// (empty when it was), its descriptor count and its K counts (empty when it failed).
struct ImageWords {
    std::string file;
    std::string error;
    std::size_t descriptors = 0;
    std::vector<std::uint64_t> counts;
};

/// A collection's raw counts, one entry an image, in listing order.
struct WordTable {
    std::size_t k = 0;
    std::vector<ImageWords> images;
};

enum class BowWeighting { None, L1, L2, TfIdf };
/// "none", "l1", "l2", "tfidf".
const char* bowWeightingName(BowWeighting weighting);
/// UsageError("--normalize") for any other name.
BowWeighting parseBowWeighting(const std::string& name);

/// idf of each word over the images that were described: log(N / n_i), N images, n_i of them
/// holding the word at least once (0 for a word none holds).
std::vector<double> inverseDocumentFrequency(const WordTable& table);

/// Each image's weights (an empty vector for a failed image): the counts (none); divided by the
/// descriptor count (l1: OpenCV's extractor); by their Euclidean norm (l2); tf-idf (Sivic and
/// Zisserman, 2003): (n_id / n_d) log(N / n_i), n_id the image's count of word i, n_d its
/// descriptors. An image with no descriptors has all-zero weights.
std::vector<std::vector<double>> weightedHistograms(const WordTable& table, BowWeighting weighting);

/// The CSV of a table: file, descriptors, status (ok or the reason), weighting, then w0 ... wK-1
/// (empty for a failed image).
std::string wordsCsv(const WordTable& table, BowWeighting weighting);

/// A table back from wordsCsv text (raw counts only: what shards write). InputError naming
/// `source` for another header, a row of weights, counts that do not add up to the descriptors,
/// or a K that differs from `k` (when k != 0).
WordTable parseWordsCsv(const std::string& text, const std::string& source, std::size_t k = 0);

/// The same from a file read a row at a time (bow merge's reader: the table is never held as
/// text), up to kTextFileLimit.
WordTable readWordsCsv(const std::string& path, std::size_t k = 0);

/// The shards' tables as one, sorted by file as one listing would be; InputError naming the file
/// that appears twice or the shard whose K differs.
WordTable mergeWordTables(const std::vector<WordTable>& shards,
                          const std::vector<std::string>& sources);

/// Cosine similarity of two weight vectors; 0 when either is all zero (or empty).
double cosineSimilarity(const std::vector<double>& a, const std::vector<double>& b);

struct Neighbour {
    std::size_t image = 0; ///< index into the table
    double similarity = 0;
};
/// Each image's `n` most similar others (cosine of their weights, ties to the lower index);
/// none for a failed image or one with no descriptors.
std::vector<std::vector<Neighbour>> nearestImages(const std::vector<std::vector<double>>& weights,
                                                  std::size_t n);

/// The most images a full similarity matrix is written for: 8,192 (67 M cells, up to about
/// 1.3 GB of text). Beyond it, --nearest N lists what a matrix would be read for.
inline constexpr std::size_t kSimilarityMaxImages = 8192;

/// The cosine similarity matrix as CSV: a header of file names, then one row an image.
std::string similarityCsv(const WordTable& table, const std::vector<std::vector<double>>& weights);
/// The same, written to `out` a row at a time (each row computed as it is written), so the
/// matrix is never held. UsageError("--similarity") for more than kSimilarityMaxImages images.
void writeSimilarityCsv(std::ostream& out, const WordTable& table,
                        const std::vector<std::vector<double>>& weights);
/// UsageError("--similarity") naming the matrix's size when `images` is beyond
/// kSimilarityMaxImages.
void checkSimilaritySize(std::size_t images);

} // namespace histlab
