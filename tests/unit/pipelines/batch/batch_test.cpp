// Folders of images over several devices: the table is the same whatever devices ran it and
// whichever finished first, shards merged equal one run, a device that fails hands its image
// back, every histogram equals counts made independently of the core's reference, and broken
// images are rows with their reason. Its ctest process runs with POCL_DEVICES="pthread pthread"
// so that PoCL shows two devices.
#include "pipelines/batch/batch.h"
#include "pipelines/equalize/equalize.h"
#include "runtime/errors.h"
#include "unitsupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <mutex>

namespace histlab::test {
namespace {

JobContext contextOf(DeviceSet& devices) {
    return JobContext(1, CancelToken(), devices, {});
}

BatchParams syntheticBatch(std::size_t images, int width, int height, int channels, int depth = 8) {
    BatchParams p;
    p.synthetic.synthetic = SyntheticKind::Random;
    p.source.images = images;
    p.synthetic.width = width;
    p.synthetic.height = height;
    p.synthetic.channels = channels;
    p.synthetic.depth = depth;
    prepareBatch(p);
    return p;
}

/// The first two devices of the set, or a printed reason why there are fewer.
std::vector<int> twoDevices() {
    if (sharedDeviceSet().infos().size() < 2)
        return {};
    return {0, 1};
}

#define REQUIRE_TWO_DEVICES()                                                                      \
    if (twoDevices().empty())                                                                      \
    GTEST_SKIP() << "one OpenCL device only (this test runs with POCL_DEVICES=\"pthread "          \
                    "pthread\" to get two)"

TEST(BatchTest, SyntheticHistogramsEqualIndependentCounts) {
    for (int channels : {1, 3, 4}) {
        BatchParams p = syntheticBatch(5, 61, 17, channels);
        JobContext ctx = contextOf(sharedDeviceSet());
        const BatchResult r = runBatch(ctx, {0}, p);
        ASSERT_EQ(r.images.size(), 5u);
        EXPECT_EQ(r.failed, 0u);
        for (std::size_t i = 0; i < r.images.size(); ++i) {
            const BatchImage& image = r.images[i];
            EXPECT_TRUE(image.verified) << image.file << ": " << image.error;
            const HostImage made = makeSyntheticImage(SyntheticKind::Random, 61, 17, channels, 8,
                                                      std::uint64_t(i) + 1);
            const auto want = independentCounts(made);
            ASSERT_EQ(image.histograms.size(), want.size());
            for (const ChannelHistogram& h : image.histograms) {
                ASSERT_TRUE(want.count(h.name)) << h.name;
                EXPECT_EQ(h.counts, want.at(h.name)) << image.file << " " << h.name;
            }
        }
    }
}

TEST(BatchTest, SixteenBitImagesCountIn256BinsOf256Values) {
    BatchParams p = syntheticBatch(3, 33, 9, 3, 16);
    JobContext ctx = contextOf(sharedDeviceSet());
    const BatchResult r = runBatch(ctx, {0}, p);
    for (std::size_t i = 0; i < r.images.size(); ++i) {
        const BatchImage& image = r.images[i];
        EXPECT_TRUE(image.verified) << image.error;
        const HostImage made =
            makeSyntheticImage(SyntheticKind::Random, 33, 9, 3, 16, std::uint64_t(i) + 1);
        // A channel's bin is its value's high byte.
        const std::uint16_t* v = reinterpret_cast<const std::uint16_t*>(made.data.data());
        for (int c = 0; c < 3; ++c) {
            Counts want{};
            for (std::size_t px = 0; px < made.pixelCount(); ++px)
                ++want[v[px * 3 + std::size_t(c)] >> 8];
            EXPECT_EQ(image.histograms[std::size_t(c)].counts, want) << c;
        }
    }
}

TEST(BatchTest, ShardsMergedEqualOneRun) {
    JobContext ctx = contextOf(sharedDeviceSet());
    const BatchParams whole = syntheticBatch(7, 20, 10, 3);
    const std::string one = batchCsv(BatchPipeline::Histogram, runBatch(ctx, {0}, whole).images);
    std::vector<std::vector<BatchImage>> shards;
    std::vector<std::string> names;
    for (std::size_t s : {2u, 0u, 1u}) {
        BatchParams p = whole;
        p.source.shard = {s, 3};
        prepareBatch(p);
        const std::string csv = batchCsv(BatchPipeline::Histogram, runBatch(ctx, {0}, p).images);
        names.push_back("shard" + std::to_string(s));
        shards.push_back(parseBatchCsv(csv, names.back()).images);
    }
    EXPECT_EQ(batchCsv(BatchPipeline::Histogram, mergeBatchTables(shards, names)), one);
    // A file two shards hold is refused, naming both.
    shards.push_back(shards.front());
    names.push_back("again");
    try {
        mergeBatchTables(shards, names);
        FAIL() << "a file twice was merged";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("is also in shard2"), std::string::npos) << e.what();
    }
}

TEST(BatchTest, TwoDevicesWriteTheTableOfOne) {
    REQUIRE_TWO_DEVICES();
    JobContext ctx = contextOf(sharedDeviceSet());
    const BatchParams p = syntheticBatch(24, 40, 30, 4);
    const BatchResult one = runBatch(ctx, {1}, p);
    const BatchResult both = runBatch(ctx, {0, 1}, p);
    EXPECT_EQ(batchCsv(BatchPipeline::Histogram, both.images),
              batchCsv(BatchPipeline::Histogram, one.images));
    ASSERT_EQ(both.devices.size(), 2u);
    EXPECT_EQ(both.devices[0].images + both.devices[1].images, 24u);
    EXPECT_EQ(both.failed, 0u);
}

TEST(BatchTest, AFailingDeviceHandsItsImageBack) {
    REQUIRE_TWO_DEVICES();
    JobContext ctx = contextOf(sharedDeviceSet());
    // The second device fails on the first image it takes; with 60 images it takes one (both
    // device threads wait on the same queue).
    BatchParams p = syntheticBatch(60, 40, 30, 1);
    const std::string want = batchCsv(BatchPipeline::Histogram, runBatch(ctx, {0}, p).images);
    p.fault = parseDeviceFault("1:0");
    const BatchResult r = runBatch(ctx, {0, 1}, p);
    EXPECT_EQ(batchCsv(BatchPipeline::Histogram, r.images), want);
    EXPECT_EQ(r.failed, 0u);
    EXPECT_NE(r.devices[1].failure.find("failed on purpose"), std::string::npos);
    EXPECT_EQ(r.devices[1].images, 0u);
    EXPECT_EQ(r.devices[0].images, 60u);
    EXPECT_EQ(r.devices[1].handedBack, 1u);
    std::size_t redone = 0;
    for (const BatchImage& image : r.images)
        if (image.redone) {
            ++redone;
            EXPECT_EQ(image.device, 0);
            EXPECT_TRUE(image.verified);
        }
    EXPECT_EQ(redone, 1u);
}

TEST(BatchTest, WhenEveryDeviceFailsEachImageSaysSo) {
    JobContext ctx = contextOf(sharedDeviceSet());
    BatchParams p = syntheticBatch(6, 8, 8, 1);
    p.fault = parseDeviceFault("0:1");
    const BatchResult r = runBatch(ctx, {0}, p);
    // The device ran the first image it took (whichever was decoded first), then failed.
    std::size_t verified = 0;
    for (const BatchImage& image : r.images) {
        if (image.verified) {
            ++verified;
            continue;
        }
        EXPECT_EQ(image.error.rfind("not run: every device failed (failed on purpose", 0), 0u)
            << image.error;
    }
    EXPECT_EQ(verified, 1u);
    EXPECT_EQ(r.failed, 5u);
}

TEST(BatchTest, FolderImagesThroughTheFrontEndsReader) {
    TempDir dir;
    writeFile(dir / "b.png", "fine");
    writeFile(dir / "a.png", "broken");
    writeFile(dir / "c.pgm", "float");
    writeFile(dir / "notes.txt", "not listed");
    // The front end's reader: a 9 x 5 RGB image for "fine", the reasons of a broken file and
    // of a float image otherwise.
    setImageFileReader([](const std::string& path) {
        const std::string text = readFile(path);
        if (text == "broken")
            throw InputError(path + ": damaged or truncated PNG");
        HostImage image = makeSyntheticImage(SyntheticKind::Gradient, 9, 5, 3);
        if (text == "float") {
            image.depth = 32;
            image.channels = 1;
            image.width = 3;
            image.height = 5;
        }
        return image;
    });
    BatchParams p;
    p.source.folder = dir.path().string();
    prepareBatch(p);
    EXPECT_EQ(p.source.files, (std::vector<std::string>{"a.png", "b.png", "c.pgm"}));
    EXPECT_EQ(p.source.skipped, 1u);
    JobContext ctx = contextOf(sharedDeviceSet());
    const BatchResult r = runBatch(ctx, {0}, p);
    setImageFileReader({});
    EXPECT_EQ(r.images[0].error, "damaged or truncated PNG");
    EXPECT_TRUE(r.images[1].verified) << r.images[1].error;
    EXPECT_EQ(r.images[1].histograms.size(), 4u); // r, g, b and the luma
    EXPECT_EQ(r.images[2].error.rfind("32-bit float: batch counts 8- and 16-bit images", 0), 0u)
        << r.images[2].error;
    EXPECT_EQ(r.failed, 2u);
    // The table: one row for each failed image, four for the RGB one, in the folder's order.
    const std::vector<BatchImage> back =
        parseBatchCsv(batchCsv(BatchPipeline::Histogram, r.images), "t.csv").images;
    ASSERT_EQ(back.size(), 3u);
    EXPECT_EQ(back[0].error, "damaged or truncated PNG");
    EXPECT_EQ(back[1].histograms.size(), 4u);
    EXPECT_EQ(back[1].histograms[0].counts, r.images[1].histograms[0].counts);
    const std::vector<ChannelHistogram> totals = batchTotals(r.images);
    ASSERT_EQ(totals.size(), 4u);
    EXPECT_EQ(totals.back().name, "gray");
}

TEST(BatchTest, RefusalsNameTheOption) {
    auto usage = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(usage([] { parseBatchPipeline("sharpen"); }),
              "--pipeline: 'sharpen' is not a batch pipeline (histogram, joint, blur or equalize)");
    EXPECT_EQ(usage([] { parseBatchPipeline("bow"); }).rfind("--pipeline: bow is not batched: ", 0),
              0u);
    EXPECT_EQ(usage([] { parseDeviceFault("3"); }).rfind("HISTLAB_DEVICE_FAIL: '3' is not P:N", 0),
              0u);
    EXPECT_EQ(usage([] {
                  BatchParams p;
                  prepareBatch(p);
              }).rfind("batch: which folder?", 0),
              0u);
    EXPECT_EQ(usage([] {
                  BatchParams p;
                  p.synthetic.synthetic = SyntheticKind::Random;
                  p.source.images = 2;
                  prepareBatch(p);
              }),
              "--synthetic: needs --images N, --width W and --height H");
    EXPECT_EQ(usage([] {
                  BatchParams p;
                  p.synthetic.synthetic = SyntheticKind::Random;
                  p.source.images = 2;
                  p.synthetic.width = 1 << 20;
                  p.synthetic.height = 1 << 20;
                  prepareBatch(p);
              }).rfind("--width/--height: ", 0),
              0u);
    // A folder in a build without an image reader.
    TempDir dir;
    writeFile(dir / "a.png", "x");
    BatchParams p;
    p.source.folder = dir.path().string();
    EXPECT_THROW(prepareBatch(p), InputError);
}

TEST(BatchTest, BatchTablesRefuseWhatTheyCannotHold) {
    EXPECT_THROW(parseBatchCsv("bin,gray\n0,1\n", "h.csv"), InputError);
    std::vector<BatchImage> images(1);
    images[0].file = "a.png";
    images[0].width = images[0].height = 1;
    images[0].channels = 1;
    images[0].depth = 8;
    images[0].verified = true;
    images[0].histograms.push_back({"gray", {}});
    std::string csv = batchCsv(BatchPipeline::Histogram, images);
    const std::string bad = csv.substr(0, csv.size() - 2) + "x\n"; // the last count
    try {
        parseBatchCsv(bad, "t.csv");
        FAIL() << "a count that is no number was read";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "t.csv:2: b255: 'x' is not a whole number");
    }
}

