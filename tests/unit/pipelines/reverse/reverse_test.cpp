// The memory lab's reversal: the CPU reference and the byte counting by hand, every
// kernel exact for sizes around its vector (1, 15, 16, 17, 63, 64, 65 bytes), a large prime
// size and 4 MiB + 3 (tails handled in the kernel), from a file's bytes too; a kernel that
// reverses wrongly reported as a mismatch with its count, a kernel the device refuses as
// unsupported and one that is missing as failed, the rest of the run going on; the ceilings
// per vector width; byte sizes as the command line writes them; the plan's decisions (default
// size, one input) and the --input file reader.
#include "unitsupport.h"

#include "pipelines/reverse/reverse.h"
#include "report/json.h"
#include "report/table.h"
#include "runtime/bytesize.h"
#include "runtime/errors.h"
#include "runtime/kernelsource.h"

#include <gtest/gtest.h>

#include <cmath>

namespace histlab {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(MemoryReverseReference, ByHand) {
    EXPECT_EQ(reverseReference(Bytes{1, 2, 3}), (Bytes{3, 2, 1}));
    EXPECT_EQ(reverseReference(Bytes{7}), (Bytes{7}));
    const Bytes in{1, 2, 3, 4};
    EXPECT_EQ(countReversedBytes(in.data(), Bytes{4, 3, 2, 1}.data(), 4), 4u);
    EXPECT_EQ(countReversedBytes(in.data(), Bytes{4, 0, 2, 0}.data(), 4), 2u);
    EXPECT_EQ(countReversedBytes(in.data(), in.data(), 4), 0u);
    // Larger than a word, with wrong bytes in some words and in the tail.
    const Bytes big = makeReverseInput(1003, 5);
    Bytes reversed = reverseReference(big);
    EXPECT_EQ(countReversedBytes(big.data(), reversed.data(), big.size()), 1003u);
    for (std::size_t j : {0u, 7u, 8u, 500u, 501u, 1002u})
        reversed[j] ^= 0x40;
    EXPECT_EQ(countReversedBytes(big.data(), reversed.data(), big.size()), 1003u - 6u);
    EXPECT_EQ(makeReverseInput(1000, 3), makeReverseInput(1000, 3));
    EXPECT_NE(makeReverseInput(1000, 3), makeReverseInput(1000, 4));
}

TEST(MemoryReverseNames, TableParseAndRefuse) {
    ASSERT_EQ(reverseVariants().size(), allReverseVariants().size());
    int reference = 0;
    for (const ReverseVariantInfo& v : reverseVariants()) {
        EXPECT_EQ(parseReverseVariant(v.name), v.variant);
        EXPECT_STREQ(reverseVariantName(v.variant), v.name);
        EXPECT_EQ(std::string(v.kernel), std::string("reverse_") + v.name);
        reference += v.reference ? 1 : 0;
    }
    EXPECT_EQ(reference, 4) << "the reference text's four kernels";
    try {
        parseReverseVariant("char8");
        FAIL() << "char8 is not a variant";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--kernel");
        EXPECT_NE(std::string(e.what()).find("uint16_as_char4"), std::string::npos) << e.what();
    }
}

TEST(MemoryByteSize, ParseAndFormat) {
    EXPECT_EQ(parseByteSize("--size", "4099"), 4099u);
    EXPECT_EQ(parseByteSize("--size", "64K"), 65536u);
    EXPECT_EQ(parseByteSize("--size", "64k"), 65536u);
    EXPECT_EQ(parseByteSize("--size", "1.5MiB"), 1572864u);
    EXPECT_EQ(parseByteSize("--size", "16 MiB"), 16777216u);
    EXPECT_EQ(parseByteSize("--size", "1G"), 1073741824u);
    EXPECT_EQ(parseByteSize("--size", "2KB"), 2000u);
    EXPECT_EQ(parseByteSize("--size", "64B"), 64u);
    EXPECT_EQ(parseByteSize("--size", "0"), 0u);
    for (const char* bad : {"", "abc", "1.5", "12X", "-4", "1..2K", "4KiBs", "1e3"}) {
        try {
            parseByteSize("--size", bad);
            ADD_FAILURE() << "'" << bad << "' was accepted";
        } catch (const UsageError& e) {
            EXPECT_EQ(e.parameter(), "--size");
        }
    }
    EXPECT_EQ(formatByteSize(4099), "4099 B");
    EXPECT_EQ(formatByteSize(4096), "4 KiB");
    EXPECT_EQ(formatByteSize(4097), "4097 B"); // not exact in KiB: the odd byte shows
    EXPECT_EQ(formatByteSize(1000), "1000 B");
    EXPECT_EQ(formatByteSize(1280), "1.25 KiB");
    EXPECT_EQ(formatByteSize(1536ull << 20), "1.5 GiB");
    EXPECT_EQ(formatByteSize(16ull << 20), "16 MiB");
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField("a,\"b\""), "\"a,\"\"b\"\"\"");
}

