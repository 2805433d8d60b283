// Collections as bags of words: the weights against sums by hand (L1 as OpenCV's extractor,
// L2, tf-idf over the collection), cosine neighbours, the CSV that shards write read back and
// merged into what one run writes, the folder listing (sorted, shards, kinds of files, FIFOs
// never opened), CSV descriptor files, and RFC 4180 CSV.
#include "pipelines/bow/collection.h"

#include "image/image.h"
#include "report/table.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace histlab {
namespace {

namespace fs = std::filesystem;

ImageWords words(const std::string& file, std::vector<std::uint64_t> counts) {
    ImageWords w;
    w.file = file;
    w.counts = std::move(counts);
    for (auto c : w.counts)
        w.descriptors += c;
    return w;
}

WordTable sampleTable() {
    WordTable t;
    t.k = 3;
    t.images = {words("a.jpg", {2, 0, 2}), words("b.jpg", {0, 1, 3}), words("c.jpg", {1, 0, 0})};
    ImageWords broken;
    broken.file = "d.jpg";
    broken.error = "truncated JPEG";
    t.images.push_back(broken);
    return t;
}

TEST(BowCollection, WeightsAgainstHandSums) {
    const WordTable t = sampleTable();
    const auto none = weightedHistograms(t, BowWeighting::None);
    EXPECT_EQ(none[0], (std::vector<double>{2, 0, 2}));
    EXPECT_TRUE(none[3].empty());
    const auto l1 = weightedHistograms(t, BowWeighting::L1);
    EXPECT_EQ(l1[1], (std::vector<double>{0, 0.25, 0.75}));
    const auto l2 = weightedHistograms(t, BowWeighting::L2);
    EXPECT_DOUBLE_EQ(l2[0][0], 1 / std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(l2[0][2], 1 / std::sqrt(2.0));
    // Three described images; word 0 in two of them, word 1 in one, word 2 in two.
    const auto idf = inverseDocumentFrequency(t);
    EXPECT_DOUBLE_EQ(idf[0], std::log(3.0 / 2.0));
    EXPECT_DOUBLE_EQ(idf[1], std::log(3.0));
    EXPECT_DOUBLE_EQ(idf[2], std::log(3.0 / 2.0));
    const auto tfidf = weightedHistograms(t, BowWeighting::TfIdf);
    EXPECT_DOUBLE_EQ(tfidf[1][1], 0.25 * std::log(3.0));
    EXPECT_DOUBLE_EQ(tfidf[1][2], 0.75 * std::log(1.5));
    EXPECT_DOUBLE_EQ(tfidf[0][1], 0.0);
}

TEST(BowCollection, NearestByCosine) {
    const std::vector<std::vector<double>> w = {{1, 0}, {0.9, 0.1}, {0, 1}, {}, {1, 0}};
    const auto near = nearestImages(w, 2);
    ASSERT_EQ(near[0].size(), 2u);
    EXPECT_EQ(near[0][0].image, 4u); // identical: cosine 1
    EXPECT_DOUBLE_EQ(near[0][0].similarity, 1.0);
    EXPECT_EQ(near[0][1].image, 1u);
    EXPECT_TRUE(near[3].empty()); // a failed image has no neighbours and is no one's
    for (const auto& n : near)
        for (const Neighbour& x : n)
            EXPECT_NE(x.image, 3u);
    EXPECT_EQ(cosineSimilarity({0, 0}, {1, 1}), 0.0);
}

TEST(BowCollection, CsvRoundTripAndShardsMergeIntoOneRun) {
    const WordTable whole = sampleTable();
    const WordTable back = parseWordsCsv(wordsCsv(whole, BowWeighting::None), "whole.csv");
    ASSERT_EQ(back.images.size(), whole.images.size());
    for (std::size_t i = 0; i < whole.images.size(); ++i) {
        EXPECT_EQ(back.images[i].file, whole.images[i].file);
        EXPECT_EQ(back.images[i].error, whole.images[i].error);
        EXPECT_EQ(back.images[i].counts, whole.images[i].counts);
    }
    // Shards of the sorted listing (entries I, I + 2, ...) merge into the same table, and so
    // into the same tf-idf file, byte for byte.
    WordTable s0, s1;
    s0.k = s1.k = 3;
    for (std::size_t i = 0; i < whole.images.size(); ++i)
        (i % 2 ? s1 : s0).images.push_back(whole.images[i]);
    const WordTable merged =
        mergeWordTables({parseWordsCsv(wordsCsv(s1, BowWeighting::None), "s1.csv"),
                         parseWordsCsv(wordsCsv(s0, BowWeighting::None), "s0.csv")},
                        {"s1.csv", "s0.csv"});
    for (BowWeighting w : {BowWeighting::None, BowWeighting::L1, BowWeighting::TfIdf})
        EXPECT_EQ(wordsCsv(merged, w), wordsCsv(whole, w)) << bowWeightingName(w);
    // A file in two shards, a K that differs, weights instead of counts: refused by name.
    EXPECT_THROW(mergeWordTables({s0, s0}, {"x.csv", "y.csv"}), InputError);
    EXPECT_THROW(parseWordsCsv(wordsCsv(s0, BowWeighting::None), "s0.csv", 4), InputError);
    try {
        parseWordsCsv(wordsCsv(s0, BowWeighting::L1), "l1.csv");
        FAIL() << "weights were taken as counts";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("l1.csv: line 2: weighted by l1"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(parseWordsCsv("file,descriptors,status,weighting,w0\na,3,ok,none,2\n", "sum"),
                 InputError); // the counts do not add up to the descriptors
    EXPECT_THROW(parseWordsCsv("name,value\n", "other.csv"), InputError);
}

TEST(BowCollection, CsvParsing) {
    const auto rows = parseCsv("a,\"b,c\",\"say \"\"hi\"\"\"\r\n1,,3\n\n\"x\ny\"\n", "t");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"a", "b,c", "say \"hi\""}));
    EXPECT_EQ(rows[1], (std::vector<std::string>{"1", "", "3"}));
    EXPECT_EQ(rows[2], (std::vector<std::string>{"x\ny"}));
    EXPECT_THROW(parseCsv("a,\"open\n", "t"), InputError);
    // The file names a table writes come back as they were.
    Table t({"file"});
    t.row().add("odd, \"name\".jpg");
    EXPECT_EQ(parseCsv(t.csv(), "t")[1][0], "odd, \"name\".jpg");
}

class BowFolder : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("histlab-bow-" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "sub");
        for (const char* name : {"b.png", "a.JPG", "c.tif", "notes.txt", "d.csv", "sub/e.jpg"})
            std::ofstream(m_dir / name) << "x";
        ::mkfifo((m_dir / "pipe.png").c_str(), 0600);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

TEST_F(BowFolder, ListsSortedImagesShardsAndNeverFifos) {
    std::size_t skipped = 0;
    const std::string dir = m_dir.string();
    EXPECT_EQ(listCollection(dir, false, false, {}, &skipped),
              (std::vector<std::string>{"a.JPG", "b.png", "c.tif"}));
    EXPECT_EQ(skipped, 3u); // notes.txt, d.csv, the FIFO
    EXPECT_EQ(listCollection(dir, true, false, {}),
              (std::vector<std::string>{"a.JPG", "b.png", "c.tif", "sub/e.jpg"}));
    EXPECT_EQ(listCollection(dir, true, false, Shard{1, 2}),
              (std::vector<std::string>{"b.png", "sub/e.jpg"}));
    EXPECT_EQ(listCollection(dir, false, true, {}), (std::vector<std::string>{"d.csv"}));
    EXPECT_THROW(listCollection(dir + "/missing", false, false, {}), InputError);
    EXPECT_THROW(listCollection(dir + "/b.png", false, false, {}), InputError);
}

// A collection holds every format the loader reads, GIF, TGA and ICO included (one list,
// imageFileExtensions, which the window's Open dialog also offers).
TEST_F(BowFolder, ListsEveryFormatTheLoaderReads) {
    const fs::path dir = m_dir / "formats";
    fs::create_directories(dir);
    std::vector<std::string> want;
    for (const std::string& e : imageFileExtensions()) {
        want.push_back("x." + e);
        std::ofstream(dir / want.back()) << "x";
    }
    std::sort(want.begin(), want.end());
    EXPECT_EQ(listCollection(dir.string(), false, false, {}), want);
    for (const char* e : {"gif", "tga", "ico", "cur", "pam", "j2k", "png", "jpg", "tiff", "exr"})
        EXPECT_NE(std::find(want.begin(), want.end(), std::string("x.") + e), want.end()) << e;
}

TEST_F(BowFolder, CsvDescriptorFiles) {
    const fs::path good = m_dir / "good.csv", ragged = m_dir / "ragged.csv",
                   words = m_dir / "words.csv";
    std::ofstream(good) << "f0,f1,f2,f3\n1,2,3,4\n5,6,7,8.5\n";
    std::ofstream(ragged) << "1,2,3,4\n5,6,7\n";
    std::ofstream(words) << "1,2\nx,3\n";
    const Descriptors d = readDescriptorFile(good.string());
    EXPECT_EQ(d.count, 2u);
    EXPECT_EQ(d.dim, 4u);
    EXPECT_EQ(d.values.back(), 8.5f);
    try {
        readDescriptorFile(ragged.string());
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("line 2 has 3 values"), std::string::npos) << e.what();
    }
    EXPECT_THROW(readDescriptorFile(words.string()), InputError);
}

TEST(BowCollection, ShardAndNames) {
    EXPECT_EQ(parseShard("2/5").index, 2u);
    EXPECT_EQ(parseShard("2/5").count, 5u);
    EXPECT_THROW(parseShard("5/5"), UsageError);
    EXPECT_THROW(parseShard("1"), UsageError);
    EXPECT_THROW(parseShard("-1/3"), UsageError);
    EXPECT_THROW(parseBowWeighting("idf"), UsageError);
    EXPECT_THROW(parseBowDetector("surf"), UsageError);
    EXPECT_EQ(parseBowWeighting("tfidf"), BowWeighting::TfIdf);
}

} // namespace
} // namespace histlab
