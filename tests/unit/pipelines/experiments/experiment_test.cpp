// The experiment framework on PoCL with small inputs: grids expand as specified, every point is
// verified, points stream out as they finish, cancellation stops at the next point, a point
// that cannot build is reported and the rest go on, runs round-trip through JSON, and a
// baseline is matched by parameters. Also the small JSON reader the saved runs go through.
#include "unitsupport.h"

#include "pipelines/experiments/experiment.h"
#include "report/legacyjson.h"
#include "runtime/cancel.h"
#include "runtime/errors.h"
#include "runtime/kernelsource.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace histlab {
namespace {

constexpr std::size_t kSmall = 64 * 1024; // bytes per input: quick on PoCL

std::string param(const GridEntry& e, const std::string& name) {
    for (const auto& [k, v] : e.params)
        if (k == name)
            return v;
    return {};
}

DeviceSet& sharedSet() {
    static DeviceSet set;
    return set;
}

int sharedIndex() {
    return selectDevice("", sharedSet().infos());
}

/// A small spec: `kind` on `distributions` of kSmall bytes, `repeats` to `maxRepeats` runs.
ExperimentSpec smallSpec(ExperimentKind kind, std::vector<std::string> distributions,
                         int repeats = 1, int maxRepeats = 1) {
    ExperimentSpec spec;
    spec.kind = kind;
    spec.distributions = std::move(distributions);
    spec.bytes = kSmall;
    spec.repeats = repeats;
    spec.maxRepeats = maxRepeats;
    return spec;
}

TEST(ExperimentGrid, BanksDoubleUpToWhatLocalMemoryHolds) {
    Device& device = sharedSet().open(sharedIndex());
    const auto grid = experimentGrid(ExperimentKind::Banks, device, kSmall);
    const int fit = maxLocalCopies(device.info(), 1);
    ASSERT_GE(fit, 1);
    std::vector<int> banks;
    for (const GridEntry& e : grid) {
        banks.push_back(e.config.banks);
        EXPECT_EQ(e.x, e.config.banks);
        EXPECT_EQ(e.config.variant, HistogramVariant::Banked);
        EXPECT_EQ(param(e, "banks"), std::to_string(e.config.banks));
        EXPECT_EQ(e.stage, 3);
    }
    std::vector<int> expected;
    for (int b = 1; b <= fit; b *= 2)
        expected.push_back(b);
    EXPECT_EQ(banks, expected);
}

TEST(ExperimentGrid, ReadsSpanComputeUnitsToOneVectorPerItem) {
    Device& device = sharedSet().open(sharedIndex());
    const std::size_t bytes = 1 << 20;
    const auto grid = experimentGrid(ExperimentKind::Reads, device, bytes);
    const std::size_t cus = device.info().computeUnits;
    std::map<std::string, std::vector<double>> series;
    for (const GridEntry& e : grid) {
        series[e.series].push_back(e.x);
        // work-items = work-group size x groups per compute unit x compute units
        EXPECT_EQ(double(std::size_t(e.config.workGroupSize) * e.config.groupsPerCu * cus), e.x);
        EXPECT_EQ(param(e, "work_items"), std::to_string(std::size_t(e.x)));
    }
    EXPECT_EQ(series.size(), 4u);
    for (const char* name :
         {"serial scalar", "serial uint4", "coalesced scalar", "coalesced uint4"}) {
        const auto& xs = series[name];
        ASSERT_FALSE(xs.empty()) << name;
        EXPECT_EQ(xs.front(), double(cus)) << name;
        EXPECT_LE(xs.back(), double(bytes / 16)) << name;
        EXPECT_GT(xs.back() * 2, double(bytes / 16)) << name; // the last doubling that fits
        for (std::size_t i = 1; i < xs.size(); ++i)
            EXPECT_EQ(xs[i], 2 * xs[i - 1]);
    }
}

TEST(ExperimentGrid, GroupsStagesAndAtomics) {
    Device& device = sharedSet().open(sharedIndex());
    const auto groups = experimentGrid(ExperimentKind::Groups, device, kSmall);
    std::set<std::pair<int, int>> cells;
    for (const GridEntry& e : groups) {
        EXPECT_EQ(e.x, e.config.workGroupSize);
        EXPECT_EQ(e.y, e.config.groupsPerCu);
        EXPECT_LE(std::size_t(e.config.workGroupSize), device.info().maxWorkGroupSize);
        cells.insert({e.config.groupsPerCu, e.config.workGroupSize});
    }
    EXPECT_EQ(cells.size(), groups.size());
    EXPECT_EQ(groups.size() % 6, 0u); // six groups-per-CU rows

    const auto stages = experimentGrid(ExperimentKind::Stages, device, kSmall);
    ASSERT_EQ(stages.size(), 8u);
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(stages[std::size_t(i)].stage, i % 4);
        EXPECT_EQ(stages[std::size_t(i)].series, i < 4 ? "auto" : "reference");
    }
    EXPECT_EQ(param(stages[0], "stage"), "read-only");
    EXPECT_EQ(param(stages[3], "stage"), "+global merge");