ReverseSpec smallSpec(std::uint64_t bytes) {
    ReverseSpec spec;
    spec.bytes = bytes;
    spec.repeats = 1;
    return spec;
}

void expectAllExact(const ReverseRun& run, std::uint64_t n) {
    ASSERT_EQ(run.results.size(), allReverseVariants().size());
    EXPECT_EQ(run.bytes, n);
    for (const ReverseResult& r : run.results) {
        EXPECT_EQ(r.status, Status::Verified) << r.name << ": " << r.detail;
        EXPECT_EQ(r.correctBytes, n) << r.name;
        EXPECT_TRUE(std::isfinite(r.gbps) && r.gbps > 0) << r.name << " " << r.gbps;
        EXPECT_EQ(r.stats.samplesMs.size(), 1u) << r.name;
        EXPECT_EQ(r.globalSize % r.localSize, 0u) << r.name << ": uniform work-groups";
        const ReverseVariantInfo& v = reverseVariantInfo(r.variant);
        EXPECT_EQ(r.buildOptions,
                  n % std::uint64_t(v.vectorBytes) == 0 ? "-D ALIGNED=1" : "-D ALIGNED=0")
            << r.name;
        if (run.copy.gbps > 0) {
            EXPECT_GT(r.percentOfCopy, 0) << r.name;
        }
    }
    EXPECT_GE(run.best(), 0);
}

class MemoryReverseSizes : public ::testing::TestWithParam<std::uint64_t> {};

// Around each vector width (1, 16, 64 bytes), a prime and 4 MiB + 3: every kernel, every byte.
TEST_P(MemoryReverseSizes, EveryKernelExact) {
    const std::uint64_t n = GetParam();
    const ReverseRun run = runReverse(test::sharedDevice(), smallSpec(n));
    expectAllExact(run, n);
    EXPECT_EQ(run.copy.gbps > 0, n >= 16) << "the copy kernel needs one 16-byte element";
}

INSTANTIATE_TEST_SUITE_P(Sizes, MemoryReverseSizes,
                         ::testing::Values(1, 2, 15, 16, 17, 63, 64, 65, 127, 1000003,
                                           (4u << 20) + 3, 4u << 20));

TEST(MemoryReverse, FileBytesAndProgress) {
    // A file's bytes: a pattern whose reversal differs everywhere from the input.
    auto bytes = std::make_shared<Bytes>(70000);
    for (std::size_t i = 0; i < bytes->size(); ++i)
        (*bytes)[i] = std::uint8_t(i * 7 + i / 256);
    ReverseSpec spec = smallSpec(0);
    spec.input = bytes;
    spec.source = "pattern.bin";
    std::vector<std::string> seen;
    const ReverseRun run = runReverse(test::sharedDevice(), spec, {},
                                      [&](const ReverseResult& r) { seen.push_back(r.name); });
    expectAllExact(run, 70000);
    EXPECT_EQ(run.source, "pattern.bin");
    ASSERT_EQ(seen.size(), run.results.size());
    for (std::size_t i = 0; i < seen.size(); ++i)
        EXPECT_EQ(seen[i], run.results[i].name);
}

TEST(MemoryReverse, BadSpecs) {
    Device& device = test::sharedDevice();
    EXPECT_THROW(runReverse(device, smallSpec(0)), UsageError); // --size 0: the option's error
    ReverseSpec empty = smallSpec(0);
    empty.input = std::make_shared<Bytes>();
    empty.source = "empty.bin";
    try {
        runReverse(device, empty);
        FAIL() << "an empty input ran";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("empty.bin"), std::string::npos) << e.what();
    }
    try {
        runReverse(device, smallSpec(device.info().maxAllocBytes + 1));
        FAIL() << "a size above the largest buffer ran";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--size");
    }
    ReverseSpec wg = smallSpec(100);
    wg.workGroupSize = device.info().maxWorkGroupSize + 1;
    EXPECT_THROW(runReverse(device, wg), UsageError);
    ReverseSpec none = smallSpec(100);
    none.variants.clear();
    EXPECT_THROW(runReverse(device, none), UsageError);
    CancelToken cancelled;
    cancelled.cancel();
    EXPECT_THROW(runReverse(device, smallSpec(100), cancelled), CancelledError);
}

