// The experiment framework on PoCL with small inputs: grids expand as specified, every point is
// verified, points stream out as they finish, cancellation stops at the next point, a point
// that cannot build is reported and the rest go on, runs round-trip through JSON, and a
// baseline is matched by parameters; saved runs of older versions still open; the plan's
// decisions and the sweep's lines.
#include "unitsupport.h"

#include "pipelines/experiments/experiment.h"
#include "report/json.h"
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
    return test::sharedDeviceSet();
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
    std::vector<std::string> stages;
    const ExperimentRun run = runExperiment(
        sharedSet(), {sharedIndex()}, spec, {},
        [&](const ExperimentPoint& p) { streamed.push_back(p); },
        [&](double f, const std::string& stage) {
            fractions.push_back(f);
            stages.push_back(stage);
        });
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
    // Each point is named before it runs: "<device>: point 5 of 12 (uniform, <config>)".
    for (const char* point :
         {": point 1 of 12 (random, ", ": point 5 of 12 (uniform, ", ": point 12 of 12 (skewed, "})
        EXPECT_TRUE(std::any_of(stages.begin(), stages.end(), [&](const std::string& s) {
            return s.find(point) != std::string::npos;
        })) << point;
    EXPECT_EQ(stages.back(), "12 points done");
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
        parseExperimentJson("{\"histlab_experiment\": 1, \"experiment\": \"banks\"}", "saved.json");
        FAIL() << "accepted a file without its fields";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'date'"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("saved.json: ", 0), 0u) << e.what();
    }
    // A syntax error names the file, the line and the column.
    try {
        parseExperimentJson("{\n  \"histlab_experiment\": 1,\n  }\n", "saved.json");
        FAIL() << "accepted a file that is not JSON";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("saved.json: JSON: "), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("line 3, column 3"), std::string::npos) << e.what();
    }
    // A value of another type where the reader takes it unchecked (a device's optional
    // feature as a number, found by fuzzing: it aborted the process) is the file's fault too.
    ExperimentRun run;
    run.kind = ExperimentKind::Banks;
    run.date = "2026-11-27T08:00:00Z";
    DeviceInfo device;
    device.name = "test device";
    device.optionalFeatures.push_back({"generic_address_space_support", "yes"});
    run.devices.push_back(device);
    std::string text = experimentJson(run);
    const std::size_t at = text.find("\"yes\"");
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, 5, "42");
    try {
        parseExperimentJson(text, "saved.json");
        FAIL() << "accepted a feature that is a number";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("saved.json: a value of the wrong type: ", 0), 0u)
            << e.what();
    }
    // A syntax error far into a long stretch of whitespace: its message is read without
    // std::regex, whose matcher overflowed the stack on it (found by fuzzing).
    try {
        parseExperimentJson(
            "{\"histlab_experiment\": 1, \"date\"" + std::string(200000, '\n') + "x", "saved.json");
        FAIL() << "accepted a file that is not JSON";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("at line 200001, column 1"), std::string::npos)
            << std::string(e.what()).substr(0, 300);
    }
    // An experiment this version does not know is the file's fault, not a usage error.
    EXPECT_THROW(parseExperimentJson("{\"histlab_experiment\": 1, \"experiment\": \"nope\"}"),
                 InputError);
}

// Integers of a saved run stay exact beyond a double's 2^53 (the old reader's limit).
TEST(ExperimentFiles, IntegersStayExact) {
    ExperimentRun run;
    run.kind = ExperimentKind::Banks;
    run.date = "2026-01-01T00:00:00Z";
    DeviceInfo device;
    device.name = "big";
    device.globalMemBytes = (std::uint64_t(1) << 60) + 1;
    device.maxAllocBytes = (std::uint64_t(1) << 53) + 1;
    run.devices.push_back(device);
    run.bytes = (std::size_t(1) << 53) + 3;
    const ExperimentRun back = parseExperimentJson(experimentJson(run));
    EXPECT_EQ(back.bytes, run.bytes);
    EXPECT_EQ(back.devices[0].globalMemBytes, device.globalMemBytes);
    EXPECT_EQ(back.devices[0].maxAllocBytes, device.maxAllocBytes);
}

ExperimentParams paramsOf(ExperimentKind kind) {
    ExperimentParams params;
    params.kind = kind;
    return params;
}

