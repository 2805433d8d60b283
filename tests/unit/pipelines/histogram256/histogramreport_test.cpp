// The 256-bin histogram's files of a real run: the counts as CSV (one row per bin) and the whole
// run as JSON (every part present, names escaped, no nan or inf, which JSON does not have).
#include "unitsupport.h"

#include "pipelines/histogram256/histogramreport.h"
#include "report/json.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <sstream>

namespace histlab {
namespace {

HistogramRun rgbRun(bool stages) {
    HostImage img = test::syntheticImage(SyntheticKind::Gradient, 4097 * 3, 3, 4097);
    img.source = "quote\" and backslash\\ in a name.png";
    HistogramRunOptions o;
    o.repeats = 1;
    o.verify = true;
    o.stages = stages;
    return runHistogram(test::sharedDevice(), img, {}, o);
}

TEST(HistogramReport, CsvOfAnRgbRun) {
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

TEST(HistogramReport, JsonOfAnRgbRun) {
    const HistogramRun run = rgbRun(true);
    const std::string json = histogramJson(run);
    EXPECT_TRUE(test::validJson(json));
    for (const char* key :
         {"\"tool\"",        "\"date\"",           "\"device\"",      "\"input\"",
          "\"config\"",      "\"variant\"",        "\"passes\"",      "\"read_only_ceiling\"",
          "\"stages\"",      "\"verified\": true", "\"notes\"",       "\"histograms\"",
          "\"r\": [",        "\"g\": [",           "\"b\": [",        "\"gray\": [",
          "\"width\": 4097", "\"height\": 3",      "\"channels\": 3", "\"+local reduce\""})
        EXPECT_NE(json.find(key), std::string::npos) << "missing " << key;
    EXPECT_NE(json.find(Json(run.input).dump()), std::string::npos) << "the name is escaped";
    for (const char* bad : {": nan", ": inf", ": -nan", ": -inf"})
        EXPECT_EQ(json.find(bad), std::string::npos) << "not JSON: " << bad;
}

} // namespace
} // namespace histlab