// A kernel folder of the test's own (--kernel-dir), restored afterwards.
class KernelDirOverride {
public:
    explicit KernelDirOverride(const std::string& reverseCl) {
        test::writeFile(m_dir / "reverse.cl", reverseCl);
        setKernelDir(m_dir.path().string());
    }
    ~KernelDirOverride() { setKernelDir(""); }

private:
    test::TempDir m_dir;
};

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

// One run, three broken kernels: each reported for what it is, the others still verified.
TEST(MemoryReverse, BrokenKernelsAreReportedNotFatal) {
    std::string cl = loadKernelSource("reverse").text;
    // uint4: the words reversed but not their bytes (4 of every 16 bytes can still match).
    cl = replaced(cl, "out[nvec - 1 - i] = swap_bytes4(LOAD_UINT4(i).wzyx);\n    reverse_tail",
                  "out[nvec - 1 - i] = LOAD_UINT4(i).wzyx;\n    reverse_tail");
    // char1: only runs with 64 work-items per group; the run asks for 256.
    cl = replaced(cl, "__kernel void reverse_char1",
                  "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void reverse_char1");
    // uint4_serial: gone.
    cl = replaced(cl, "void reverse_uint4_serial", "void reverse_uint4_gone");
    const KernelDirOverride dir(cl);
    const std::uint64_t n = 4096 + 5;
    const ReverseRun run = runReverse(test::sharedDevice(), smallSpec(n));
    ASSERT_EQ(run.results.size(), allReverseVariants().size());
    for (const ReverseResult& r : run.results) {
        switch (r.variant) {
        case ReverseVariant::Uint4:
            EXPECT_EQ(r.status, Status::Mismatch);
            EXPECT_LT(r.correctBytes, n);
            EXPECT_NE(r.detail.find("of 4101 correct"), std::string::npos) << r.detail;
            break;
        case ReverseVariant::Char1:
            EXPECT_EQ(r.status, Status::Unsupported) << r.detail;
            EXPECT_NE(r.detail.find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos) << r.detail;
            EXPECT_NE(r.detail.find("256 work-items per group"), std::string::npos) << r.detail;
            break;
        case ReverseVariant::Uint4Serial:
            EXPECT_EQ(r.status, Status::Failed);
            EXPECT_NE(r.detail.find("CL_INVALID_KERNEL_NAME"), std::string::npos) << r.detail;
            break;
        default:
            EXPECT_EQ(r.status, Status::Verified) << r.name << ": " << r.detail;
            EXPECT_EQ(r.correctBytes, n);
        }
        if (!statusRan(r.status)) {
            EXPECT_TRUE(r.stats.samplesMs.empty()) << r.name << ": no timings when it did not run";
            EXPECT_EQ(r.gbps, 0) << r.name;
        }
    }
    const std::string csv = reverseCsv(run);
    EXPECT_NE(csv.find("uint4,reverse_uint4,4101,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",mismatch,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",unsupported,"), std::string::npos) << csv;
}

TEST(MemoryReverse, CsvAndJson) {
    ReverseSpec spec = smallSpec(1000);
    spec.variants = {ReverseVariant::Char16Swizzle, ReverseVariant::Uint4x4};
    const ReverseRun run = runReverse(test::sharedDevice(), spec);
    const std::string csv = reverseCsv(run);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "variant,kernel,bytes,global,local,median_ms,min_ms,gbps,percent_of_copy,"
              "correct_bytes,status,detail");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
    EXPECT_NE(csv.find("\nchar16_swizzle,reverse_char16_swizzle,1000,"), std::string::npos);
    const Json json = parseJsonText(reverseJson(run), "reverse.json");
    EXPECT_EQ(json.at("bytes"), 1000);
    EXPECT_EQ(json.at("tool"), "histlab-cli reverse");
    ASSERT_EQ(json.at("results").size(), 2u);
    const Json& first = json.at("results")[0];
    EXPECT_EQ(first.at("variant"), "char16_swizzle");
    EXPECT_EQ(first.at("status"), "verified");
    EXPECT_EQ(first.at("correct_bytes"), 1000);
    EXPECT_EQ(first.at("reference"), true);
    EXPECT_EQ(json.at("results")[1].at("reference"), false);
    EXPECT_TRUE(json.at("best").is_string());
    // The one timings shape and the one device shape of every HistLab file.
    EXPECT_EQ(timingFromJson(first).samplesMs, run.results[0].stats.samplesMs);
    EXPECT_EQ(json.at("device").at("name"), run.device.name);
    EXPECT_EQ(json.at("copy").at("bytes"), run.copy.bytes);
}

