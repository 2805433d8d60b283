// Bag-of-visual-words over collections, as the front ends see it:
//   bow build-codebook  a codebook by k-means (the assignment step on the device) from a folder's
//                       descriptors or synthetic ones; saved as OpenCV's vocabulary
//   bow histograms      each image of a folder (or of one shard of it) as the histogram of its
//                       words, weighted, with the nearest images by cosine similarity
//   bow merge           shards' raw counts joined, weighted over the whole collection
// Metric: descriptors assigned a second over the kernel time (the launches and the clearing of
// the histogram, summed over the batches); the stage table gives the wall clock of decoding and
// describing (on the host's cores, overlapping the device's work), of the assignment and of
// the CPU reference.
#include "pipelines/bow/collectionrun.h"
#include "pipelines/largebin/largebin.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <sstream>

namespace histlab {

namespace {

// ---------------------------------------------------------------------------------------------
// Where descriptors come from: a folder of images or descriptor files.

void setFolder(CollectionSource& s, const std::string& command, const std::string& folder) {
    if (!s.folder.empty())
        throw UsageError(command,
                         "more than one folder given ('" + s.folder + "', '" + folder + "')");
    s.folder = folder;
}

/// The options every collection command takes, for parameters holding `source`.
template <typename P>
std::vector<PipelineOption> collectionOptions(CollectionSource P::*source,
                                              const std::string& command, bool shards) {
    std::vector<PipelineOption> o = {
        valueOption<P>(
            "FOLDER", "", "the folder of images (or of descriptor files, with --descriptor-files)",
            [source, command](P& p, const std::string& v) { setFolder(p.*source, command, v); }),
        flagOption<P>("--recursive", "its subfolders too",
                      [source](P& p) { (p.*source).recursive = true; }),
        flagOption<P>("--descriptor-files",
                      "FOLDER holds one descriptor file an image (.csv: a descriptor a line; "
                      ".yml/.yaml/.xml/.json: OpenCV FileStorage, the matrix 'descriptors' or "
                      "the first one) instead of images",
                      [source](P& p) { (p.*source).descriptorFiles = true; }),
        valueOption<P>("--detector", "kaze|sift",
                       "local features: kaze (64 floats, default) or sift (128)",
                       [source](P& p, const std::string& v) {
                           (p.*source).describe.detector = parseBowDetector(v);
                       }),
        valueOption<P>("--max-side", "PX",
                       "images larger than PX on their longer side are reduced to it (area "
                       "averaging) before detection (default 1024; 0: full size)",
                       [source](P& p, const std::string& v) {
                           (p.*source).describe.maxSide =
                               int(parseWholeNumber("--max-side", v, 0, 1 << 20));
                       }),
        valueOption<P>("--max-features", "N",
                       "keep the N strongest features of an image (default 0: all)",
                       [source](P& p, const std::string& v) {
                           (p.*source).describe.maxFeatures =
                               std::size_t(parseWholeNumber("--max-features", v, 0, 1 << 24));
                       }),
    };
    if (shards)
        o.push_back(
            valueOption<P>("--shard", "I/N", shardHelp(), [source](P& p, const std::string& v) {
                (p.*source).shard = parseShard(v);
            }));
    return o;
}

/// The folder a collection command lists, for the check that no output replaces its files.
std::vector<PipelineInput> sourceInputs(const CollectionSource& s) {
    if (s.folder.empty())
        return {};
    return {collectionInput("FOLDER", s.folder, s.recursive, s.descriptorFiles, s.shard, s.files)};
}

/// A described image's progress line: "a.jpg: 805 descriptors", or its reason.
std::string describeImageItem(const std::any& item) {
    const DescribedImage& d = std::any_cast<const DescribedImage&>(item);
    return d.file + ": " +
           (d.error.empty() ? std::to_string(d.features.descriptors.count) + " descriptors"
                            : d.error);
}

std::string secondsText(double ms) {
    return fixedText(ms / 1000.0, 2) + " s";
}

// ---------------------------------------------------------------------------------------------
// bow build-codebook

Table iterationTable(const CodebookResult& r) {
    Table t({"iteration", "inertia", "changed", "reseeded", "shift", "assign_ms", "ambiguous"});
    for (const KmeansIteration& it : r.kmeans.iterations)
        t.row()
            .add(it.iteration)
            .add(it.inertia)
            .add(std::uint64_t(it.changed))
            .add(std::uint64_t(it.reseeded))
            .add(it.shift)
            .add(it.assignMs)
            .add(std::uint64_t(it.ambiguous));
    return t;
}

std::string codebookText(const CodebookResult& r) {
    std::ostringstream out;
    const CodebookParams& p = r.params;
    out << "bow build-codebook: K " << p.kmeans.k << " from ";
    if (p.synthetic)
        out << r.pooled << " synthetic descriptors of " << p.dim << " floats (seed "
            << p.kmeans.seed << ")\n";
    else
        out << r.pooled << " descriptors of " << r.images - r.failed << " of " << r.images
            << (p.source.descriptorFiles ? " descriptor files" : " images") << " in "
            << p.source.folder
            << (p.source.descriptorFiles
                    ? std::string()
                    : std::string(" (") + bowDetectorName(p.source.describe.detector) + ")")
            << '\n';
    out << deviceLine(r.device) << '\n';
    out << "clustered " << r.kmeans.used << " descriptors"
        << (r.kmeans.used < r.pooled
                ? " (a seeded sample: " + std::to_string(p.kmeans.maxPerCentroid) + " a centroid)"
                : std::string())
        << "; assignment kernel " << bowKernelName(r.kernel) << " (" << r.geometry << ")\n";
    TextTable t({{"iteration"},
                 {"inertia"},
                 {"changed"},
                 {"reseeded"},
                 {"shift"},
                 {"assign ms"},
                 {"ambiguous"}});
    for (const KmeansIteration& it : r.kmeans.iterations)
        t.add({std::to_string(it.iteration), fixedText(it.inertia, 4), std::to_string(it.changed),
               std::to_string(it.reseeded), fixedText(it.shift, 6), fixedText(it.assignMs, 3),
               std::to_string(it.ambiguous)});
    out << t.text();
    out << r.kmeans.stopped << "; k-means++ seeding " << secondsText(r.kmeans.seedingMs)
        << ", k-means " << secondsText(r.kmeans.totalMs) << '\n';
    if (r.status != Status::Timed || !r.detail.empty())
        out << "final assignment: " << statusText(r.status, r.detail) << ", inertia "
            << fixedText(r.finalInertia, 4) << '\n';
    if (p.compareOpenCv)
        out << "cv::kmeans (k-means++, " << r.kmeans.iterations.size() << " iterations, CPU): "
            << (r.peerRan ? secondsText(r.peerMs) + ", inertia " + fixedText(r.peerInertia, 4)
                          : r.peerDetail)
            << '\n';
    return out.str();
}

std::string codebookJson(const CodebookResult& r) {
    Json iterations = Json::array();
    for (const KmeansIteration& it : r.kmeans.iterations)
        iterations.push_back({{"iteration", it.iteration},
                              {"inertia", it.inertia},
                              {"changed", it.changed},
                              {"reseeded", it.reseeded},
                              {"shift", it.shift},
                              {"assign_ms", it.assignMs},
                              {"ambiguous", it.ambiguous}});
    const CodebookParams& p = r.params;
    Json peer;
    if (p.compareOpenCv)
        peer = {{"ran", r.peerRan},
                {"ms", r.peerMs},
                {"inertia", r.peerInertia},
                {"detail", r.peerDetail}};
    return jsonText({{"tool", "histlab-cli bow build-codebook"},
                     {"date", utcTimestamp()},
                     {"device", deviceJson(r.device)},
                     {"source", p.synthetic ? "synthetic" : p.source.folder},
                     {"images", r.images},
                     {"failed_images", r.failed},
                     {"descriptors", r.pooled},
                     {"clustered", r.kmeans.used},
                     {"k", p.kmeans.k},
                     {"dim", r.kmeans.codebook.dim},
                     {"seed", p.kmeans.seed},
                     {"max_per_centroid", p.kmeans.maxPerCentroid},
                     {"tolerance", p.kmeans.tolerance},
                     {"kernel", bowKernelName(r.kernel)},
                     {"geometry", r.geometry},
                     {"stopped", r.kmeans.stopped},
                     {"converged", r.kmeans.converged},
                     {"seeding_ms", r.kmeans.seedingMs},
                     {"kmeans_ms", r.kmeans.totalMs},
                     {"status", statusName(r.status)},
                     {"detail", r.detail},
                     {"final_inertia", r.finalInertia},
                     {"cluster_sizes", r.clusterSizes},
                     {"iterations", std::move(iterations)},
                     {"opencv_kmeans", peer}});
}

} // namespace

void prepareCodebook(CodebookParams& params) {
    if (params.synthetic && !params.source.folder.empty())
        throw UsageError("bow build-codebook", "a folder or --synthetic, not both");
    if (!params.synthetic)
        listSource(params.source, "bow build-codebook");
}

CodebookParams planCodebook(const DeviceInfo& device, const CodebookParams& params) {
    CodebookParams plan = params;
    if (plan.synthetic) {
        if (plan.count == 0)
            plan.count = 262144;
        checkSyntheticBytes(device, plan.count * plan.dim * sizeof(float), 3, "--count");
    }
    checkSyntheticBytes(device, plan.kmeans.k * kBowMaxDim * sizeof(float), 2, "--k");
    if (plan.kernel) {
        // The descriptors' size is known before any is made (synthetic, or the detector's),
        // but for descriptor files: there 4, the float4 granularity, and only what any size
        // would meet is refused.
        const bool dimKnown = plan.synthetic || !plan.source.descriptorFiles;
        const std::size_t dim = plan.synthetic ? plan.dim
                                : dimKnown ? bowDetectorDimensions(plan.source.describe.detector)
                                           : 4;
        const BowGeometry g = planBowKernel(device, *plan.kernel, 1, plan.kmeans.k, dim);
        if (!g.supported && (dimKnown || g.why.find("float4") == std::string::npos))
            throw UsageError("--kernel", std::string(bowKernelName(*plan.kernel)) +
                                             " cannot run on " + device.name + ": " + g.why);
    }
    return plan;
}

CodebookResult runCodebookJob(JobContext& ctx, Device& device, const CodebookParams& plan,
                              const ItemSink& onItem) {
    return runBuildCodebook(ctx, device, plan, [&onItem](const DescribedImage& d) {
        if (onItem)
            onItem(d);
    });
}

HistogramsResult runHistogramsJob(JobContext& ctx, Device& device, const HistogramsParams& plan,
                                  const ItemSink& onItem) {
    return runHistograms(ctx, device, plan, [&onItem](const DescribedImage& d) {
        if (onItem)
            onItem(d);
    });
}

Pipeline bowBuildCodebookPipeline() {
    Pipeline p;
    p.name = "bow build-codebook";
    p.summary = "a codebook of K visual words by k-means (k-means++ seeding, Lloyd iterations "
                "whose assignment runs on the device) from a folder's local features or "
                "synthetic descriptors; saved as OpenCV's vocabulary";
    p.description =
        "Describes every image of FOLDER (KAZE or SIFT, on the host's cores, the next images "
        "while the device works), or reads descriptor files, or makes synthetic descriptors; "
        "keeps a seeded sample of at most K x --max-per-centroid of them; seeds K centroids by "
        "k-means++ and runs Lloyd's iterations: each assignment on the device (exact labels: "
        "the ambiguous ones decided in double precision), each update the means in double "
        "precision; an empty cluster takes the descriptor farthest from its centroid. Stops "
        "when no label changes, when the centroids' squared shifts sum to at most --tolerance "
        "times the descriptors' total variance, or after --iterations. --out writes the "
        "codebook as OpenCV FileStorage (the matrix 'vocabulary', K x D floats, as "
        "BOWImgDescriptorExtractor::setVocabulary takes it; YAML, or XML/JSON by the "
        "extension). The same seed gives the same codebook.";
    p.reference = "the last assignment is repeated with the final codebook and compared label by "
                  "label with assignReference (double precision, ties to the lowest index); the "
                  "k-means arithmetic is the same code as a run on the CPU reference, which the "
                  "unit tests compare bit for bit";
    using P = CodebookParams;
    p.options = collectionOptions<P>(&P::source, "bow build-codebook", false);
    const std::vector<PipelineOption> more = {
        flagOption<P>("--synthetic", "synthetic descriptors instead of a folder (--count, --dim)",
                      [](P& s) { s.synthetic = true; }),
        valueOption<P>("--count", "N", "synthetic descriptors (default 262,144)",
                       [](P& s, const std::string& v) {
                           s.count =
                               std::size_t(parseWholeNumber("--count", v, 1, (1ll << 31) - 1));
                       }),
        valueOption<P>("--dim", "D", "floats a synthetic descriptor (default 64)",
                       [](P& s, const std::string& v) {
                           s.dim =
                               std::size_t(parseWholeNumber("--dim", v, 1, (long long)kBowMaxDim));
                       }),
        valueOption<P>("--k", "K", "visual words (default 256)",
                       [](P& s, const std::string& v) {
                           s.kmeans.k = std::size_t(parseWholeNumber("--k", v, 1, 1 << 20));
                       }),
        valueOption<P>("--iterations", "N", "Lloyd iterations at most (default 25)",
                       [](P& s, const std::string& v) {
                           s.kmeans.maxIterations =
                               int(parseWholeNumber("--iterations", v, 1, 10000));
                       }),
        valueOption<P>("--tolerance", "T",
                       "converged when the squared centroid shifts sum to at most T times the "
                       "total variance (default 1e-4; 0: only when no label changes)",
                       [](P& s, const std::string& v) {
                           s.kmeans.tolerance = parseNonNegative("--tolerance", v);
                       }),
        valueOption<P>(
            "--seed", "S", "seed of the sampling, k-means++ and synthetic data (default 1)",
            [](P& s, const std::string& v) {
                s.kmeans.seed = std::uint64_t(parseWholeNumber("--seed", v, 0, 1ll << 62));
            }),
        valueOption<P>("--max-per-centroid", "N",
                       "cluster at most K x N descriptors, a seeded sample (default 256, as "
                       "FAISS; 0: all)",
                       [](P& s, const std::string& v) {
                           s.kmeans.maxPerCentroid =
                               std::size_t(parseWholeNumber("--max-per-centroid", v, 0, 1 << 24));
                       }),
        valueOption<P>("--kernel", "V",
                       "the assignment kernel: gpu1 ... gpu5, tiled, tiled-norm, block-norm "
                       "(default: the first the device runs of block-norm (CPUs; GPUs from K 512), "
                       "tiled-norm, tiled, gpu4, gpu3, gpu2, gpu1)",
                       [](P& s, const std::string& v) { s.kernel = parseBowKernel(v); }),
        flagOption<P>("--compare-opencv",
                      "also run cv::kmeans (k-means++, as many iterations) on the same "
                      "descriptors, on the CPU, and report its time and inertia",
                      [](P& s) { s.compareOpenCv = true; }),
        flagOption<P>("--no-verify", "skip the CPU reference of the final assignment",
                      [](P& s) { s.verify = false; }),
    };
    p.options.insert(p.options.end(), more.begin(), more.end());
    p.outputs = {{"--out", "the codebook (OpenCV FileStorage: YAML, or XML/JSON by the "
                           "extension; the matrix 'vocabulary')"}};
    p.csvHelp = "one row per iteration (inertia, labels changed, clusters reseeded, centroid "
                "shift, assignment milliseconds, ambiguous labels)";
    p.jsonHelp = "the whole run: device, sizes, kernel, iterations, final check, cv::kmeans";
    bindDevicePipeline<CodebookParams, CodebookParams, CodebookResult>(
        p, planCodebook, runCodebookJob,
        [](const CodebookResult& result) {
            Report r;
            r.text = codebookText(result);
            r.table = iterationTable(result);
            r.csv = [&result] { return iterationTable(result).csv(); };
            r.json = [&result] { return codebookJson(result); };
            r.files["--out"] = [&result](const std::string& path) {
                requireBowOpenCv("--out");
                return bowOpenCv().codebookText(result.kmeans.codebook, path);
            };
            r.verdict = verificationVerdict(result.status != Status::Mismatch, result.detail);
            return r;
        },
        prepareCodebook);
    p.describeItem = describeImageItem;
    p.inputs = [](const std::any& params) {
        return sourceInputs(std::any_cast<const CodebookParams&>(params).source);
    };
    return p;
}

namespace {

// ---------------------------------------------------------------------------------------------
// What bow histograms and bow merge report: the table, its weights, the nearest images.

template <typename P> std::vector<PipelineOption> viewOptions(CollectionView P::*view) {
    return {
        valueOption<P>(
            "--normalize", "none|l1|l2|tfidf",
            "the weights written: none (raw counts, default; what bow merge joins), "
            "l1 (divided by the descriptor count, as OpenCV's extractor), l2 (unit "
            "length), tfidf ((count / descriptors) ln(images / images with the word), the "
            "natural logarithm, without smoothing: a word in every image weighs 0)",
            [view](P& p, const std::string& v) { (p.*view).weighting = parseBowWeighting(v); }),
        valueOption<P>("--nearest", "N",
                       "list each image's N most similar images (cosine of the weights; tf-idf "
                       "when --normalize is none)",
                       [view](P& p, const std::string& v) {
                           (p.*view).nearest =
                               std::size_t(parseWholeNumber("--nearest", v, 0, 1000));
                       }),
    };
}

std::string collectionText(const WordTable& t, const CollectionView& v) {
    std::ostringstream out;
    std::size_t failed = 0, descriptors = 0;
    for (const ImageWords& image : t.images) {
        failed += !image.error.empty();
        descriptors += image.descriptors;
    }
    out << t.images.size() << " images, " << descriptors << " descriptors, " << t.k
        << " words; weights " << bowWeightingName(v.weighting) << '\n';
    if (failed) {
        out << failed << " could not be described:\n";
        for (const ImageWords& image : t.images)
            if (!image.error.empty())
                out << "  " << image.file << ": " << image.error << '\n';
    }
    if (v.nearest) {
        const auto weights = similarityWeights(t, v);
        const auto near = nearestImages(weights, v.nearest);
        out << "nearest images (cosine of "
            << bowWeightingName(v.weighting == BowWeighting::None ? BowWeighting::TfIdf
                                                                  : v.weighting)
            << " weights):\n";
        for (std::size_t q = 0; q < t.images.size(); ++q) {
            if (near[q].empty())
                continue;
            out << "  " << t.images[q].file << ":";
            for (const Neighbour& n : near[q])
                out << "  " << t.images[n.image].file << " " << fixedText(n.similarity, 3);
            out << '\n';
        }
    }
    return out.str();
}

Json collectionJson(const WordTable& t, const CollectionView& v) {
    const auto weights = weightedHistograms(t, v.weighting);
    const auto near = v.nearest ? nearestImages(similarityWeights(t, v), v.nearest)
                                : std::vector<std::vector<Neighbour>>(t.images.size());
    Json images = Json::array();
    for (std::size_t q = 0; q < t.images.size(); ++q) {
        Json neighbours = Json::array();
        for (const Neighbour& n : near[q])
            neighbours.push_back({{"file", t.images[n.image].file}, {"similarity", n.similarity}});
        images.push_back({{"file", t.images[q].file},
                          {"error", t.images[q].error},
                          {"descriptors", t.images[q].descriptors},
                          {"weights", weights[q]},
                          {"nearest", std::move(neighbours)}});
    }
    return {
        {"k", t.k}, {"weighting", bowWeightingName(v.weighting)}, {"images", std::move(images)}};
}

Table collectionTable(const WordTable& t) {
    Table table({"file", "descriptors", "status"});
    for (const ImageWords& image : t.images)
        table.row()
            .add(image.file)
            .add(std::uint64_t(image.descriptors))
            .add(image.error.empty() ? std::string("ok") : image.error);
    return table;
}

/// The report parts both commands share.
void fillCollectionReport(Report& r, const WordTable& t, const CollectionView& v) {
    r.csv = [&t, &v] { return wordsCsv(t, v.weighting); };
    // Streamed: 20,000 images make 400 M cells, 7 GB of text that no string should hold.
    r.streamedFiles["--similarity"] = [&t, &v](std::ostream& out, const std::string&) {
        checkSimilaritySize(t.images.size());
        writeSimilarityCsv(out, t, similarityWeights(t, v));
    };
}

const PipelineOutput kSimilarityOutput = {
    "--similarity",
    "the cosine similarity of every pair of images as a CSV matrix (of the --normalize "
    "weights; tf-idf when none): images squared cells, for at most 8192 images"};

// ---------------------------------------------------------------------------------------------
// bow histograms

Table kernelTable(const HistogramsResult& r) {
    Table t({"kernel", "descriptors", "kernel_ms", "descriptors_per_s", "ambiguous", "resolve_ms",
             "geometry", "status", "detail"});
    for (const KernelTally& k : r.kernels)
        t.row()
            .add(bowKernelName(k.kernel))
            .add(std::uint64_t(k.descriptors))
            .add(k.kernelMs)
            .add(k.kernelMs > 0 ? double(k.descriptors) / (k.kernelMs * 1e-3) : 0.0)
            .add(std::uint64_t(k.ambiguous))
            .add(k.resolveMs)
            .add(k.geometry)
            .add(statusName(k.status))
            .add(k.detail);
    return t;
}

std::string histogramsText(const HistogramsResult& r) {
    std::ostringstream out;
    const HistogramsParams& p = r.params;
    const CollectionSource& s = p.source;
    out << "bow histograms: " << s.files.size()
        << (s.descriptorFiles ? " descriptor files" : " images") << " in " << s.folder;
    if (s.shard.count > 1)
        out << " (shard " << s.shard.index << "/" << s.shard.count << ")";
    if (!s.descriptorFiles)
        out << ", " << bowDetectorName(s.describe.detector);
    out << ", codebook " << p.codebookPath << " (" << p.codebook->k << " x " << p.codebook->dim
        << ")\n"
        << deviceLine(r.device) << '\n';
    using A = TextTable::Align;
    TextTable t({{"kernel", A::Left},
                 {"descriptors"},
                 {"kernel ms"},
                 {"M desc/s"},
                 {"ambiguous"},
                 {"resolve ms"},
                 {"geometry", A::Left},
                 {"status", A::Left}});
    for (const KernelTally& k : r.kernels) {
        const bool ran = statusRan(k.status);
        t.add(
            {bowKernelName(k.kernel), std::to_string(k.descriptors),
             ran ? fixedText(k.kernelMs, 3) : "-",
             ran && k.kernelMs > 0 ? fixedText(double(k.descriptors) / (k.kernelMs * 1e3), 2) : "-",
             ran ? std::to_string(k.ambiguous) : "-", ran ? fixedText(k.resolveMs, 2) : "-",
             k.geometry, statusText(k.status, k.detail)});
    }
    out << t.text();
    const Stages& st = r.stages;
    out << "where the time went (wall clock " << secondsText(st.totalMs) << "): decoding "
        << secondsText(st.decodeMs) << " and describing " << secondsText(st.describeMs)
        << " (summed over the host's cores, overlapping the device), waiting for them "
        << secondsText(st.hostWaitMs) << ", assignment " << secondsText(st.assignWallMs)
        << " (kernels " << secondsText(st.kernelMs) << ", double-precision decisions "
        << secondsText(st.resolveMs) << "), CPU reference " << secondsText(st.referenceMs) << '\n';
    if (s.skipped)
        out << s.skipped << " other files in the folder were not read\n";
    out << collectionText(r.table, p.view);
    return out.str();
}

std::string histogramsJson(const HistogramsResult& r) {
    Json kernels = Json::array();
    for (const KernelTally& k : r.kernels)
        kernels.push_back({{"kernel", bowKernelName(k.kernel)},
                           {"geometry", k.geometry},
                           {"status", statusName(k.status)},
                           {"detail", k.detail},
                           {"descriptors", k.descriptors},
                           {"kernel_ms", k.kernelMs},
                           {"wall_ms", k.wallMs},
                           {"ambiguous", k.ambiguous},
                           {"resolve_ms", k.resolveMs}});
    const Stages& st = r.stages;
    const HistogramsParams& p = r.params;
    return jsonText(
        {{"tool", "histlab-cli bow histograms"},
         {"date", utcTimestamp()},
         {"device", deviceJson(r.device)},
         {"folder", p.source.folder},
         {"shard",
          std::to_string(p.source.shard.index) + "/" + std::to_string(p.source.shard.count)},
         {"detector", p.source.descriptorFiles ? "descriptor files"
                                               : bowDetectorName(p.source.describe.detector)},
         {"codebook", p.codebookPath},
         {"kernels", std::move(kernels)},
         {"stages_ms",
          {{"decode", st.decodeMs},
           {"describe", st.describeMs},
           {"host_wait", st.hostWaitMs},
           {"assign_wall", st.assignWallMs},
           {"kernels", st.kernelMs},
           {"resolve", st.resolveMs},
           {"reference", st.referenceMs},
           {"total", st.totalMs}}},
         {"collection", collectionJson(r.table, p.view)}});
}

// ---------------------------------------------------------------------------------------------
// bow merge

struct MergeParams {
    std::vector<std::string> shards;
    CollectionView view;
    std::shared_ptr<const WordTable> table; ///< read by prepare
};

} // namespace

Pipeline bowHistogramsPipeline() {
    Pipeline p;
    p.name = "bow histograms";
    p.summary = "each image of a folder (or of one shard of it) as the histogram of its visual "
                "words: local features assigned on the device to a codebook's nearest word, "
                "weighted (raw, L1, L2, tf-idf), with the nearest images by cosine similarity";
    p.description =
        "Describes every image of FOLDER (KAZE or SIFT on the host's cores; the next images "
        "while the device assigns these), or reads descriptor files; assigns each descriptor "
        "to its nearest word of the --codebook (squared Euclidean distance, ties to the lowest "
        "index) with the kernel(s) chosen, and counts each image's words. An image that cannot "
        "be read or described is a row with its reason; the run goes on. --csv writes one row "
        "an image: file, descriptors, status, weighting, w0 ... wK-1. Shards (--shard I/N) "
        "write raw counts that bow merge joins and weights over the whole collection. M desc/s "
        "= descriptors / kernel time (launches and histogram clearing, summed over batches).";
    p.reference = "assignReference (double precision, ties to the lowest index): every label of "
                  "every kernel is compared (--no-verify skips it)";
    using P = HistogramsParams;
    p.options = collectionOptions<P>(&P::source, "bow histograms", true);
    const std::vector<PipelineOption> more = {
        inputFileOption<P>("--codebook", "FILE",
                           "the codebook: OpenCV FileStorage with the matrix 'vocabulary' (K x D "
                           "floats), as bow build-codebook writes it",
                           [](P& s, const std::string& v) { s.codebookPath = v; }),
        valueOption<P>("--kernel", "V|all",
                       "gpu1 ... gpu5, tiled, tiled-norm, block-norm, all, or a comma list "
                       "(default: the first the device runs of block-norm (CPUs; GPUs from K 512), "
                       "tiled-norm, tiled, gpu4, gpu3, gpu2, gpu1); "
                       "with several, every one assigns every descriptor and is timed",
                       [](P& s, const std::string& v) {
                           s.kernels = parseNameList<BowKernel>(v, allBowKernels, parseBowKernel);
                       }),
        flagOption<P>("--no-verify",
                      "skip the CPU reference (for collections where it costs "
                      "more than the run; rows are then 'timed', not 'verified')",
                      [](P& s) { s.verify = false; }),
    };
    p.options.insert(p.options.end(), more.begin(), more.end());
    const auto view = viewOptions<P>(&P::view);
    p.options.insert(p.options.end(), view.begin(), view.end());
    p.outputs = {kSimilarityOutput};
    p.csvHelp = "one row an image: file, descriptors, status (ok or the reason), weighting, "
                "w0 ... wK-1";
    p.jsonHelp = "the whole run: device, kernels with their timings, stages, every image's "
                 "weights and nearest images";
    bindDevicePipeline<HistogramsParams, HistogramsParams, HistogramsResult>(
        p, planHistograms, runHistogramsJob,
        [](const HistogramsResult& result) {
            Report r;
            r.text = histogramsText(result);
            r.table = kernelTable(result);
            fillCollectionReport(r, result.table, result.params.view);
            r.json = [&result] { return histogramsJson(result); };
            r.verdict = countStatuses(result.kernels)
                            .verdict("kernel(s)",
                                     "no assignment kernel could run on " + result.device.name);
            // Every image failed (a codebook of another dimension, files that are not
            // images): a table of reasons and no histogram is not a success.
            std::size_t failed = 0;
            for (const ImageWords& image : result.table.images)
                failed += image.error.empty() ? 0 : 1;
            if (r.verdict.kind == Verdict::Kind::Ok && !result.table.images.empty() &&
                failed == result.table.images.size())
                r.verdict = {Verdict::Kind::NoInput,
                             "none of the " + std::to_string(failed) +
                                 " images could be counted (see the table)"};
            return r;
        },
        [](HistogramsParams& params) {
            if (params.codebookPath.empty())
                throw UsageError("--codebook", "bow histograms needs a codebook (bow "
                                               "build-codebook --out FILE makes one)");
            listSource(params.source, "bow histograms");
            requireBowOpenCv("--codebook");
            params.codebook =
                std::make_shared<const Codebook>(bowOpenCv().readCodebook(params.codebookPath));
        });
    p.describeItem = describeImageItem;
    p.inputs = [](const std::any& params) {
        return sourceInputs(std::any_cast<const HistogramsParams&>(params).source);
    };
    return p;
}

Pipeline bowMergePipeline() {
    Pipeline p;
    p.name = "bow merge";
    p.summary = "the raw counts of bow histograms shards (--shard I/N) joined into one table, "
                "weighted over the whole collection (tf-idf's document frequencies included)";
    p.description =
        "Reads each SHARD (the --csv of bow histograms with --normalize none), checks that they "
        "share K and that no file appears twice, sorts the rows by file as one listing would "
        "be, and writes the table with the weights asked: the same file as one bow histograms "
        "run over the whole folder would write. Runs on the host only.";
    p.reference = "no device work: the counts are read back exactly as the shards wrote them "
                  "(each row's counts must add up to its descriptors)";
    p.devices = Pipeline::Devices::None;
    using P = MergeParams;
    p.options = {inputFileOption<P>("SHARD", "",
                                    "the shards' CSV files (bow histograms --normalize none --csv)",
                                    [](P& s, const std::string& v) { s.shards.push_back(v); })};
    const auto view = viewOptions<P>(&P::view);
    p.options.insert(p.options.end(), view.begin(), view.end());
    p.outputs = {kSimilarityOutput};
    p.csvHelp = "one row an image, as bow histograms writes it";
    p.jsonHelp = "every image's weights and nearest images";
    bindPipeline<MergeParams, MergeParams, MergeParams>(
        p, [](const std::vector<DeviceInfo>&, const MergeParams& params) { return params; },
        [](JobContext&, const std::vector<int>&, const MergeParams& plan, const ItemSink&) {
            return plan;
        },
        [](const MergeParams& result) {
            Report r;
            r.text = "bow merge: " + std::to_string(result.shards.size()) + " shards\n" +
                     collectionText(*result.table, result.view);
            r.table = collectionTable(*result.table);
            fillCollectionReport(r, *result.table, result.view);
            r.json = [&result] {
                return jsonText({{"tool", "histlab-cli bow merge"},
                                 {"date", utcTimestamp()},
                                 {"shards", result.shards},
                                 {"collection", collectionJson(*result.table, result.view)}});
            };
            r.verdict = Verdict{};
            return r;
        },
        [](MergeParams& params) {
            if (params.shards.empty())
                throw UsageError("bow merge", "which shards? (give the CSV files)");
            std::vector<WordTable> tables;
            for (const std::string& path : params.shards)
                tables.push_back(readWordsCsv(path, tables.empty() ? 0 : tables.front().k));
            params.table =
                std::make_shared<const WordTable>(mergeWordTables(tables, params.shards));
        });
    return p;
}

} // namespace histlab
