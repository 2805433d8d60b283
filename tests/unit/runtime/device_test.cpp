// Devices: enumeration and selection, capability probes, the program cache, build failures,
// kernel sources and their override folder, OpenCL error names.
#include "unitsupport.h"

#include "pipelines/histogram256/histogram256.h"
#include "runtime/errors.h"
#include "runtime/kernelsource.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iostream>

namespace histlab {
namespace {

using test::sharedDevice;
using test::TempDir;

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

std::string refusedSelection(const std::string& selector, const std::vector<DeviceInfo>& all) {
    try {
        const int i = selectDevice(selector, all);
        ADD_FAILURE() << "'" << selector << "' selected device " << i;
        return {};
    } catch (const UsageError& e) {
        return e.parameter();
    }
}

TEST(Devices, EnumerationIsNonEmptyWithStableIndices) {
    const auto all = enumerateDevices();
    ASSERT_FALSE(all.empty());
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].index, static_cast<int>(i));
        EXPECT_FALSE(all[i].name.empty());
        EXPECT_FALSE(all[i].platformName.empty());
        EXPECT_GT(all[i].computeUnits, 0u);
        EXPECT_GT(all[i].maxWorkGroupSize, 0u);
        EXPECT_GT(all[i].maxAllocBytes, 0u);
        EXPECT_NE(all[i].name.back(), '\0') << "names are trimmed";
    }
}

TEST(Devices, SelectionOnThisMachine) {
    const auto all = enumerateDevices();
    ASSERT_FALSE(all.empty());
    const bool hasGpu = std::any_of(all.begin(), all.end(),
                                    [](const DeviceInfo& d) { return d.type == DeviceType::Gpu; });
    const bool hasCpu = std::any_of(all.begin(), all.end(),
                                    [](const DeviceInfo& d) { return d.type == DeviceType::Cpu; });
    const int chosen = selectDevice("", all);
    EXPECT_EQ(selectDevice("auto", all), chosen);
    EXPECT_EQ(selectDevice("AUTO", all), chosen);
    if (hasGpu) {
        EXPECT_EQ(all[chosen].type, DeviceType::Gpu);
    } else if (hasCpu) {
        EXPECT_EQ(all[chosen].type, DeviceType::Cpu);
    }
    EXPECT_EQ(selectDevice("0", all), 0);
    if (hasCpu) {
        EXPECT_EQ(all[selectDevice("cpu", all)].type, DeviceType::Cpu);
    } else {
        EXPECT_EQ(refusedSelection("cpu", all), "--device");
    }
    if (hasGpu) {
        EXPECT_EQ(all[selectDevice("gpu", all)].type, DeviceType::Gpu);
    } else {
        EXPECT_EQ(refusedSelection("gpu", all), "--device");
    }

    // Case-insensitive substrings of the device name and of the platform name (PoCL: device
    // "pthread-...", platform "Portable Computing Language"; "pocl" itself is in neither).
    const DeviceInfo& d = all.back();
    EXPECT_EQ(all[selectDevice(upper(d.name), all)].name, d.name);
    const std::string part = d.name.substr(d.name.size() / 3, 5);
    const int byPart = selectDevice(upper(part), all);
    const std::string upperPart = upper(part);
    EXPECT_TRUE(upper(all[byPart].name).find(upperPart) != std::string::npos ||
                upper(all[byPart].platformName).find(upperPart) != std::string::npos)
        << part;
    const int byPlatform = selectDevice(upper(d.platformName), all);
    EXPECT_EQ(all[byPlatform].platformName, d.platformName);

    EXPECT_EQ(refusedSelection("no-such-device-xyz", all), "--device");
    EXPECT_EQ(refusedSelection(std::to_string(all.size()), all), "--device");
    EXPECT_EQ(refusedSelection("-1", all), "--device");
    EXPECT_EQ(refusedSelection("999999", all), "--device");
}

DeviceInfo makeInfo(int index, const char* platform, const char* name, DeviceType type) {
    DeviceInfo d;
    d.index = index;
    d.platformIndex = index;
    d.platformName = platform;
    d.name = name;
    d.type = type;
    return d;
}

std::vector<DeviceInfo> handMade() {
    return {makeInfo(0, "Portable Computing Language", "pthread-cpu", DeviceType::Cpu),
            makeInfo(1, "NVIDIA CUDA", "NVIDIA H200", DeviceType::Gpu),
            makeInfo(2, "Some FPGA", "board", DeviceType::Accelerator)};
}