    const auto atomics = experimentGrid(ExperimentKind::Atomics, device, kSmall);
    ASSERT_EQ(atomics.size(), 4u);
    EXPECT_EQ(atomics[0].config.variant, HistogramVariant::Naive);
    EXPECT_EQ(atomics[1].config.variant, HistogramVariant::Local);
    EXPECT_EQ(atomics[2].config.variant, HistogramVariant::Banked);
    EXPECT_EQ(atomics[3].config.variant, HistogramVariant::Private);
}

TEST(ExperimentRun, EveryPointVerifiedAndStreamedInOrder) {
    ExperimentSpec spec = smallSpec(ExperimentKind::Atomics, {"random", "uniform", "skewed"}, 2, 3);
    std::vector<ExperimentPoint> streamed;
    std::vector<double> fractions;
    const ExperimentRun run = runExperiment(
        sharedSet(), {sharedIndex()}, spec, {},
        [&](const ExperimentPoint& p) { streamed.push_back(p); },
        [&](double f, const std::string&) { fractions.push_back(f); });
    ASSERT_EQ(run.points.size(), 12u); // 4 variants x 3 distributions
    ASSERT_EQ(streamed.size(), run.points.size());
    for (std::size_t i = 0; i < run.points.size(); ++i) {
        const ExperimentPoint& p = run.points[i];
        EXPECT_EQ(p.status, Status::Verified)
            << p.series << " " << p.distribution << ": " << p.reason;
        EXPECT_EQ(streamed[i].series, p.series);
        EXPECT_EQ(streamed[i].distribution, p.distribution);
        EXPECT_GE(p.stats.samplesMs.size(), 2u);
        EXPECT_LE(p.stats.samplesMs.size(), 3u);
        EXPECT_GT(p.gbps, 0);
        EXPECT_GT(p.percentOfCeiling, 0);
    }
    EXPECT_EQ(run.ceilings.size(), 3u); // one read-only ceiling per distribution, same run
    ASSERT_FALSE(fractions.empty());
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
    EXPECT_EQ(run.bytes, kSmall);
}

TEST(ExperimentRun, StagesBelowTheLastAreTimedNotVerified) {
    ExperimentSpec spec = smallSpec(ExperimentKind::Stages, {"gradient"});
    const ExperimentRun run = runExperiment(sharedSet(), {sharedIndex()}, spec);
    ASSERT_EQ(run.points.size(), 8u);
    for (const ExperimentPoint& p : run.points)
        EXPECT_EQ(p.status, p.x == 3 ? Status::Verified : Status::Timed) << p.series << " " << p.x;
}

TEST(ExperimentRun, CancellationStopsAtTheNextPoint) {
    ExperimentSpec spec = smallSpec(ExperimentKind::Atomics, {"random", "uniform"});
    CancelToken token;
    int seen = 0;
    EXPECT_THROW(runExperiment(sharedSet(), {sharedIndex()}, spec, token,
                               [&](const ExperimentPoint&) {
                                   if (++seen == 2)
                                       token.cancel();
                               }),
                 CancelledError);
    EXPECT_EQ(seen, 2); // not one point more
}

TEST(ExperimentRun, APointThatCannotBuildIsReportedAndTheRestGoOn) {
    // A kernel folder whose histogram256.cl refuses to build the naive variant only.
    test::TempDir dir;
    const KernelSource real = loadKernelSource("histogram256");
    test::writeFile(dir / "histogram256.cl",
                    "#ifdef NAIVE\n#error this test refuses the naive variant\n#endif\n" +
                        real.text);
    setKernelDir(dir.path().string());
    ExperimentSpec spec = smallSpec(ExperimentKind::Atomics, {"random"});
    DeviceSet fresh; // its own program cache, so the override is what builds
    ExperimentRun run;
    try {
        run = runExperiment(fresh, {selectDevice("", fresh.infos())}, spec);
    } catch (...) {
        setKernelDir("");
        throw;
    }
    setKernelDir("");
    ASSERT_EQ(run.points.size(), 4u);
    EXPECT_EQ(run.points[0].series, "naive");
    EXPECT_EQ(run.points[0].status, Status::Failed);
    EXPECT_NE(run.points[0].reason.find("histogram256.cl"), std::string::npos)
        << run.points[0].reason;
    for (std::size_t i = 1; i < 4; ++i)
        EXPECT_EQ(run.points[i].status, Status::Verified) << run.points[i].series;
}

