// Histogram configuration: parsing of the command-line words and resolveHistogramConfig's
// validation against the device (each refusal names the parameter at fault).
#include "unitsupport.h"

#include "pipelines/histogram256/histogram256.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

using test::sharedDevice;

/// Calls resolveHistogramConfig and returns the parameter named by its UsageError ("" if none).
std::string refusedParameter(const HistogramRequest& r, int nchan) {
    try {
        const HistogramConfig c = resolveHistogramConfig(sharedDevice(), r, nchan);
        ADD_FAILURE() << "accepted: " << c.describe();
        return {};
    } catch (const UsageError& e) {
        return e.parameter();
    }
}

TEST(ResolveConfig, BanksNotAPowerOfTwo) {
    HistogramRequest r;
    r.variant = HistogramVariant::Banked;
    for (int banks : {3, 6, 24, -2}) {
        r.banks = banks;
        EXPECT_EQ(refusedParameter(r, 1), "--banks") << banks;
    }
}

TEST(ResolveConfig, BanksThatDoNotFitLocalMemory) {
    const DeviceInfo& info = sharedDevice().info();
    HistogramRequest r;
    r.variant = HistogramVariant::Banked;
    const int fit = test::maxFittingBanks(info, 4);
    r.banks = std::max(4096, 2 * std::max(fit, 1)); // PoCL: 1280 KiB holds 256 copies of 1024 bins
    EXPECT_EQ(refusedParameter(r, 4), "--banks");
    if (fit >= 1) {
        r.banks = fit; // the most that fit are accepted
        const HistogramConfig c = resolveHistogramConfig(sharedDevice(), r, 4);
        EXPECT_EQ(c.banks, fit);
    }
}

TEST(ResolveConfig, WorkGroupLargerThanTheDeviceAllows) {
    const DeviceInfo& info = sharedDevice().info();
    HistogramRequest r;
    r.variant = HistogramVariant::Banked;
    r.banks = 1;
    r.workGroupSize = static_cast<int>(info.maxWorkGroupSize) * 2;
    EXPECT_EQ(refusedParameter(r, 1), "--wg");
    r.workGroupSize = -1;
    EXPECT_EQ(refusedParameter(r, 1), "--wg");
}

TEST(ResolveConfig, NaiveAndLocalHaveNoBanks) {
    HistogramRequest r;
    r.banks = 2;
    r.variant = HistogramVariant::Naive;
    EXPECT_EQ(refusedParameter(r, 1), "--banks");
    r.variant = HistogramVariant::Local;
    EXPECT_EQ(refusedParameter(r, 1), "--banks");
    r.banks = 1; // one copy is what they have
    EXPECT_EQ(resolveHistogramConfig(sharedDevice(), r, 1).banks, 1);
}

TEST(ResolveConfig, CpuVariantLimits) {
    HistogramRequest r;
    r.variant = HistogramVariant::Private;
    r.banks = 32;
    EXPECT_EQ(refusedParameter(r, 1), "--banks");
    r.banks = 0;
    r.read = ReadPattern::Coalesced;
    EXPECT_EQ(refusedParameter(r, 1), "--read");
    r.read.reset();
    const HistogramConfig c = resolveHistogramConfig(sharedDevice(), r, 1);
    EXPECT_EQ(c.read, ReadPattern::Serial);
    EXPECT_EQ(c.banks, 4);
    EXPECT_EQ(c.chosenBy, "request");
}

// What the window greys out is what the core refuses when given: a field without a say for a
// variant is one whose value that variant would refuse, and the refusal says the same.
TEST(ResolveConfig, UnusedParametersAreTheRefusedOnes) {
    EXPECT_NE(histogramParameterUnused(HistogramVariant::Naive, "--banks"), "");
    EXPECT_NE(histogramParameterUnused(HistogramVariant::Local, "--banks"), "");
    EXPECT_NE(histogramParameterUnused(HistogramVariant::Private, "--read"), "");
    for (HistogramVariant v :
         {HistogramVariant::Auto, HistogramVariant::Naive, HistogramVariant::Local,
          HistogramVariant::Banked, HistogramVariant::Private}) {
        for (const char* parameter : {"--banks", "--read"}) {
            HistogramRequest r;
            r.variant = v;
            if (std::string(parameter) == "--banks")
                r.banks = 2;
            else
                r.read = ReadPattern::Coalesced;
            const std::string why = histogramParameterUnused(v, parameter);
            if (why.empty()) {
                if (v != HistogramVariant::Auto) { // auto's answer is the device's (cpu here)
                    EXPECT_NO_THROW(resolveHistogramConfig(sharedDevice(), r, 1))
                        << variantName(v) << " " << parameter;
                }
                continue;
            }
            try {
                resolveHistogramConfig(sharedDevice(), r, 1);
                ADD_FAILURE() << variantName(v) << " " << parameter << " was not refused";
            } catch (const UsageError& e) {
                EXPECT_EQ(e.parameter(), parameter);
                EXPECT_NE(std::string(e.what()).find(why.substr(0, 20)), std::string::npos)
                    << e.what();
            }
        }
        for (const char* parameter : {"--wg", "--groups-per-cu", "--load", "--merge"})
            EXPECT_EQ(histogramParameterUnused(v, parameter), "") << variantName(v);
    }
}