TEST(Devices, SelectionOnAHandMadeList) {
    const auto all = handMade();
    EXPECT_EQ(selectDevice("", all), 1) << "the default picks the GPU";
    EXPECT_EQ(selectDevice("auto", all), 1);
    EXPECT_EQ(selectDevice("gpu", all), 1);
    EXPECT_EQ(selectDevice("GPU", all), 1);
    EXPECT_EQ(selectDevice("cpu", all), 0);
    EXPECT_EQ(selectDevice("2", all), 2);
    EXPECT_EQ(selectDevice("h200", all), 1);
    EXPECT_EQ(selectDevice("cuda", all), 1);
    EXPECT_EQ(selectDevice("PORTABLE", all), 0);
    EXPECT_EQ(selectDevice("fpga", all), 2);
    EXPECT_EQ(refusedSelection("3", all), "--device");
    EXPECT_EQ(refusedSelection("amd", all), "--device");

    // Without a GPU the default is the CPU; without both, the first device.
    const std::vector<DeviceInfo> cpuOnly{all[2], all[0]};
    std::vector<DeviceInfo> renumbered = cpuOnly;
    renumbered[0].index = 0;
    renumbered[1].index = 1;
    EXPECT_EQ(selectDevice("", renumbered), 1);
    EXPECT_EQ(refusedSelection("gpu", renumbered), "--device");
    std::vector<DeviceInfo> accOnly{all[2]};
    accOnly[0].index = 0;
    EXPECT_EQ(selectDevice("", accOnly), 0);
    EXPECT_THROW(selectDevice("", {}), DeviceError);
}

TEST(Devices, DeviceSetOpensOnceAndRefusesBadIndices) {
    DeviceSet set;
    Device& a = set.select("");
    Device& b = set.open(a.info().index);
    EXPECT_EQ(&a, &b);
    try {
        set.open(static_cast<int>(set.infos().size()));
        ADD_FAILURE() << "out-of-range index opened";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--device");
    }
}

// ---------------------------------------------------------------------------------------------

TEST(Probes, CapabilitiesAreConsistentAndExplained) {
    Device& device = sharedDevice();
    const Capabilities& caps = device.capabilities();
    std::cout << "[ probe    ] " << device.info().name << "\n"
              << "[ probe    ]   non-uniform work-groups: "
              << (caps.nonUniformWorkGroups ? "yes" : "no") << " (" << caps.nonUniformDetail
              << ")\n"
              << "[ probe    ]   work_group_scan_exclusive_add: "
              << (caps.workGroupScan ? "yes" : "no") << " (" << caps.workGroupScanDetail << ")"
              << std::endl;
    RecordProperty("non_uniform_detail", caps.nonUniformDetail);
    RecordProperty("work_group_scan_detail", caps.workGroupScanDetail);
    EXPECT_FALSE(caps.nonUniformDetail.empty());
    EXPECT_FALSE(caps.workGroupScanDetail.empty());
    if (!caps.nonUniformWorkGroups) {
        const bool why =
            caps.nonUniformDetail.find("CL_INVALID_WORK_GROUP_SIZE") != std::string::npos ||
            caps.nonUniformDetail.find("build failed") != std::string::npos ||
            caps.nonUniformDetail.find("last group") != std::string::npos;
        EXPECT_TRUE(why) << caps.nonUniformDetail;
    }
    if (!caps.workGroupScan) {
        const bool why = caps.workGroupScanDetail.find("build failed") != std::string::npos ||
                         caps.workGroupScanDetail.find("wrong") != std::string::npos ||
                         caps.workGroupScanDetail.find("CL_") != std::string::npos;
        EXPECT_TRUE(why) << caps.workGroupScanDetail;
    }
    // Probed once, then remembered.
    EXPECT_EQ(&device.capabilities(), &caps);
}

TEST(Probes, PoclMatchesWhatTheDesignRecorded) {
    Device& device = sharedDevice();
    if (device.info().platformName.find("Portable Computing Language") == std::string::npos)
        GTEST_SKIP() << "not PoCL (" << device.info().platformName
                     << "): its probe results were recorded for PoCL 3.1 only";
    const Capabilities& caps = device.capabilities();
    if (caps.nonUniformWorkGroups || caps.workGroupScan)
        GTEST_SKIP() << "this PoCL supports what 3.1 did not: non-uniform "
                     << caps.nonUniformWorkGroups << ", scan " << caps.workGroupScan;
    EXPECT_TRUE(caps.nonUniformDetail.find("CL_INVALID_WORK_GROUP_SIZE") != std::string::npos ||
                caps.nonUniformDetail.find("build failed") != std::string::npos)
        << caps.nonUniformDetail;
    EXPECT_NE(caps.workGroupScanDetail.find("build failed"), std::string::npos)
        << caps.workGroupScanDetail;
}