// The status column says each row in the Status words, the error goes to the detail column,
// and a table read back (merge) writes the same words and details.
TEST(BatchTest, BatchTableStatusIsAStatusWordWithItsDetail) {
    std::vector<BatchImage> images(5);
    const char* files[] = {"a.png", "b.png", "c.png", "d.png", "e.png"};
    for (std::size_t i = 0; i < images.size(); ++i) {
        images[i].file = files[i];
        images[i].width = images[i].height = 1;
        images[i].channels = 1;
        images[i].depth = 8;
    }
    images[0].verified = true;
    images[0].values = {"2", "reflect101", "a.png", "0123456789abcdef"};
    images[1].error = "mismatch: pixel (0, 0)";
    images[1].values = {"2", "reflect101", "", "0123456789abcdef"};
    images[2].error = "unsupported on CPU: too big";
    images[3].verified = true; // verified, but its result could not be written
    images[3].error = "not written: disk full";
    images[3].values = {"2", "reflect101", "", "0123456789abcdef"};
    images[4].error = "file is empty";
    images[4].width = images[4].height = images[4].channels = images[4].depth = 0;
    const std::string csv = batchCsv(BatchPipeline::Blur, images);
    const std::vector<std::vector<std::string>> rows = parseCsv(csv, "t.csv");
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(rows[0][1], "status");
    EXPECT_EQ(rows[0][2], "detail");
    const char* want[][2] = {{"verified", ""},
                             {"mismatch", "mismatch: pixel (0, 0)"},
                             {"unsupported", "unsupported on CPU: too big"},
                             {"failed", "not written: disk full"},
                             {"failed", "file is empty"}};
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(rows[i + 1][1], want[i][0]) << files[i];
        EXPECT_EQ(rows[i + 1][2], want[i][1]) << files[i];
    }
    EXPECT_EQ(batchCsv(BatchPipeline::Blur, parseBatchCsv(csv, "t.csv").images), csv);
    try {
        parseBatchCsv(csv.substr(0, csv.find("a.png,verified")) + "a.png,ok" +
                          csv.substr(csv.find("a.png,verified") + 14),
                      "t.csv");
        FAIL() << "a status of no Status word was read";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("t.csv:2: status: unknown status 'ok'", 0), 0u)
            << e.what();
    }
}

