#pragma once
// Bag-of-visual-words over collections, the typed work both front ends run: a folder's files
// described a batch ahead of the device (KAZE/SIFT through BowOpenCv, or descriptor files), a
// codebook by k-means with the assignment on the device (runBuildCodebook), and each image's
// histogram of words (runHistograms), every label verified against the CPU reference.
// histlab-cli's bow build-codebook and bow histograms (collectionpipeline.cpp) and the window's
// Words tab call these.
#include "pipelines/bow/collection.h"
#include "pipelines/bow/kmeans.h"
#include "runtime/runner.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// Where descriptors come from: a folder of images, or of descriptor files.
struct CollectionSource {
    std::string folder;
    bool recursive = false;
    bool descriptorFiles = false;
    Shard shard;
    DescribeOptions describe;
    std::vector<std::string> files; ///< listed by prepare
    std::size_t skipped = 0;        ///< files of other kinds
};

/// The folder listed into `files` (InputError naming it; OpenCV required for images):
/// a command's prepare step.
void listSource(CollectionSource& s, const std::string& command);

/// One file of the listing, described (or the reason it could not be).
struct DescribedImage {
    std::string file;
    std::string error;
    ImageFeatures features;
};

/// Host stages, summed over the images (thread time) and as wall clock.
struct Stages {
    double decodeMs = 0, describeMs = 0; ///< summed over the images (on all cores)
    double hostWaitMs = 0;               ///< wall clock the device side waited for the host
    double assignWallMs = 0;             ///< wall clock of uploads, launches and read-backs
    double kernelMs = 0;                 ///< profiled kernel time (every kernel run)
    double resolveMs = 0;                ///< double-precision decisions
    double referenceMs = 0;              ///< the CPU reference, wall clock
    double totalMs = 0;                  ///< the whole run, wall clock
};

/// The first kernel of HistLab's order that the device can run for these sizes: block-norm
/// first on CPUs and from K 512 on, then tiled-norm, tiled, gpu4, gpu3, gpu2, gpu1.
BowKernel autoKernel(const DeviceInfo& device, std::size_t count, std::size_t k, std::size_t dim);

/// What each described image reports as it is taken in (a progress line, a table row).
using ImageSink = std::function<void(const DescribedImage&)>;

struct CodebookParams {
    CollectionSource source;
    bool synthetic = false;
    std::size_t count = 0; ///< synthetic descriptors (0: 262,144)
    std::size_t dim = 64;
    KmeansParams kmeans;
    std::optional<BowKernel> kernel; ///< nullopt: the plan's choice
    bool compareOpenCv = false;
    bool verify = true;
};

struct CodebookResult {
    DeviceInfo device;
    CodebookParams params;
    BowKernel kernel = BowKernel::Gpu1;
    std::string geometry;
    std::size_t pooled = 0; ///< descriptors read before sampling
    std::size_t images = 0, failed = 0;
    KmeansResult kmeans;
    Stages stages;
    Status status = Status::Timed;
    std::string detail;
    double finalInertia = 0;
    std::vector<std::uint64_t> clusterSizes;
    // cv::kmeans on the same descriptors
    bool peerRan = false;
    double peerMs = 0, peerInertia = 0;
    std::string peerDetail;
};

/// bow build-codebook: the descriptors (a reservoir sample of the folder's, or synthetic),
/// k-means on the device, the final assignment verified; cv::kmeans beside it when asked.
CodebookResult runBuildCodebook(JobContext& ctx, Device& device, const CodebookParams& params,
                                const ImageSink& onImage = {});

/// bow build-codebook's checks that need no device: a folder or --synthetic, not both; the
/// folder listed (listSource). Throws UsageError, or InputError naming the folder.
void prepareCodebook(CodebookParams& params);

/// bow build-codebook's plan on `device`: the synthetic count (262,144 unless given), and what
/// the device must hold: the synthetic descriptors (--count), K centroids (--k), the kernel
/// asked for (--kernel). Throws UsageError naming the option, before any image is described.
CodebookParams planCodebook(const DeviceInfo& device, const CodebookParams& params);

/// bow build-codebook's run and the Words tab's: runBuildCodebook, each described image to
/// `onItem` as a DescribedImage.
CodebookResult runCodebookJob(JobContext& ctx, Device& device, const CodebookParams& plan,
                              const ItemSink& onItem);

/// How a collection's table is weighted and shown.
struct CollectionView {
    BowWeighting weighting = BowWeighting::None;
    std::size_t nearest = 0; ///< neighbours shown an image (0: none)
};

/// The weights similarity is judged by: the chosen ones, tf-idf for raw counts.
std::vector<std::vector<double>> similarityWeights(const WordTable& t, const CollectionView& v);

struct HistogramsParams {
    CollectionSource source;
    std::string codebookPath;
    std::shared_ptr<const Codebook> codebook; ///< read by prepare
    std::vector<BowKernel> kernels;           ///< empty: the plan's choice
    CollectionView view;
    bool verify = true;
};

struct KernelTally {
    BowKernel kernel = BowKernel::Gpu1;
    std::string geometry;
    Status status = Status::Verified;
    std::string detail;
    double kernelMs = 0, wallMs = 0, resolveMs = 0;
    std::size_t descriptors = 0, ambiguous = 0;
};

struct HistogramsResult {
    DeviceInfo device;
    HistogramsParams params;
    WordTable table;
    std::vector<KernelTally> kernels;
    Stages stages;
};

/// The kernels bow histograms runs on the device: those chosen, or (none chosen) the first of
/// HistLab's order the device runs for the codebook (autoKernel).
HistogramsParams planHistograms(const DeviceInfo& device, HistogramsParams params);

/// bow histograms: each image's words with every chosen kernel, verified, in listing order.
HistogramsResult runHistograms(JobContext& ctx, Device& device, const HistogramsParams& params,
                               const ImageSink& onImage = {});

/// bow histograms' run and the Words tab's: runHistograms, each described image to `onItem` as
/// a DescribedImage.
HistogramsResult runHistogramsJob(JobContext& ctx, Device& device, const HistogramsParams& plan,
                                  const ItemSink& onItem);

} // namespace histlab
