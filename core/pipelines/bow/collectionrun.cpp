#include "pipelines/bow/collectionrun.h"

#include "runtime/errors.h"
#include "runtime/parallel.h"
#include "runtime/timing.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <numeric>
#include <random>

namespace histlab {

namespace {

using Clock = std::chrono::steady_clock;

/// Describes files [lo, hi) of the source, one file a host core at a time.
std::vector<DescribedImage> describeFiles(const CollectionSource& s, std::size_t lo,
                                          std::size_t hi) {
    std::vector<DescribedImage> out(hi - lo);
    forEachShare(hi - lo, 1, [&](std::size_t a, std::size_t b) {
        for (std::size_t i = a; i < b; ++i) {
            DescribedImage& d = out[i];
            d.file = s.files[lo + i];
            const std::string path = s.folder + "/" + d.file;
            try {
                if (s.descriptorFiles) {
                    const auto start = Clock::now();
                    d.features.descriptors = readDescriptorFile(path);
                    d.features.decodeMs = msSince(start);
                } else {
                    d.features = bowOpenCv().describe(path, s.describe);
                }
            } catch (const InputError& e) {
                d.error = withoutPathPrefix(e.what(), path);
            } catch (const std::exception& e) {
                d.error = e.what();
            }
        }
    });
    return out;
}

/// Calls `use` with each batch of described images in listing order; the host describes the
/// next batch while `use` (the device) works on this one.
void forEachBatch(const CollectionSource& s, const CancelToken& cancel, Stages& stages,
                  const std::function<void(std::vector<DescribedImage>&, std::size_t done)>& use) {
    const std::size_t batch = std::max<std::size_t>(4, 4 * std::size_t(hostThreads()));
    const std::size_t n = s.files.size();
    auto launch = [&](std::size_t lo) {
        return inBackground(
            [&s, lo, hi = std::min(n, lo + batch)] { return describeFiles(s, lo, hi); });
    };
    std::future<std::vector<DescribedImage>> next = launch(0);
    for (std::size_t lo = 0; lo < n; lo += batch) {
        const auto wait = Clock::now();
        std::vector<DescribedImage> images = next.get();
        stages.hostWaitMs += msSince(wait);
        if (lo + batch < n)
            next = launch(lo + batch);
        for (const DescribedImage& d : images) {
            stages.decodeMs += d.features.decodeMs;
            stages.describeMs += d.features.describeMs;
        }
        if (cancel.cancelled()) {
            if (next.valid())
                next.wait();
            cancel.throwIfCancelled();
        }
        use(images, std::min(n, lo + batch));
    }
}

/// Algorithm R reservoir over descriptors arriving in order: a seeded uniform sample of at
/// most `capacity`, returned in arrival order.
class Reservoir {
public:
    Reservoir(std::size_t capacity, std::size_t dim, std::uint64_t seed)
        : m_capacity(capacity)
        , m_dim(dim)
        , m_rng(seed) {}
    void add(const Descriptors& d) {
        for (std::size_t i = 0; i < d.count; ++i, ++m_seen) {
            std::size_t slot = m_index.size();
            if (m_capacity && m_index.size() >= m_capacity) {
                slot = std::size_t(m_rng() % (m_seen + 1));
                if (slot >= m_capacity)
                    continue;
            } else {
                m_index.push_back(0);
                m_values.resize(m_values.size() + m_dim);
            }
            m_index[slot] = m_seen;
            std::copy_n(d.values.begin() + std::ptrdiff_t(i * m_dim), m_dim,
                        m_values.begin() + std::ptrdiff_t(slot * m_dim));
        }
    }
    std::size_t seen() const { return m_seen; }
    std::size_t dim() const { return m_dim; }
    Descriptors take() {
        std::vector<std::size_t> order(m_index.size());
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return m_index[a] < m_index[b]; });
        Descriptors out;
        out.dim = m_dim;
        out.count = order.size();
        out.values.resize(order.size() * m_dim);
        for (std::size_t i = 0; i < order.size(); ++i)
            std::copy_n(m_values.begin() + std::ptrdiff_t(order[i] * m_dim), m_dim,
                        out.values.begin() + std::ptrdiff_t(i * m_dim));
        return out;
    }

private:
    std::size_t m_capacity, m_dim;
    std::mt19937_64 m_rng;
    std::size_t m_seen = 0;
    std::vector<std::size_t> m_index;
    std::vector<float> m_values;
};

} // namespace