// ---------------------------------------------------------------------------------------------

/// Restores the embedded kernels whatever a test does with the override folder.
class KernelDirTest : public ::testing::Test {
protected:
    void TearDown() override { setKernelDir(""); }
    TempDir dir;
};

TEST_F(KernelDirTest, ProgramCacheBuildsEachSourceAndOptionsOnce) {
    Device& device = sharedDevice();
    const std::size_t before = device.cachedPrograms();
    device.program("probe", "-D HISTLAB_UNIT_CACHE=1");
    EXPECT_EQ(device.cachedPrograms(), before + 1);
    device.program("probe", "-D HISTLAB_UNIT_CACHE=1");
    EXPECT_EQ(device.cachedPrograms(), before + 1) << "same family and options: cached";
    device.program("probe", "-D HISTLAB_UNIT_CACHE=2");
    EXPECT_EQ(device.cachedPrograms(), before + 2) << "other options: a new program";

    // An override with different text is a different source: built anew.
    test::writeFile(dir / "probe.cl", loadKernelSource("probe").text + "\n// edited\n");
    setKernelDir(dir.path().string());
    device.program("probe", "-D HISTLAB_UNIT_CACHE=1");
    EXPECT_EQ(device.cachedPrograms(), before + 3);
}

TEST_F(KernelDirTest, BuildFailureCarriesFileOptionsAndLog) {
    test::writeFile(dir / "broken.cl", "__kernel void broken(__global uint* out)\n"
                                       "{\n"
                                       "    out[0] = histlab_undefined_symbol;\n"
                                       "}\n");
    EXPECT_THROW(sharedDevice().program("broken", "-D X=1"), InputError)
        << "no override folder yet: the family is unknown";
    setKernelDir(dir.path().string());
    const std::string options = "-D X=1";
    try {
        sharedDevice().program("broken", options);
        FAIL() << "a broken kernel built";
    } catch (const BuildError& e) {
        const std::string what = e.what();
        std::cout << "[ build    ] " << what << std::endl;
        // HISTLAB_EXTRA_BUILD_OPTIONS, when set, is appended.
        EXPECT_EQ(e.options().rfind(options, 0), 0u) << e.options();
        EXPECT_EQ(e.code(), -11);
        EXPECT_NE(e.buildLog().find("histlab_undefined_symbol"), std::string::npos) << e.buildLog();
        EXPECT_NE(what.find(options), std::string::npos);
        EXPECT_NE(what.find(e.buildLog()), std::string::npos);
        EXPECT_NE(what.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos);
        EXPECT_NE(what.find((dir / "broken.cl").string()), std::string::npos)
            << "the message names the override file that failed";
        // Guards a bug: kernelFile() is documented (runner.h, JobError::kernelFile) as the
        // kernel's file, "kernels/NAME.cl", but Device::program passes the bare family name.
        EXPECT_TRUE(e.kernelFile().ends_with("broken.cl")) << "kernelFile() = " << e.kernelFile();
    }
}

TEST_F(KernelDirTest, OverrideFolderIsReadFirst) {
    const KernelSource embedded = loadKernelSource("histogram256");
    EXPECT_EQ(embedded.origin, "embedded");
    EXPECT_EQ(embedded.name, "histogram256");
    EXPECT_NE(embedded.text.find("accumulate_histogram"), std::string::npos);

    const std::string text = "// an edited copy\n" + embedded.text;
    test::writeFile(dir / "histogram256.cl", text);
    setKernelDir(dir.path().string());
    EXPECT_EQ(kernelDir(), dir.path().string());
    const KernelSource over = loadKernelSource("histogram256");
    EXPECT_EQ(over.text, text);
    EXPECT_EQ(over.origin, (dir / "histogram256.cl").string());
    // Families absent from the folder still come from the embedded copies.
    EXPECT_EQ(loadKernelSource("probe").origin, "embedded");

    setKernelDir("");
    EXPECT_EQ(loadKernelSource("histogram256").origin, "embedded");
}

TEST_F(KernelDirTest, MissingFolderAndUnknownFamily) {
    try {
        setKernelDir((dir / "does-not-exist").string());
        ADD_FAILURE() << "a missing folder was accepted";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--kernel-dir");
    }
    EXPECT_EQ(kernelDir(), "") << "a refused folder changes nothing";
    EXPECT_THROW(loadKernelSource("no_such_family"), InputError);
}

