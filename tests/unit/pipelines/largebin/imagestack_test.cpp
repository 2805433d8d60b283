// The stack run on pages given by a page opener of the test's own (no decoder): the stack's
// histogram is the sum of the pages' runs, the pages are read one at a time in order, a page of
// another depth is refused naming it, and a cancel between pages stops the run there.
#include "unitsupport.h"

#include "pipelines/largebin/imagestack.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace histlab {
namespace {

/// Pages made on request, each a 16-bit gray synthetic image seeded by its page; `depthOf`
/// gives a page another depth; every read is logged.
class FakePages final : public ImagePageReader {
public:
    FakePages(int pages, std::vector<int>* log, int otherDepthPage)
        : m_pages(pages)
        , m_log(log)
        , m_other(otherDepthPage) {}
    int pages() const override { return m_pages; }
    HostImage read(int page) override {
        m_log->push_back(page);
        HostImage image = makeSyntheticImage(SyntheticKind::Random, 37 + page, 11, 1,
                                             page == m_other ? 8 : 16, std::uint64_t(page));
        image.source = "fake.tif, page " + std::to_string(page) + " of " + std::to_string(m_pages);
        return image;
    }

private:
    int m_pages;
    std::vector<int>* m_log;
    int m_other;
};

struct Opener {
    std::vector<int> log;
    explicit Opener(int pages, int otherDepthPage = 0) {
        setImagePagesOpener([this, pages, otherDepthPage](const std::string&) {
            return std::make_unique<FakePages>(pages, &log, otherDepthPage);
        });
    }
    ~Opener() { setImagePagesOpener({}); }
};

ImageBinsRequest oneMethod() {
    ImageBinsRequest r;
    r.bins = 1000;
    r.repeats = 1;
    return r;
}

TEST(ImageStack, StackIsTheSumOfItsPages) {
    Opener opener(5);
    const ImageStackRequest request =
        planImageStack("fake.tif", PageRange{2, 4}, "gray", oneMethod());
    EXPECT_EQ(request.pagesInFile, 5);
    EXPECT_EQ(request.last, 4);
    std::vector<std::string> stages;
    const ImageStackRun run =
        runImageStack(test::sharedDevice(), request, {},
                      [&](double, const std::string& stage) { stages.push_back(stage); });
    EXPECT_EQ(opener.log, (std::vector<int>{2, 3, 4})); // each page once, in order
    EXPECT_EQ(stages.front(), "page 2 of 4");
    ASSERT_EQ(run.pages.size(), 3u);
    EXPECT_FALSE(run.sameSize); // pages of 39, 40 and 41 columns
    std::vector<std::uint64_t> sum(1000, 0);
    std::uint64_t pixels = 0;
    for (int page = 2; page <= 4; ++page) {
        const HostImage image = FakePages(5, &opener.log, 0).read(page);
        ImageBinsRequest r = oneMethod();
        r.channels = {"gray"};
        const ImageBinsRun one = runImageBins(test::sharedDevice(), image, r);
        ASSERT_EQ(one.results.front().point.status, Status::Verified);
        for (std::size_t i = 0; i < sum.size(); ++i)
            sum[i] += one.results.front().histogram.counts[i];
        pixels += image.pixelCount();
        EXPECT_EQ(run.pages[std::size_t(page - 2)].channels.front().statistics.mean,
                  one.results.front().statistics.mean);
    }
    const ImageChannelBins& stack = run.stack.results.front();
    EXPECT_EQ(stack.histogram.counts, sum);
    EXPECT_EQ(stack.statistics.count, pixels);
    EXPECT_EQ(stack.point.status, Status::Verified);
}

TEST(ImageStack, PageOfAnotherDepthIsRefusedByName) {
    Opener opener(4, 3);
    const ImageStackRequest request = planImageStack("fake.tif", PageRange{}, "gray", oneMethod());
    try {
        runImageStack(test::sharedDevice(), request, {}, {});
        FAIL() << "a page of another depth was counted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("fake.tif, page 3: 8-bit, 1 channel where page 1 is "
                                             "16-bit, 1 channel"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(opener.log, (std::vector<int>{1, 2, 3}));
}

TEST(ImageStack, CancelStopsBetweenPages) {
    Opener opener(6);
    const ImageStackRequest request = planImageStack("fake.tif", PageRange{}, "gray", oneMethod());
    CancelToken cancel;
    EXPECT_THROW(runImageStack(test::sharedDevice(), request, cancel,
                               [&](double, const std::string& stage) {
                                   if (stage == "page 3 of 6")
                                       cancel.cancel();
                               }),
                 CancelledError);
    EXPECT_EQ(opener.log, (std::vector<int>{1, 2})); // page 3 never read
}

TEST(ImageStack, RangePastTheLastPageIsRefused) {
    Opener opener(12);
    try {
        planImageStack("fake.tif", PageRange{3, 13}, "gray", oneMethod());
        FAIL() << "a range past the last page was planned";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("fake.tif has 12 pages, not a page 13"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace histlab