/// prepare: the folder listed (InputError naming it), OpenCV required for images.
void listSource(CollectionSource& s, const std::string& command) {
    if (s.folder.empty())
        throw UsageError(command, "which folder? (give FOLDER)");
    if (!s.descriptorFiles)
        requireBowOpenCv(command);
    s.files = listCollection(s.folder, s.recursive, s.descriptorFiles, s.shard, &s.skipped);
    if (s.files.empty())
        throw InputError(s.folder + ": no " +
                         std::string(s.descriptorFiles ? "descriptor files (.csv .yml .yaml .xml "
                                                         ".json)"
                                                       : "images (by their extension)") +
                         (s.shard.count > 1 ? " in shard " + std::to_string(s.shard.index) + "/" +
                                                  std::to_string(s.shard.count)
                                            : std::string()) +
                         (s.recursive ? "" : " (--recursive for subfolders)"));
}

/// The first kernel of HistLab's order that the device can run for these sizes.
BowKernel autoKernel(const DeviceInfo& device, std::size_t count, std::size_t k, std::size_t dim) {
    // block-norm first on CPUs, and on GPUs from K 512 on: there it was the fastest (PoCL on
    // this project's machine at K 64 to 1,024; an H100 at D 64 and 128, K 256 to 4,096); below
    // K 512 on the H100, tiled-norm was.
    const bool block = device.type == DeviceType::Cpu || k >= 512;
    for (BowKernel kernel :
         {block ? BowKernel::BlockNorm : BowKernel::TiledNorm, BowKernel::TiledNorm,
          BowKernel::Tiled, BowKernel::Gpu4, BowKernel::Gpu3, BowKernel::Gpu2, BowKernel::Gpu1})
        if (planBowKernel(device, kernel, std::max<std::size_t>(count, 1), k, dim).supported)
            return kernel;
    return BowKernel::Gpu1;
}

/// The weights similarity is judged by: the chosen ones, tf-idf for raw counts.
std::vector<std::vector<double>> similarityWeights(const WordTable& t, const CollectionView& v) {
    return weightedHistograms(t, v.weighting == BowWeighting::None ? BowWeighting::TfIdf
                                                                   : v.weighting);
}

