// Folders of images over several devices: the table is the same whatever devices ran it and
// whichever finished first, shards merged equal one run, a device that fails hands its image
// back, every histogram equals counts made independently of the core's reference, and broken
// images are rows with their reason. Its ctest process runs with POCL_DEVICES="pthread pthread"
// so that PoCL shows two devices.
#include "pipelines/batch/batch.h"
#include "runtime/errors.h"
#include "unitsupport.h"

#include <gtest/gtest.h>

#include <cstring>

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
    const std::string one = batchCsv(runBatch(ctx, {0}, whole).images, {});
    std::vector<std::vector<BatchImage>> shards;
    std::vector<std::string> names;
    for (std::size_t s : {2u, 0u, 1u}) {
        BatchParams p = whole;
        p.source.shard = {s, 3};
        prepareBatch(p);
        const std::string csv = batchCsv(runBatch(ctx, {0}, p).images, {});
        names.push_back("shard" + std::to_string(s));
        shards.push_back(parseBatchCsv(csv, names.back()));
    }
    EXPECT_EQ(batchCsv(mergeBatchTables(shards, names), {}), one);
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
    EXPECT_EQ(batchCsv(both.images, both.devices), batchCsv(one.images, one.devices));
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
    const std::string want = batchCsv(runBatch(ctx, {0}, p).images, {});
    p.fault = parseDeviceFault("1:0");
    const BatchResult r = runBatch(ctx, {0, 1}, p);
    EXPECT_EQ(batchCsv(r.images, r.devices), want);
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
    const std::vector<BatchImage> back = parseBatchCsv(batchCsv(r.images, r.devices), "t.csv");
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
    EXPECT_EQ(usage([] { parseBatchPipeline("blur"); }),
              "--pipeline: blur is not batched yet; batch runs histogram");
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
    std::string csv = batchCsv(images, {});
    const std::string bad = csv.substr(0, csv.size() - 2) + "x\n"; // the last count
    try {
        parseBatchCsv(bad, "t.csv");
        FAIL() << "a count that is no number was read";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "t.csv: line 2: count 'x' is not a whole number");
    }
}

} // namespace
} // namespace histlab::test