TEST_F(KernelDirTest, BrokenHistogramKernelFailsTheRunWithABuildError) {
    test::writeFile(dir / "histogram256.cl", "__kernel void accumulate_histogram( {\n");
    setKernelDir(dir.path().string());
    const HostImage img = test::syntheticImage(SyntheticKind::Random, 100, 1);
    HistogramRunOptions o;
    o.repeats = 1;
    try {
        runHistogram(sharedDevice(), img, {}, o);
        FAIL() << "a broken histogram256.cl ran";
    } catch (const BuildError& e) {
        EXPECT_NE(e.options().find("-D NCHAN=1"), std::string::npos) << e.options();
        EXPECT_FALSE(e.buildLog().empty());
    }
}

// ---------------------------------------------------------------------------------------------

TEST(ClErrors, NamesAndDescriptions) {
    EXPECT_STREQ(clErrorName(-54), "CL_INVALID_WORK_GROUP_SIZE");
    EXPECT_STREQ(clErrorName(0), "CL_SUCCESS");
    EXPECT_STREQ(clErrorName(-11), "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_STREQ(clErrorName(-5), "CL_OUT_OF_RESOURCES");
    EXPECT_STREQ(clErrorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    EXPECT_STREQ(clErrorName(-12345), "CL_UNKNOWN_ERROR");
    EXPECT_EQ(describeClError("clEnqueueNDRangeKernel", -54),
              "clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE (-54)");
    EXPECT_EQ(describeClError(nullptr, -5), "OpenCL call failed: CL_OUT_OF_RESOURCES (-5)");
}

TEST(ClErrors, RethrowNamesTheCallAndCode) {
    try {
        rethrowClError(cl::Error(-54, "clEnqueueNDRangeKernel"));
    } catch (const DeviceError& e) {
        EXPECT_EQ(e.code(), -54);
        EXPECT_STREQ(e.what(), "clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE (-54)");
    }
}

// A launch refused for its group: the two errors that mean it, and the one line that says so,
// on --wg when the size was asked for, as the variant's when it was a default.
TEST(ClErrors, RefusedGroupNamesTheDeviceTheKernelAndItsLimit) {
    EXPECT_TRUE(groupSizeRefused(CL_INVALID_WORK_GROUP_SIZE));
    EXPECT_TRUE(groupSizeRefused(CL_OUT_OF_RESOURCES));
    EXPECT_FALSE(groupSizeRefused(CL_INVALID_KERNEL_ARGS));
    EXPECT_FALSE(groupSizeRefused(CL_SUCCESS));
    Device& device = sharedDevice();
    const cl::Kernel kernel(device.program("blur", "-D BORDER=2 -D NCHAN=1 -D DEPTH16=0"),
                            "blur_full");
    const std::string limit = std::to_string(device.kernelWorkGroupLimit(kernel));
    bool thrown = false;
    try {
        device.throwGroupRefused(kernel, 576, CL_OUT_OF_RESOURCES, true);
    } catch (const UsageError& e) {
        thrown = true;
        EXPECT_EQ(e.parameter(), "--wg");
        EXPECT_EQ(std::string(e.what()), "--wg: 576 work-items per group: " + device.info().name +
                                             " refused the launch of blur_full "
                                             "(CL_OUT_OF_RESOURCES; it reports a limit of " +
                                             limit + " for this kernel)");
    }
    EXPECT_TRUE(thrown) << "an asked group's refusal was not --wg's error";
    thrown = false;
    try {
        device.throwGroupRefused(kernel, 128, CL_INVALID_WORK_GROUP_SIZE, false);
    } catch (const UsageError& e) {
        ADD_FAILURE() << "a default group became --wg's error: " << e.what();
    } catch (const DeviceError& e) {
        // a device error with its code, as before: a batch hands the device's images on
        thrown = true;
        EXPECT_EQ(e.code(), CL_INVALID_WORK_GROUP_SIZE);
        EXPECT_NE(std::string(e.what()).find("128 work-items per group"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos)
            << e.what();
    }
    EXPECT_TRUE(thrown) << "a default group's refusal was not a device error";
}

TEST(ClErrors, ExceptionMessages) {
    const UsageError u("--banks", "3 is not a power of two");
    EXPECT_EQ(u.parameter(), "--banks");
    EXPECT_STREQ(u.what(), "--banks: 3 is not a power of two");
    const BuildError b("histogram256", "-D NCHAN=1", "error: x", -11);
    EXPECT_EQ(b.code(), -11);
    EXPECT_EQ(b.options(), "-D NCHAN=1");
    EXPECT_EQ(b.buildLog(), "error: x");
}

} // namespace
} // namespace histlab