CodebookResult runBuildCodebook(JobContext& ctx, Device& device, const CodebookParams& p,
                                const ImageSink& onImage) {
    CodebookResult r;
    r.device = device.info();
    r.params = p;
    const auto start = Clock::now();
    const std::size_t capacity =
        p.kmeans.maxPerCentroid ? p.kmeans.k * p.kmeans.maxPerCentroid : std::size_t(0);
    Descriptors used;
    if (p.synthetic) {
        ctx.progress(0, "synthetic descriptors");
        used = sampleDescriptors(makeSyntheticDescriptors(p.count, p.dim, p.kmeans.seed),
                                 capacity ? capacity : p.count, p.kmeans.seed);
        r.pooled = p.count;
    } else {
        std::optional<Reservoir> reservoir;
        r.images = p.source.files.size();
        forEachBatch(p.source, ctx.cancelToken(), r.stages,
                     [&](std::vector<DescribedImage>& batch, std::size_t done) {
                         for (DescribedImage& d : batch) {
                             const Descriptors& got = d.features.descriptors;
                             if (d.error.empty() && !reservoir)
                                 reservoir.emplace(capacity, got.dim, p.kmeans.seed);
                             if (d.error.empty() && got.dim != reservoir->dim())
                                 d.error = "descriptors of " + std::to_string(got.dim) +
                                           " floats, the first file's " +
                                           std::to_string(reservoir->dim());
                             if (d.error.empty())
                                 reservoir->add(got);
                             else
                                 ++r.failed;
                             if (onImage)
                                 onImage(d);
                         }
                         ctx.progress(0.5 * double(done) / double(r.images), "describing");
                     });
        if (!reservoir)
            throw InputError(p.source.folder + ": no file could be described");
        r.pooled = reservoir->seen();
        used = reservoir->take();
    }
    ctx.cancelToken().throwIfCancelled();
    r.kernel = p.kernel ? *p.kernel : autoKernel(device.info(), used.count, p.kmeans.k, used.dim);
    BowAssigner assigner(device, r.kernel);
    assigner.setDescriptors(used);
    KmeansAssign assign = [&](const Codebook& c, double& ms, std::size_t& ambiguous) {
        assigner.setCodebook(c);
        if (r.geometry.empty()) {
            if (!assigner.geometry().supported)
                throw UsageError("--kernel", std::string(bowKernelName(r.kernel)) + ": " +
                                                 assigner.geometry().why);
            r.geometry = assigner.geometry().describe();
        }
        ms = assigner.launch();
        Assignment a = assigner.result();
        ambiguous = assigner.ambiguous();
        return a;
    };
    r.kmeans = kmeans(used, p.kmeans, assign, ctx.cancelToken(), [&](const KmeansIteration& it) {
        ctx.progress(0.5 + 0.5 * double(it.iteration) / double(p.kmeans.maxIterations),
                     "iteration " + std::to_string(it.iteration));
    });
    // The final codebook's assignment, on the device and by the CPU reference.
    assigner.setCodebook(r.kmeans.codebook);
    assigner.launch();
    const Assignment last = assigner.result();
    r.clusterSizes = last.histogram;
    for (std::size_t i = 0; i < used.count; ++i)
        r.finalInertia +=
            squaredDistance(used.values.data() + i * used.dim,
                            r.kmeans.codebook.values.data() + last.labels[i] * used.dim, used.dim);
    if (p.verify) {
        const auto refStart = Clock::now();
        const Assignment want = assignReference(used, r.kmeans.codebook);
        r.stages.referenceMs = msSince(refStart);
        r.detail = firstMismatch(last, want);
        r.status = r.detail.empty() ? Status::Verified : Status::Mismatch;
    } else {
        r.detail = "not verified (--no-verify)";
    }
    if (p.compareOpenCv) {
        if (!bowOpenCv().kmeans) {
            r.peerDetail = "this build has no OpenCV";
        } else {
            ctx.progress(1, "cv::kmeans");
            const auto peerStart = Clock::now();
            double compactness = 0;
            bowOpenCv().kmeans(used, p.kmeans.k, int(r.kmeans.iterations.size()), p.kmeans.seed,
                               compactness);
            r.peerMs = msSince(peerStart);
            r.peerInertia = compactness;
            r.peerRan = true;
        }
    }
    r.stages.totalMs = msSince(start);
    return r;
}

HistogramsParams planHistograms(const DeviceInfo& device, HistogramsParams params) {
    if (params.kernels.empty())
        params.kernels = {autoKernel(device, 1, params.codebook->k, params.codebook->dim)};
    return params;
}