// The reversal's default size, decided once for histlab-cli reverse and the Memory tab. The two
// differed: the window reversed 256 MiB on a GPU, the CLI 16 MiB on every device. The answer:
// 16 MiB on a CPU device and 256 MiB on any other, because 16 MiB read plus 16 MiB written fit
// the L2 cache of a large GPU (50 MiB on an H100), where the figure would be the cache's, not
// the memory's; a CPU's OpenCL reverses at a few GB/s, and 16 MiB already passes its caches.
// Never above the device's largest buffer or the 2 GiB the kernels' indices take.
TEST(MemoryReversePlan, DefaultSizeBySortOfDevice) {
    DeviceInfo info;
    info.name = "test device";
    info.maxWorkGroupSize = 256;
    info.maxAllocBytes = std::uint64_t(4) << 30;
    info.type = DeviceType::Cpu;
    EXPECT_EQ(planReverse(info, {}).bytes, std::uint64_t(16) << 20);
    info.type = DeviceType::Gpu;
    EXPECT_EQ(planReverse(info, {}).bytes, std::uint64_t(256) << 20);
    info.type = DeviceType::Accelerator;
    EXPECT_EQ(planReverse(info, {}).bytes, std::uint64_t(256) << 20);
    info.maxAllocBytes = 100 << 20; // a small device: its largest buffer
    EXPECT_EQ(planReverse(info, {}).bytes, std::uint64_t(100) << 20);
    ReverseParams params;
    params.bytes = 4099;
    params.repeats = 3;
    params.workGroupSize = 64;
    params.variants = {ReverseVariant::Uint4};
    const ReverseSpec spec = planReverse(info, params);
    EXPECT_EQ(spec.bytes, 4099u);
    EXPECT_EQ(spec.repeats, 3);
    EXPECT_EQ(spec.workGroupSize, 64u);
    EXPECT_EQ(spec.variants, (std::vector<ReverseVariant>{ReverseVariant::Uint4}));
}

TEST(MemoryReversePlan, RefusesWhatCannotRunBeforeAnyWork) {
    DeviceInfo info;
    info.name = "test device";
    info.type = DeviceType::Gpu;
    info.maxWorkGroupSize = 256;
    info.maxAllocBytes = std::uint64_t(1) << 30;
    ReverseParams params;
    params.inputPath = "x.bin";
    params.bytes = 16;
    try {
        planReverse(info, params);
        FAIL() << "a file and a size at once";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("either --input FILE or --size BYTES"),
                  std::string::npos)
            << e.what();
    }
    params.inputPath.reset();
    params.bytes = (std::uint64_t(1) << 30) + 1;
    try {
        planReverse(info, params);
        FAIL() << "more than the largest buffer";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--size");
    }
    params.bytes = 0;
    EXPECT_THROW(planReverse(info, params), UsageError);
    params.bytes = 100;
    params.workGroupSize = 512;
    try {
        planReverse(info, params);
        FAIL() << "a work-group above the device's maximum";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--wg");
    }
}

TEST(MemoryReversePlan, InputFilesAreReadOrRefusedByName) {
    test::TempDir dir;
    test::writeFile(dir / "three.bin", "abc");
    test::writeFile(dir / "empty.bin", "");
    EXPECT_EQ(readReverseInput((dir / "three.bin").string()), (Bytes{'a', 'b', 'c'}));
    const auto refused = [](const std::string& path, const std::string& why) {
        try {
            readReverseInput(path);
            ADD_FAILURE() << path << " was read";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
        }
    };
    refused((dir / "empty.bin").string(), "empty.bin: file is empty");
    refused((dir / "nope.bin").string(), "nope.bin: no such file");
    refused(dir.path().string(), "is a folder, not a file");
    refused("", "--input: the file name is empty");
    // The file's bytes run, named by the file.
    ReverseParams params;
    params.inputPath = (dir / "three.bin").string();
    params.input = std::make_shared<const Bytes>(readReverseInput(*params.inputPath));
    const ReverseSpec spec = planReverse(test::sharedDevice().info(), params);
    EXPECT_EQ(spec.input->size(), 3u);
    EXPECT_EQ(spec.source, *params.inputPath);
}

} // namespace
} // namespace histlab