// The sweep's plan decides for histlab-cli sweep and the Experiments tab: the distributions when
// none are named (the experiment's own, plus "image" when an image is given), the cap of
// repeats (never below the minimum), and each device's input size (64 MiB on a CPU device, 256
// MiB on any other, in whole 16-byte vectors, below 4 GiB).
TEST(ExperimentPlan, DefaultsAndEachDevicesSize) {
    DeviceInfo cpu;
    cpu.type = DeviceType::Cpu;
    DeviceInfo gpu;
    gpu.type = DeviceType::Gpu;
    DeviceInfo other;
    ExperimentParams params = paramsOf(ExperimentKind::Stages);
    ExperimentPlan plan = planExperiment({cpu, gpu, other}, params);
    EXPECT_EQ(plan.spec.kind, ExperimentKind::Stages);
    EXPECT_EQ(plan.spec.distributions, (std::vector<std::string>{"random", "uniform"}));
    EXPECT_EQ(plan.bytes, (std::vector<std::size_t>{std::size_t(64) << 20, std::size_t(256) << 20,
                                                    std::size_t(256) << 20}));
    EXPECT_EQ(plan.spec.repeats, 5);
    EXPECT_EQ(plan.spec.maxRepeats, 20);
    params.repeats = 30;
    params.sizeMiB = 1.0 / 1024 + 5.0 / 1048576; // 1029 bytes: whole vectors
    params.image = std::make_shared<const HostImage>(makeSynthetic(SyntheticKind::Random, 64));
    plan = planExperiment({gpu}, params);
    EXPECT_EQ(plan.spec.maxRepeats, 30) << "the cap is at least the minimum";
    EXPECT_EQ(plan.bytes, (std::vector<std::size_t>{1024}));
    EXPECT_EQ(plan.spec.distributions, (std::vector<std::string>{"random", "uniform", "image"}));
    EXPECT_EQ(plan.spec.image, params.image.get());
    params.distributions = std::vector<std::string>{"skewed"};
    EXPECT_EQ(planExperiment({gpu}, params).spec.distributions,
              (std::vector<std::string>{"skewed"}));
}

/// The option a plan of `params` blames, or "" when it plans.
std::string blamed(const ExperimentParams& params) {
    DeviceInfo gpu;
    gpu.type = DeviceType::Gpu;
    try {
        planExperiment({gpu}, params);
        return "";
    } catch (const UsageError& e) {
        return e.parameter();
    }
}

TEST(ExperimentPlan, WhatCannotRunIsRefusedByItsOption) {
    EXPECT_EQ(blamed({}), "sweep") << "which experiment?";
    ExperimentParams params = paramsOf(ExperimentKind::Banks);
    params.distributions = std::vector<std::string>{"random", "sparkly"};
    EXPECT_EQ(blamed(params), "--dist");
    params.distributions = std::vector<std::string>{"image"};
    EXPECT_EQ(blamed(params), "--dist") << "'image' needs --image FILE";
    params.imagePath = "some.png"; // its image is loaded after the plan's device-free checks
    EXPECT_EQ(blamed(params), "");
    params = paramsOf(ExperimentKind::Banks);
    params.sizeMiB = 4096;
    EXPECT_EQ(blamed(params), "--size");
    EXPECT_THROW(planExperiment({}, paramsOf(ExperimentKind::Banks)), UsageError);
}

TEST(ExperimentText, PointLinesSayTheAxisOfTheirExperiment) {
    ExperimentPoint p;
    p.distribution = "random";
    p.series = "";
    p.x = 4;
    p.gbps = 123.4;
    p.percentOfCeiling = 45.67;
    p.status = Status::Verified;
    p.params = {{"stage", "+scatter"}};
    EXPECT_EQ(describeExperimentPoint(ExperimentKind::Banks, p),
              "random local copies=4: 123 GB/s, 45.7 % of read-only, verified");
    p.series = "auto";
    p.status = Status::Timed;
    p.gbps = 1.5;
    EXPECT_EQ(describeExperimentPoint(ExperimentKind::Stages, p),
              "random auto +scatter: 1.50 GB/s, 45.7 % of read-only, timed");
    p.series = "naive";
    p.status = Status::Unsupported;
    p.reason = "no atomics";
    EXPECT_EQ(describeExperimentPoint(ExperimentKind::Atomics, p),
              "random naive: unsupported (no atomics)");
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

} // namespace
} // namespace histlab