HistogramsResult runHistograms(JobContext& ctx, Device& device, const HistogramsParams& p,
                               const ImageSink& onImage) {
    HistogramsResult r;
    r.device = device.info();
    r.params = p;
    r.table.k = p.codebook->k;
    const Codebook& codebook = *p.codebook;
    const auto start = Clock::now();
    std::vector<std::unique_ptr<BowAssigner>> assigners;
    for (BowKernel kernel : p.kernels) {
        KernelTally& k = r.kernels.emplace_back();
        k.kernel = kernel;
        k.status = p.verify ? Status::Verified : Status::Timed;
        assigners.push_back(std::make_unique<BowAssigner>(device, kernel));
        assigners.back()->setCodebook(codebook);
    }
    const std::size_t n = p.source.files.size();
    forEachBatch(
        p.source, ctx.cancelToken(), r.stages,
        [&](std::vector<DescribedImage>& batch, std::size_t done) {
            Descriptors pool;
            pool.dim = codebook.dim;
            for (DescribedImage& d : batch) {
                const Descriptors& got = d.features.descriptors;
                if (d.error.empty() && got.count && got.dim != codebook.dim)
                    d.error = "descriptors of " + std::to_string(got.dim) +
                              " floats; the codebook's words have " + std::to_string(codebook.dim);
                if (d.error.empty()) {
                    pool.values.insert(pool.values.end(), got.values.begin(), got.values.end());
                    pool.count += got.count;
                }
            }
            const auto assignStart = Clock::now();
            std::optional<std::vector<std::uint32_t>> labels;
            std::vector<std::vector<std::uint32_t>> each(p.kernels.size());
            for (std::size_t i = 0; i < p.kernels.size(); ++i) {
                KernelTally& k = r.kernels[i];
                if (!statusRan(k.status))
                    continue;
                BowAssigner& a = *assigners[i];
                a.setDescriptors(pool);
                if (!a.geometry().supported) {
                    k.status = Status::Unsupported;
                    k.detail = a.geometry().why;
                    continue;
                }
                const auto kernelStart = Clock::now();
                k.kernelMs += a.launch();
                each[i] = a.result().labels;
                k.wallMs += msSince(kernelStart);
                k.geometry = a.geometry().describe();
                k.descriptors += pool.count;
                k.ambiguous += a.ambiguous();
                k.resolveMs += a.resolveMs();
                if (!labels)
                    labels = each[i];
            }
            r.stages.assignWallMs += msSince(assignStart);
            if (p.verify && pool.count) {
                const auto refStart = Clock::now();
                const Assignment want = assignReference(pool, codebook);
                r.stages.referenceMs += msSince(refStart);
                for (std::size_t i = 0; i < p.kernels.size(); ++i) {
                    KernelTally& k = r.kernels[i];
                    if (k.status != Status::Verified)
                        continue;
                    for (std::size_t j = 0; j < pool.count; ++j)
                        if (each[i][j] != want.labels[j]) {
                            k.status = Status::Mismatch;
                            k.detail = "descriptor " + std::to_string(j) +
                                       " of the batch ending at file " + std::to_string(done) +
                                       ": word " + std::to_string(each[i][j]) + ", reference " +
                                       std::to_string(want.labels[j]);
                            break;
                        }
                }
            }
            if (!labels && pool.count)
                throw UsageError("--kernel", "no kernel chosen can run on " + device.info().name +
                                                 ": " + r.kernels.front().detail);
            std::size_t at = 0;
            for (DescribedImage& d : batch) {
                ImageWords& w = r.table.images.emplace_back();
                w.file = d.file;
                w.error = d.error;
                if (d.error.empty()) {
                    w.descriptors = d.features.descriptors.count;
                    w.counts.assign(codebook.k, 0);
                    for (std::size_t j = 0; j < w.descriptors; ++j)
                        ++w.counts[(*labels)[at + j]];
                    at += w.descriptors;
                }
                if (onImage)
                    onImage(d);
            }
            ctx.progress(double(done) / double(n), "images");
        });
    for (const KernelTally& k : r.kernels) {
        r.stages.kernelMs += k.kernelMs;
        r.stages.resolveMs += k.resolveMs;
    }
    r.stages.totalMs = msSince(start);
    return r;
}

} // namespace histlab