TEST(ExperimentRun, UnknownDistributionOrImageWithoutImageIsAUsageError) {
    ExperimentSpec spec = smallSpec(ExperimentKind::Atomics, {"sparkly"});
    EXPECT_THROW(runExperiment(sharedSet(), {sharedIndex()}, spec), UsageError);
    spec.distributions = {"image"};
    EXPECT_THROW(runExperiment(sharedSet(), {sharedIndex()}, spec), UsageError);
}

TEST(ExperimentRun, ImageDistributionRepeatsTheGrayPlane) {
    HostImage image = makeSynthetic(SyntheticKind::Gradient, 3 * 1000);
    image.channels = 3;
    image.width = 1000;
    image.height = 1;
    ExperimentSpec spec = smallSpec(ExperimentKind::Atomics, {"image"});
    spec.image = &image;
    const ExperimentRun run = runExperiment(sharedSet(), {sharedIndex()}, spec);
    for (const ExperimentPoint& p : run.points)
        EXPECT_EQ(p.status, Status::Verified) << p.series << ": " << p.reason;
}

TEST(ExperimentFiles, JsonRoundTripsAndBaselineMatchesByParameters) {
    ExperimentSpec spec = smallSpec(ExperimentKind::Atomics, {"random", "skewed"}, 2, 2);
    ExperimentRun run = runExperiment(sharedSet(), {sharedIndex()}, spec);
    run.note = "a \"quoted\" note,\nwith a new line";
    const ExperimentRun back = parseExperimentJson(experimentJson(run));
    EXPECT_EQ(back.kind, run.kind);
    EXPECT_EQ(back.note, run.note);
    EXPECT_EQ(back.date, run.date);
    EXPECT_EQ(back.bytes, run.bytes);
    EXPECT_EQ(back.distributions, run.distributions);
    ASSERT_EQ(back.devices.size(), 1u);
    EXPECT_EQ(back.devices[0].name, run.devices[0].name);
    EXPECT_EQ(back.devices[0].driverVersion, run.devices[0].driverVersion);
    EXPECT_EQ(back.devices[0].computeUnits, run.devices[0].computeUnits);
    EXPECT_EQ(back.devices[0].localMemBytes, run.devices[0].localMemBytes);
    ASSERT_EQ(back.points.size(), run.points.size());
    for (std::size_t i = 0; i < run.points.size(); ++i) {
        const ExperimentPoint& a = run.points[i];
        const ExperimentPoint& b = back.points[i];
        EXPECT_EQ(a.params, b.params);
        EXPECT_EQ(a.series, b.series);
        EXPECT_EQ(a.distribution, b.distribution);
        EXPECT_EQ(a.status, b.status);
        EXPECT_EQ(a.stats.samplesMs, b.stats.samplesMs); // doubles survive exactly
        EXPECT_EQ(a.gbps, b.gbps);
        EXPECT_EQ(a.percentOfCeiling, b.percentOfCeiling);
    }
    ASSERT_EQ(back.ceilings.size(), run.ceilings.size());
    EXPECT_EQ(back.ceilings[0].ceiling.gbps, run.ceilings[0].ceiling.gbps);

    // A baseline whose points come in another order, with one missing and another device.
    ExperimentRun baseline = back;
    std::reverse(baseline.points.begin(), baseline.points.end());
    baseline.points.pop_back(); // was run.points.front()
    baseline.devices[0].name = "Another device";
    for (ExperimentPoint& p : baseline.points)
        p.gbps *= 2;
    EXPECT_EQ(findBaselinePoint(baseline, run.points.front()), nullptr);
    for (std::size_t i = 1; i < run.points.size(); ++i) {
        const ExperimentPoint* b = findBaselinePoint(baseline, run.points[i]);
        ASSERT_NE(b, nullptr);
        EXPECT_EQ(b->params, run.points[i].params);
        EXPECT_EQ(b->distribution, run.points[i].distribution);
        EXPECT_DOUBLE_EQ(b->gbps, 2 * run.points[i].gbps);
    }

    // The CSV: a header with every parameter, one row per point, the ratio to the baseline.
    std::istringstream csv(experimentCsv(run, &baseline));
    std::string header, line;
    std::getline(csv, header);
    for (const char* column :
         {"experiment", "device", "distribution", "variant", "banks", "wg", "groups_per_cu", "read",
          "load", "merge", "stage", "median_ms", "gbps", "percent_of_ceiling", "status",
          "baseline_gbps", "ratio_to_baseline"})
        EXPECT_NE(header.find(column), std::string::npos) << column;
    int rows = 0, withRatio = 0;
    while (std::getline(csv, line)) {
        ++rows;
        if (line.size() > 4 && line.substr(line.size() - 4) == ",0.5") // the last column
            ++withRatio;
    }
    EXPECT_EQ(rows, int(run.points.size()));
    EXPECT_EQ(withRatio, int(run.points.size()) - 1);
}