// ---------------------------------------------------------------------------------------------
// The other pipelines: joint, blur, equalize.

/// FNV-1a 64 of the bytes, as 16 hex digits, written here apart from the core's.
std::string fnv1a(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::uint8_t b : bytes)
        h = (h ^ b) * 0x100000001b3ull;
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

double entropy(const std::map<int, std::uint64_t>& counts, std::uint64_t total) {
    double h = 0;
    for (const auto& [cell, c] : counts) {
        const double q = double(c) / double(total);
        h -= q * std::log2(q);
    }
    return h;
}

TEST(BatchTest, JointCountsTwoChannelsOfEachImage) {
    BatchParams p;
    p.synthetic.synthetic = SyntheticKind::Random;
    p.source.images = 4;
    p.synthetic.width = 37;
    p.synthetic.height = 11;
    p.synthetic.channels = 3;
    p.pipeline = BatchPipeline::Joint;
    p.pair = "r,b";
    prepareBatch(p);
    JobContext ctx = contextOf(sharedDeviceSet());
    const BatchResult r = runBatch(ctx, {0}, p);
    ASSERT_EQ(r.images.size(), 4u);
    EXPECT_EQ(r.failed, 0u);
    for (std::size_t i = 0; i < r.images.size(); ++i) {
        const BatchImage& image = r.images[i];
        ASSERT_TRUE(image.verified) << image.error;
        // The pairs (r, b) of each pixel, counted here, and their entropies.
        const HostImage made =
            makeSyntheticImage(SyntheticKind::Random, 37, 11, 3, 8, std::uint64_t(i) + 1);
        std::map<int, std::uint64_t> joint, a, b;
        double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0; // for Pearson's r
        for (std::size_t px = 0; px < made.pixelCount(); ++px) {
            const int x = made.data[px * 3], y = made.data[px * 3 + 2];
            ++joint[x * 256 + y];
            ++a[x];
            ++b[y];
            sx += x;
            sy += y;
            sxx += double(x) * x;
            syy += double(y) * y;
            sxy += double(x) * y;
        }
        const std::uint64_t n = made.pixelCount();
        const double ha = entropy(a, n), hb = entropy(b, n), hab = entropy(joint, n);
        ASSERT_EQ(image.values.size(), 10u + batchColocColumns().size());
        EXPECT_EQ(image.values[0], "r");
        EXPECT_EQ(image.values[1], "b");
        EXPECT_EQ(image.values[2], "256x256");
        EXPECT_EQ(image.values[3], std::to_string(n));
        EXPECT_EQ(image.values[4], "0");
        EXPECT_NEAR(std::stod(image.values[5]), ha, 1e-7);
        EXPECT_NEAR(std::stod(image.values[6]), hb, 1e-7);
        EXPECT_NEAR(std::stod(image.values[7]), hab, 1e-7);
        EXPECT_NEAR(std::stod(image.values[8]), ha + hb - hab, 1e-7);
        EXPECT_NEAR(std::stod(image.values[9]), (ha + hb) / hab, 1e-7);
        // Then the colocalisation, Pearson's r first (nine significant digits).
        const double nd = double(n);
        const double r =
            (nd * sxy - sx * sy) / std::sqrt((nd * sxx - sx * sx) * (nd * syy - sy * sy));
        EXPECT_NEAR(std::stod(image.values[10]), r, 1e-8);
    }
    // The table reads back as it was written.
    const std::string csv = batchCsv(BatchPipeline::Joint, r.images);
    const BatchTable back = parseBatchCsv(csv, "joint.csv");
    EXPECT_EQ(back.pipeline, BatchPipeline::Joint);
    EXPECT_EQ(batchCsv(back.pipeline, back.images), csv);
    // A gray image has no r: its row says why.
    p.synthetic.channels = 1;
    prepareBatch(p);
    const BatchResult gray = runBatch(ctx, {0}, p);
    EXPECT_EQ(gray.failed, 4u);
    EXPECT_NE(gray.images[0].error.find("r"), std::string::npos) << gray.images[0].error;
    EXPECT_TRUE(gray.images[0].values.empty());
}

