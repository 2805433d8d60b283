// Bag of words against OpenCV: a codebook written by HistLab (YAML, XML, JSON) reads back
// bit for bit and is what BOWImgDescriptorExtractor::setVocabulary takes, and the extractor's
// histogram of a real image equals HistLab's L1 weights of the same KAZE descriptors, counted
// on the device; FileStorage descriptor files; BFMatcher's labels beside the exact ones.
#include "unitsupport.h"

#include "pipelines/bow/kmeans.h"
#include "report/files.h"
#include "runtime/errors.h"
#include "services/bowopencv.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <filesystem>

namespace histlab {
namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(HISTLAB_SOURCE_DIR) + "/resources/sample.png";

fs::path scratch(const std::string& name) {
    return fs::temp_directory_path() / ("histlab-bowcv-" + std::to_string(::getpid()) + name);
}

TEST(BowOpenCv, CodebookRoundTripInEveryFormat) {
    const BowOpenCv cv = bowThroughOpenCv();
    const Codebook c = makeSyntheticCodebook(37, 64, 5);
    for (const char* ext : {".yml", ".xml", ".json"}) {
        SCOPED_TRACE(ext);
        const fs::path path = scratch(ext);
        writeFileAtomically(path.string(), cv.codebookText(c, path.string()));
        const Codebook back = cv.readCodebook(path.string());
        EXPECT_EQ(back.k, c.k);
        EXPECT_EQ(back.dim, c.dim);
        EXPECT_EQ(back.values, c.values);
        cv::FileStorage fs(path.string(), cv::FileStorage::READ);
        cv::Mat vocabulary;
        fs["vocabulary"] >> vocabulary;
        EXPECT_EQ(vocabulary.rows, 37);
        EXPECT_EQ(vocabulary.type(), CV_32F);
        fs::remove(path);
    }
    EXPECT_THROW(cv.readCodebook(scratch("-missing.yml").string()), InputError);
    const fs::path notStorage = scratch("-bad.yml");
    writeFileAtomically(notStorage.string(), "this is not yaml: [\n");
    EXPECT_THROW(cv.readCodebook(notStorage.string()), InputError);
    fs::remove(notStorage);
}

TEST(BowOpenCv, ExtractorAgreesWithTheDeviceOnARealImage) {
    const BowOpenCv cv = bowThroughOpenCv();
    DescribeOptions options;
    options.maxSide = 0; // the image as OpenCV reads it
    const ImageFeatures f = cv.describe(kSample, options);
    ASSERT_GT(f.descriptors.count, 50u);
    ASSERT_EQ(f.descriptors.dim, 64u);
    // A codebook from these descriptors, through HistLab's k-means and its FileStorage file.
    KmeansParams params;
    params.k = 16;
    params.maxIterations = 5;
    const Codebook c =
        kmeans(f.descriptors, params, referenceAssign(f.descriptors), CancelToken{}).codebook;
    const fs::path path = scratch(".yml");
    writeFileAtomically(path.string(), cv.codebookText(c, path.string()));
    cv::FileStorage fs(path.string(), cv::FileStorage::READ);
    cv::Mat vocabulary;
    fs["vocabulary"] >> vocabulary;
    fs::remove(path);

    cv::BOWImgDescriptorExtractor extractor(cv::KAZE::create(),
                                            cv::DescriptorMatcher::create("BruteForce"));
    extractor.setVocabulary(vocabulary);
    // The luma HistLab describes is cvtColor's (lumaOf matches it on every color).
    cv::Mat gray = cv::imread(kSample, cv::IMREAD_UNCHANGED);
    if (gray.channels() == 3)
        cv::cvtColor(gray, gray, cv::COLOR_BGR2GRAY);
    else if (gray.channels() == 4)
        cv::cvtColor(gray, gray, cv::COLOR_BGRA2GRAY);
    std::vector<cv::KeyPoint> keypoints;
    cv::KAZE::create()->detect(gray, keypoints);
    cv::Mat theirs;
    extractor.compute(gray, keypoints, theirs);
    ASSERT_EQ(theirs.cols, 16);

    BowAssigner assigner(test::sharedDevice(), BowKernel::TiledNorm);
    assigner.setDescriptors(f.descriptors);
    assigner.setCodebook(c);
    assigner.launch();
    const Assignment ours = assigner.result();
    EXPECT_EQ(ours.labels, assignReference(f.descriptors, c).labels);
    // The same KAZE keypoints on the same luma, so the same descriptors; the extractor divides
    // by their count, as l1 does.
    ASSERT_EQ(std::size_t(keypoints.size()), f.descriptors.count);
    for (int i = 0; i < 16; ++i)
        EXPECT_FLOAT_EQ(theirs.at<float>(0, i),
                        float(double(ours.histogram[std::size_t(i)]) / double(f.descriptors.count)))
            << "word " << i;
}

TEST(BowOpenCv, DescriptorFilesAndBfMatcher) {
    const BowOpenCv cv = bowThroughOpenCv();
    setBowOpenCv(cv); // as the front ends do: readDescriptorFile reads FileStorage through it
    const Descriptors d = makeSyntheticDescriptors(500, 32, 3);
    const Codebook c = makeSyntheticCodebook(20, 32, 4);
    const fs::path path = scratch("-descriptors.yml");
    {
        cv::FileStorage fs(path.string(), cv::FileStorage::WRITE);
        fs << "descriptors"
           << cv::Mat(int(d.count), int(d.dim), CV_32F, const_cast<float*>(d.values.data()));
    }
    const Descriptors back = readDescriptorFile(path.string());
    fs::remove(path);
    EXPECT_EQ(back.values, d.values);
    // BFMatcher ranks in float: on these well-separated clusters it agrees with the exact
    // labels (the bench reports any disagreement on other data).
    EXPECT_EQ(cv.bfMatch(d, c), assignReference(d, c).labels);
}

// Nesting counted on the bytes, before OpenCV's parsers (which recurse once a level and
// overflowed the stack at some 100,000 levels): what a codebook needs passes, deeper is refused.
TEST(BowOpenCv, NestingIsCountedBeforeParsing) {
    EXPECT_EQ(storageNesting("%YAML:1.0\n---\nv: [ [ 1 ], [ 2 ] ]\n"), 3u);
    EXPECT_EQ(storageNesting("%YAML:1.0\n---\nv: \"[[[[\" # [[[[\n"), 1u);
    EXPECT_EQ(storageNesting("%YAML:1.0\nv:\n  - - - 1\n"), 5u);
    EXPECT_EQ(storageNesting("{\"a\": [{\"b\": \"]]]\\\"[\"}]}"), 4u);
    EXPECT_EQ(storageNesting("<?xml version=\"1.0\"?><a><b x=\">\"/><!-- <c> --><c></c></a>"), 2u);
    const std::string deep =
        "%YAML:1.0\n---\nvocabulary: " + std::string(100000, '[') + std::string(100000, ']') + "\n";
    try {
        codebookFromStorage(deep, "n.yml");
        FAIL() << "a file nested 100,001 levels deep was parsed";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "n.yml: nested 100001 levels deep (at most 64)");
    }
    const std::string nan = "%YAML:1.0\n---\nvocabulary: !!opencv-matrix\n   rows: 1\n   cols: "
                            "2\n   dt: f\n   data: [ 1., .Nan ]\n";
    try {
        codebookFromStorage(nan, "c.yml");
        FAIL() << "a NaN word was read";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "c.yml: row 1, column 2: nan is not a finite number");
    }
}

} // namespace
} // namespace histlab