TEST(ResolveConfig, OtherRanges) {
    HistogramRequest r;
    r.variant = HistogramVariant::Banked;
    for (int unroll : {3, 5, -1}) {
        r.unroll = unroll;
        EXPECT_EQ(refusedParameter(r, 1), "--unroll") << unroll;
    }
    r.unroll = 0;
    r.groupsPerCu = 2000;
    EXPECT_EQ(refusedParameter(r, 1), "--groups-per-cu");
}

TEST(ResolveConfig, ExplicitRequestIsKept) {
    HistogramRequest r;
    r.variant = HistogramVariant::Banked;
    r.banks = 2;
    r.workGroupSize = 64;
    r.groupsPerCu = 3;
    r.unroll = 2;
    r.read = ReadPattern::Serial;
    r.load = LoadWidth::Scalar;
    r.merge = MergeMode::Atomic;
    const HistogramConfig c = resolveHistogramConfig(sharedDevice(), r, 3);
    EXPECT_EQ(c.variant, HistogramVariant::Banked);
    EXPECT_EQ(c.banks, 2);
    EXPECT_EQ(c.workGroupSize, 64);
    EXPECT_EQ(c.groupsPerCu, 3);
    EXPECT_EQ(c.unroll, 2);
    EXPECT_EQ(c.read, ReadPattern::Serial);
    EXPECT_EQ(c.load, LoadWidth::Scalar);
    EXPECT_EQ(c.merge, MergeMode::Atomic);
    EXPECT_EQ(c.chosenBy, "request");
    const std::string d = c.describe();
    for (const char* part :
         {"banked", "banks=2", "wg=64", "groups/CU=3", "serial", "scalar", "merge=atomic"})
        EXPECT_NE(d.find(part), std::string::npos) << d << " lacks " << part;
}

TEST(ResolveConfig, BuildOptionsNameEveryChoice) {
    HistogramConfig c;
    c.variant = HistogramVariant::Banked;
    c.banks = 16;
    c.load = LoadWidth::Scalar;
    c.read = ReadPattern::Serial;
    c.merge = MergeMode::Atomic;
    c.unroll = 2;
    const std::string o = histogramBuildOptions(c, 3, 2);
    for (const char* part : {"-D LOCAL", "-D NCHAN=3", "-D LOAD_VEC=0", "-D READ_SERIAL=1",
                             "-D UNROLL=2", "-D NBANKS=16", "-D MERGE_ATOMIC=1", "-D STAGE=2"})
        EXPECT_NE(o.find(part), std::string::npos) << o << " lacks " << part;
    c.variant = HistogramVariant::Private;
    EXPECT_NE(histogramBuildOptions(c, 1).find("-D PRIVATE"), std::string::npos);
    EXPECT_NE(histogramBuildOptions(c, 1).find("-D PCOPIES=16"), std::string::npos);
    c.variant = HistogramVariant::Naive;
    EXPECT_NE(histogramBuildOptions(c, 1).find("-D NAIVE"), std::string::npos);
}

template <typename F> std::string parseRefusal(F parse, const std::string& word) {
    try {
        parse(word);
        return {};
    } catch (const UsageError& e) {
        return e.parameter();
    }
}

TEST(ParseWords, KnownAndUnknownWords) {
    EXPECT_EQ(parseVariant("auto"), HistogramVariant::Auto);
    EXPECT_EQ(parseVariant("naive"), HistogramVariant::Naive);
    EXPECT_EQ(parseVariant("local"), HistogramVariant::Local);
    EXPECT_EQ(parseVariant("banked"), HistogramVariant::Banked);
    EXPECT_EQ(parseVariant("cpu"), HistogramVariant::Private);
    EXPECT_STREQ(variantName(HistogramVariant::Private), "cpu");
    EXPECT_EQ(parseReadPattern("serial"), ReadPattern::Serial);
    EXPECT_EQ(parseLoadWidth("scalar"), LoadWidth::Scalar);
    EXPECT_EQ(parseLoadWidth("uint4"), LoadWidth::Uint4);
    EXPECT_EQ(parseMergeMode("atomic"), MergeMode::Atomic);
    EXPECT_EQ(parseChannel("gray"), ChannelSelection::Gray);
    EXPECT_EQ(parseChannel("a"), ChannelSelection::A);
    EXPECT_EQ(parseSyntheticKind("skewed"), SyntheticKind::Skewed);

    EXPECT_EQ(parseRefusal(parseVariant, "fast"), "--variant");
    EXPECT_EQ(parseRefusal(parseReadPattern, "random"), "--read");
    EXPECT_EQ(parseRefusal(parseLoadWidth, "uint8"), "--load");
    EXPECT_EQ(parseRefusal(parseMergeMode, "none"), "--merge");
    EXPECT_EQ(parseRefusal(parseChannel, "red"), "--channel");
    EXPECT_EQ(parseRefusal(parseSyntheticKind, "noise"), "--synthetic");
}

} // namespace
} // namespace histlab