/// The front end's writer, as a test sees it: each written image by its path.
struct Written {
    std::mutex m;
    std::map<std::string, HostImage> images;
};

Written& written() {
    static Written w;
    return w;
}

void recordWrites() {
    {
        std::lock_guard lock(written().m);
        written().images.clear();
    }
    setImageFileWriter([](const HostImage& image, const std::string& path) {
        if (path.find("unwritable") != std::string::npos)
            throw InputError(path + ": cannot write here (a test's writer)");
        std::lock_guard lock(written().m);
        written().images[path] = image;
    });
}

TEST(BatchTest, BlurAndEqualizeWriteVerifiedResults) {
    TempDir dir;
    recordWrites();
    for (BatchPipeline pipeline : {BatchPipeline::Blur, BatchPipeline::Equalize}) {
        for (int channels : {1, 3, 4}) {
            BatchParams p;
            p.synthetic.synthetic = SyntheticKind::Skewed;
            p.source.images = 3;
            p.synthetic.width = 45;
            p.synthetic.height = 23;
            p.synthetic.channels = channels;
            p.synthetic.depth = channels == 3 ? 16 : 8;
            p.pipeline = pipeline;
            if (pipeline == BatchPipeline::Blur)
                p.radius = 2;
            p.out = (dir / ("out" + std::to_string(channels))).string();
            prepareBatch(p);
            JobContext ctx = contextOf(sharedDeviceSet());
            const BatchResult r = runBatch(ctx, {0}, p);
            EXPECT_EQ(r.failed, 0u);
            for (std::size_t i = 0; i < r.images.size(); ++i) {
                const BatchImage& image = r.images[i];
                ASSERT_TRUE(image.verified) << image.error;
                const HostImage made = makeSyntheticImage(SyntheticKind::Skewed, 45, 23, channels,
                                                          p.synthetic.depth, std::uint64_t(i) + 1);
                const HostImage want = pipeline == BatchPipeline::Blur
                                           ? boxBlurReference(made, 2, BorderMode::Reflect101)
                                           : equalizeReference(made);
                const std::size_t column = batchOutputColumn(pipeline);
                ASSERT_EQ(image.values.size(), column + 2);
                if (pipeline == BatchPipeline::Blur) {
                    EXPECT_EQ(image.values[0], "2");
                    EXPECT_EQ(image.values[1], "reflect101");
                }
                EXPECT_EQ(image.values[column], image.file + ".png");
                EXPECT_EQ(image.values[column + 1], fnv1a(want.data));
                std::lock_guard lock(written().m);
                const auto at = written().images.find(p.out + "/" + image.file + ".png");
                ASSERT_NE(at, written().images.end()) << image.file;
                EXPECT_EQ(at->second.data, want.data);
            }
        }
    }
    // A result that cannot be written is a row with the reason; the others are written.
    BatchParams p = syntheticBatch(2, 8, 8, 1);
    p.pipeline = BatchPipeline::Equalize;
    p.out = (dir / "unwritable").string();
    prepareBatch(p);
    JobContext ctx = contextOf(sharedDeviceSet());
    const BatchResult r = runBatch(ctx, {0}, p);
    setImageFileWriter({});
    EXPECT_EQ(r.failed, 2u);
    EXPECT_EQ(r.mismatches, 0u);
    EXPECT_EQ(r.images[0].error, "not written: cannot write here (a test's writer)");
    EXPECT_EQ(r.images[0].values[batchOutputColumn(BatchPipeline::Equalize)], "");
}

