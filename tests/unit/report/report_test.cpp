// Results as files: atomic writes, up-front writability checks, CSV and JSON of a real run.
#include "unitsupport.h"

#include "pipelines/histogram256/histogramreport.h"
#include "report/report.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <sstream>

namespace histlab {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::vector<std::string> listing(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(Report, WriteFileAtomicallyWritesAndLeavesNoTemporary) {
    TempDir dir;
    const fs::path out = dir / "hist.csv";
    writeFileAtomically(out.string(), "bin,gray\n0,1\n");
    EXPECT_EQ(test::readFile(out), "bin,gray\n0,1\n");
    writeFileAtomically(out.string(), "replaced"); // replaces, never appends
    EXPECT_EQ(test::readFile(out), "replaced");
    EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"hist.csv"});
}

TEST(Report, WriteIntoAMissingFolderThrowsAndWritesNothing) {
    TempDir dir;
    const fs::path out = dir / "missing" / "hist.csv";
    try {
        writeFileAtomically(out.string(), "x");
        ADD_FAILURE() << "wrote into a missing folder";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(out.string()), std::string::npos) << e.what();
    }
    EXPECT_TRUE(listing(dir.path()).empty());
    EXPECT_FALSE(fs::exists(dir / "missing"));
}

TEST(Report, CheckWritable) {
    TempDir dir;
    EXPECT_NO_THROW(checkWritable((dir / "new.json").string()));
    EXPECT_NO_THROW(checkWritable("-"));
    EXPECT_THROW(checkWritable(dir.path().string()), InputError) << "a folder is not a file";
    EXPECT_THROW(checkWritable((dir / "no" / "x.json").string()), InputError);
    EXPECT_THROW(checkWritable(""), InputError);
    EXPECT_TRUE(listing(dir.path()).empty()) << "checking creates nothing";
}

TEST(Report, JsonString) {
    EXPECT_EQ(jsonString("a\"b\\c\nd\te"), "\"a\\\"b\\\\c\\nd\\te\"");
    EXPECT_EQ(jsonString(std::string(1, '\x01')), "\"\\u0001\"");
    const std::string ts = utcTimestamp();
    EXPECT_EQ(ts.size(), 20u) << ts;
    EXPECT_EQ(ts.back(), 'Z');
}

/// Brackets balance outside string literals, and nothing follows the top-level value.
::testing::AssertionResult balancedJson(const std::string& json) {
    std::vector<char> stack;
    bool inString = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '{' || c == '[')
            stack.push_back(c);
        else if (c == '}' || c == ']') {
            if (stack.empty() || stack.back() != (c == '}' ? '{' : '['))
                return ::testing::AssertionFailure() << "unbalanced '" << c << "' at " << i;
            stack.pop_back();
            if (stack.empty() && json.find_first_not_of(" \n", i + 1) != std::string::npos)
                return ::testing::AssertionFailure() << "text after the top-level value";
        }
    }
    if (inString || !stack.empty())
        return ::testing::AssertionFailure() << "unterminated string or bracket";
    return ::testing::AssertionSuccess();
}

HistogramRun rgbRun(bool stages) {
    HostImage img = test::syntheticImage(SyntheticKind::Gradient, 4097 * 3, 3, 4097);
    img.source = "quote\" and backslash\\ in a name.png";
    HistogramRunOptions o;
    o.repeats = 1;
    o.verify = true;
    o.stages = stages;
    return runHistogram(test::sharedDevice(), img, {}, o);
}

TEST(Report, HistogramCsvOfAnRgbRun) {
    const HistogramRun run = rgbRun(false);
    const std::string csv = histogramCsv(run);
    std::istringstream in(csv);
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line))
        lines.push_back(line);
    ASSERT_EQ(lines.size(), 257u);
    EXPECT_EQ(lines[0], "bin,r,g,b,gray");
    std::ostringstream row0;
    row0 << "0," << run.histograms[0].counts[0] << ',' << run.histograms[1].counts[0] << ','
         << run.histograms[2].counts[0] << ',' << run.histograms[3].counts[0];
    EXPECT_EQ(lines[1], row0.str());
    EXPECT_EQ(lines[256].rfind("255,", 0), 0u);
    EXPECT_EQ(csv.back(), '\n');
}

TEST(Report, HistogramJsonOfAnRgbRun) {
    const HistogramRun run = rgbRun(true);
    const std::string json = histogramJson(run);
    EXPECT_TRUE(balancedJson(json));
    for (const char* key :
         {"\"tool\"",        "\"date\"",           "\"device\"",      "\"input\"",
          "\"config\"",      "\"variant\"",        "\"passes\"",      "\"read_only_ceiling\"",
          "\"stages\"",      "\"verified\": true", "\"notes\"",       "\"histograms\"",
          "\"r\": [",        "\"g\": [",           "\"b\": [",        "\"gray\": [",
          "\"width\": 4097", "\"height\": 3",      "\"channels\": 3", "\"+local reduce\""})
        EXPECT_NE(json.find(key), std::string::npos) << "missing " << key;
    EXPECT_NE(json.find(jsonString(run.input)), std::string::npos) << "the name is escaped";
    for (const char* bad : {": nan", ": inf", ": -nan", ": -inf"})
        EXPECT_EQ(json.find(bad), std::string::npos) << "not JSON: " << bad;
}

TEST(Report, DevicesJson) {
    const DeviceInfo& info = test::sharedDevice().info();
    const std::string json = devicesJson({info}, {test::sharedDevice().capabilities()});
    EXPECT_TRUE(balancedJson(json));
    EXPECT_NE(json.find("\"non_uniform_work_groups\""), std::string::npos);
    EXPECT_NE(json.find(jsonString(info.name)), std::string::npos);
    EXPECT_TRUE(balancedJson(devicesJson({info}, {})));
}

} // namespace
} // namespace histlab