TEST(ExperimentFiles, BadFilesNameTheProblem) {
    EXPECT_THROW(parseExperimentJson("{\"points\": []}"), InputError); // not ours
    try {
        parseExperimentJson("{\"histlab_experiment\": 1, \"experiment\": \"banks\"}");
        FAIL() << "accepted a file without its fields";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("\"date\""), std::string::npos) << e.what();
    }
}

// A run saved before the files went through nlohmann-json (tests/data/README.md) still opens,
// with its figures as they were written and its integers exact.
TEST(ExperimentFiles, OpensARunSavedBeforeNlohmann) {
    const std::string path = std::string(HISTLAB_TEST_DATA_DIR) + "/sweep-atomics-8cf2e84.json";
    const ExperimentRun run = parseExperimentJson(test::readFile(path));
    EXPECT_EQ(run.kind, ExperimentKind::Atomics);
    EXPECT_EQ(run.note, "saved by histlab-cli before nlohmann-json (commit 8cf2e84)");
    EXPECT_EQ(run.bytes, 65536u);
    EXPECT_EQ(run.repeats, 2);
    EXPECT_EQ(run.maxRepeats, 2);
    EXPECT_EQ(run.distributions, (std::vector<std::string>{"uniform", "skewed"}));
    ASSERT_EQ(run.devices.size(), 1u);
    EXPECT_EQ(run.devices[0].name, "pthread-skylake-avx512-Intel(R) Xeon(R) Processor");
    EXPECT_EQ(run.devices[0].globalMemBytes, 8416079872u);
    ASSERT_EQ(run.ceilings.size(), 2u);
    EXPECT_EQ(run.ceilings[0].distribution, "uniform");
    EXPECT_EQ(run.ceilings[0].ceiling.bytes, 65536u);
    EXPECT_EQ(run.ceilings[0].ceiling.stats.samplesMs.size(), 5u);
    EXPECT_EQ(run.ceilings[0].ceiling.stats.medianMs, 0.002448);
    ASSERT_EQ(run.points.size(), 8u);
    const ExperimentPoint& p = run.points[0];
    EXPECT_EQ(p.distribution, "uniform");
    EXPECT_EQ(p.series, "naive");
    EXPECT_EQ(p.status, Status::Verified);
    EXPECT_EQ(p.gbps, 0.1959052877329021);
    EXPECT_EQ(p.stats.samplesMs, (std::vector<double>{0.33868899999999996, 0.33036899999999997}));
    EXPECT_EQ(p.stats.medianMs, 0.33452899999999997);
    EXPECT_EQ(p.params.size(), 9u);
    EXPECT_EQ(p.params[0], (std::pair<std::string, std::string>{"variant", "naive"}));
    EXPECT_EQ(run.points[7].series, "cpu");
    EXPECT_EQ(run.points[7].distribution, "skewed");
}

TEST(Json, ParsesAndWritesBack) {
    const JsonValue v = parseJson(
        " {\"a\": [1, -2.5e3, true, false, null], \"b\": {\"c\": \"x\\\"y\\\\z\\n\\u00e9\"}} ");
    const auto& a = v.at("a").asArray();
    ASSERT_EQ(a.size(), 5u);
    EXPECT_EQ(a[0].asNumber(), 1);
    EXPECT_EQ(a[1].asNumber(), -2500);
    EXPECT_TRUE(a[2].asBool());
    EXPECT_FALSE(a[3].asBool());
    EXPECT_TRUE(a[4].isNull());
    EXPECT_EQ(v.at("b").at("c").asString(), "x\"y\\z\n\xc3\xa9");
    EXPECT_EQ(parseJson(v.dump()).dump(), v.dump());
    EXPECT_EQ(JsonValue(0.1).dump(), "0.1");
    EXPECT_EQ(JsonValue(std::uint64_t(1) << 40).dump(), "1099511627776");
}

TEST(Json, ErrorsSayWhere) {
    for (const char* bad :
         {"", "{", "[1,]", "{\"a\" 1}", "\"unterminated", "01x", "[1] 2", "{\"a\": tru}"})
        EXPECT_THROW(parseJson(bad), InputError) << bad;
    try {
        parseJson("{\n  \"a\": [1,\n  }\n}");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parseJson("[1]").at("x"), InputError);
    EXPECT_THROW(parseJson("{\"x\": 1}").at("x").asString(), InputError);
}

} // namespace
} // namespace histlab