TEST(BatchTest, TwoDevicesAndShardsGiveOneTableForEveryPipeline) {
    JobContext ctx = contextOf(sharedDeviceSet());
    for (BatchPipeline pipeline :
         {BatchPipeline::Joint, BatchPipeline::Blur, BatchPipeline::Equalize}) {
        BatchParams p;
        p.synthetic.synthetic = SyntheticKind::Random;
        p.source.images = 9;
        p.synthetic.width = 30;
        p.synthetic.height = 20;
        p.synthetic.channels = 4;
        p.pipeline = pipeline;
        if (pipeline == BatchPipeline::Joint) {
            p.pair = "gray,a";
            p.bins = std::pair{16, 64};
        }
        prepareBatch(p);
        const std::string one = batchCsv(pipeline, runBatch(ctx, {0}, p).images);
        if (!twoDevices().empty()) {
            const BatchResult both = runBatch(ctx, {0, 1}, p);
            EXPECT_EQ(batchCsv(pipeline, both.images), one) << batchPipelineName(pipeline);
        }
        std::vector<std::vector<BatchImage>> shards;
        std::vector<std::string> names;
        for (std::size_t s : {1u, 0u}) {
            BatchParams shard = p;
            shard.source.shard = {s, 2};
            prepareBatch(shard);
            names.push_back("shard" + std::to_string(s));
            shards.push_back(
                parseBatchCsv(batchCsv(pipeline, runBatch(ctx, {0}, shard).images), names.back())
                    .images);
        }
        EXPECT_EQ(batchCsv(pipeline, mergeBatchTables(shards, names)), one)
            << batchPipelineName(pipeline);
    }
}

TEST(BatchTest, OutputsNeverReplaceImagesAndNeverShareAName) {
    TempDir dir;
    for (const char* name : {"a.jpg", "a.png", "b.tif", "c.bmp"})
        writeFile(dir / name, "x");
    setImageFileReader([](const std::string&) { return HostImage(); });
    recordWrites();
    BatchParams p;
    p.source.folder = dir.path().string();
    p.pipeline = BatchPipeline::Blur;
    p.out = (dir / "results").string();
    prepareBatch(p);
    EXPECT_EQ(p.outputs, (std::vector<std::string>{"a.jpg.png", "a.png.png", "b.png", "c.png"}));
    // Its own folder, or one inside it that --recursive would read, is refused.
    BatchParams same = p;
    same.out = dir.path().string() + "/.";
    EXPECT_THROW(prepareBatch(same), InputError);
    BatchParams inside = p;
    inside.source.recursive = true;
    try {
        prepareBatch(inside);
        ADD_FAILURE() << "an output folder that --recursive reads was taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("inside the images' folder"), std::string::npos)
            << e.what();
    }
    // A shard names its files as one run over the whole folder would.
    BatchParams shard = p;
    shard.source.shard = {1, 2};
    prepareBatch(shard);
    EXPECT_EQ(shard.source.files, (std::vector<std::string>{"a.png", "c.bmp"}));
    EXPECT_EQ(shard.outputs, (std::vector<std::string>{"a.png.png", "c.png"}));
    // A link keeps its own name in the listing, wherever it points.
    TempDir elsewhere;
    writeFile(elsewhere / "far.png", "x");
    std::filesystem::create_symlink(elsewhere / "far.png", dir / "near.png");
    prepareBatch(p);
    EXPECT_EQ(p.source.files.back(), "near.png");
    EXPECT_EQ(p.outputs.back(), "near.png");
    // --out above the folder, with --recursive: imgs/x.jpg would be written as the image x.png.
    TempDir parent;
    std::filesystem::create_directories(parent / "imgs" / "imgs");
    writeFile(parent / "imgs" / "x.png", "x");
    writeFile(parent / "imgs" / "imgs" / "x.jpg", "x");
    BatchParams over;
    over.source.folder = (parent / "imgs").string();
    over.source.recursive = true;
    over.pipeline = BatchPipeline::Equalize;
    over.out = parent.path().string();
    try {
        prepareBatch(over);
        ADD_FAILURE() << "a result over an image was allowed";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("would write imgs/x.png over the image"),
                  std::string::npos)
            << e.what();
    }
    setImageFileReader({});
    setImageFileWriter({});
    // Without a writer, --out is refused before any work.
    EXPECT_THROW(prepareBatch(p), InputError);
}

TEST(BatchTest, EachPipelinesOptionsAreItsOwn) {
    auto usage = [](const std::function<void(BatchParams&)>& set) {
        BatchParams p;
        p.synthetic.synthetic = SyntheticKind::Random;
        p.source.images = 1;
        p.synthetic.width = p.synthetic.height = 4;
        set(p);
        try {
            prepareBatch(p);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(usage([](BatchParams& p) { p.radius = 2; }),
              "--radius: only with --pipeline blur (this batch runs histogram)");
    EXPECT_EQ(usage([](BatchParams& p) {
                  p.pipeline = BatchPipeline::Blur;
                  p.pair = "r,g";
              }),
              "--pair: only with --pipeline joint (this batch runs blur)");
    EXPECT_EQ(usage([](BatchParams& p) { p.out = "x"; })
                  .rfind("--out: only with --pipeline blur "
                         "or equalize",
                         0),
              0u);
    EXPECT_EQ(usage([](BatchParams& p) { p.pipeline = BatchPipeline::Joint; }),
              "--pair: joint needs two channels of each image, e.g. --pair r,g");
    EXPECT_EQ(usage([](BatchParams& p) {
                  p.pipeline = BatchPipeline::Joint;
                  p.pair = "r,x";
              }),
              "--pair: 'x' is not gray, r, g, b or a");
    EXPECT_EQ(usage([](BatchParams& p) {
                  p.pipeline = BatchPipeline::Joint;
                  p.pair = "r,g";
              }),
              "accepted");
}

} // namespace
} // namespace histlab::test
