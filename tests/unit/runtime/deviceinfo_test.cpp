// The device query beyond the basics (what the Devices tab shows): what PoCL reports comes back
// complete and consistent, the listing carries the probes, the property rows and the text name
// every group, and a device's JSON round-trips (and a file from before these fields still reads).
#include "unitsupport.h"

#include "report/json.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace histlab {
namespace {

TEST(DeviceInfoQuery, OpenClVersionsParse) {
    EXPECT_EQ(parseOpenClVersion("OpenCL 3.0 CUDA"), std::make_pair(3, 0));
    EXPECT_EQ(parseOpenClVersion("OpenCL 1.2 pocl"), std::make_pair(1, 2));
    EXPECT_EQ(parseOpenClVersion("OpenCL 2.1"), std::make_pair(2, 1));
    EXPECT_EQ(parseOpenClVersion("Vulkan 1.3"), std::make_pair(0, 0));
    EXPECT_EQ(parseOpenClVersion("OpenCL x.y"), std::make_pair(0, 0));
    EXPECT_EQ(parseOpenClVersion(""), std::make_pair(0, 0));
}

TEST(DeviceInfoQuery, EveryDeviceReportsItsDetails) {
    for (const DeviceInfo& d : enumerateDevices()) {
        SCOPED_TRACE(d.name);
        // Every conformant device answers these; a refused one would be empty, never a crash.
        ASSERT_TRUE(d.maxWorkItemDimensions.has_value());
        EXPECT_GE(*d.maxWorkItemDimensions, 3u);
        EXPECT_EQ(d.maxWorkItemSizes.size(), std::size_t(*d.maxWorkItemDimensions));
        EXPECT_GE(*std::max_element(d.maxWorkItemSizes.begin(), d.maxWorkItemSizes.end()),
                  std::size_t(1));
        EXPECT_GT(d.constantMemBytes.value_or(0), 0u);
        EXPECT_GE(d.maxConstantArgs.value_or(0), 4u); // the minimum OpenCL allows
        EXPECT_TRUE(d.addressBits == 32u || d.addressBits == 64u);
        EXPECT_TRUE(d.imageSupport.has_value());
        EXPECT_GT(d.profilingTimerResolutionNs.value_or(0), 0u);
        EXPECT_NE(d.queueProperties.find("profiling"), std::string::npos) << d.queueProperties;
        EXPECT_TRUE(d.localMemType == "local" || d.localMemType == "global") << d.localMemType;
        EXPECT_FALSE(d.globalMemCacheType.empty());
        EXPECT_GE(d.preferredVectorWidths[2].value_or(0), 1u); // int
        EXPECT_GE(d.nativeVectorWidths[2].value_or(0), 1u);
        // The OpenCL C version the device names is among those it lists.
        ASSERT_FALSE(d.openclCVersions.empty());
        const std::string named = d.openclCVersion.substr(std::string("OpenCL C ").size(), 3);
        EXPECT_NE(std::find(d.openclCVersions.begin(), d.openclCVersions.end(), named),
                  d.openclCVersions.end())
            << d.openclCVersion;
        // Optional features are asked of OpenCL 3.0 devices only, and each is answered or n/a.
        if (parseOpenClVersion(d.deviceVersion) >= std::make_pair(3, 0)) {
            const auto feature = [&](const std::string& name) {
                for (const ReportedFeature& f : d.optionalFeatures)
                    if (f.name == name)
                        return f.value;
                return std::string("(missing)");
            };
            for (const char* flag :
                 {"non_uniform_work_group_support", "work_group_collective_functions_support",
                  "generic_address_space_support"})
                EXPECT_TRUE(feature(flag) == "yes" || feature(flag) == "no" ||
                            feature(flag) == "n/a")
                    << flag << ": " << feature(flag);
        } else {
            EXPECT_TRUE(d.optionalFeatures.empty());
        }
    }
}

TEST(DeviceInfoQuery, ListingCarriesProbesAndTheirText) {
    DeviceSet set;
    const std::vector<DeviceListing> listing = listDevices(set);
    ASSERT_EQ(listing.size(), set.infos().size());
    const DeviceListing& first = listing.front();
    ASSERT_TRUE(first.capabilities.has_value()) << first.probeError;
    EXPECT_FALSE(first.capabilities->nonUniformDetail.empty());
    EXPECT_FALSE(first.capabilities->workGroupScanDetail.empty());

    const std::vector<DeviceProperty> rows = deviceProperties(first);
    auto value = [&](const std::string& name) {
        for (const DeviceProperty& p : rows)
            if (p.name == name)
                return p.value;
        return std::string("(missing)");
    };
    EXPECT_EQ(value("Name"), first.info.name);
    EXPECT_EQ(value("Driver version"), first.info.driverVersion);
    EXPECT_NE(value("Non-uniform work-groups").find(first.capabilities->nonUniformDetail),
              std::string::npos);
    EXPECT_NE(value("work_group_scan_exclusive_add").find(first.capabilities->workGroupScanDetail),
              std::string::npos);
    EXPECT_NE(value("Max work-item sizes").find(" x "), std::string::npos);
    for (const char* group : {"Device", "Compute", "Memory", "Extensions"})
        EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [&](const DeviceProperty& p) {
            return p.group == group;
        })) << group;

    const std::string text = devicesText(listing);
    EXPECT_EQ(text.rfind("device " + std::to_string(first.info.index) + ": " + first.info.name, 0),
              0u);
    EXPECT_NE(text.find("    Compute units: " + std::to_string(first.info.computeUnits) + "\n"),
              std::string::npos);

    // A device whose probes could not run says why, in the rows and in the JSON.
    DeviceListing broken = first;
    broken.capabilities.reset();
    broken.probeError = "clCreateContext failed: CL_OUT_OF_HOST_MEMORY (-6)";
    bool said = false;
    for (const DeviceProperty& p : deviceProperties(broken))
        said = said || p.value.find("CL_OUT_OF_HOST_MEMORY") != std::string::npos;
    EXPECT_TRUE(said);
    const Json doc =
        parseJsonText(devicesJson(std::vector<DeviceListing>{first, broken}), "devices");
    const Json& devices = doc.at("devices");
    ASSERT_EQ(devices.size(), 2u);
    EXPECT_EQ(devices[0].at("probes").at("work_group_scan").get<bool>(),
              first.capabilities->workGroupScan);
    EXPECT_FALSE(devices[1].contains("probes"));
    EXPECT_EQ(devices[1].at("probe_error").get<std::string>(), broken.probeError);
}

TEST(DeviceInfoQuery, JsonRoundTrip) {
    const DeviceInfo& d = test::sharedDevice().info();
    const std::string text = deviceJson(d).dump();
    // Sizes are whole numbers as written ("1310720", never "1.31072e+06").
    EXPECT_NE(text.find("\"local_mem_bytes\":" + std::to_string(d.localMemBytes) + ","),
              std::string::npos)
        << text;
    const DeviceInfo back = deviceFromJson(parseJsonText(text, "test"));
    EXPECT_EQ(back.name, d.name);
    EXPECT_EQ(back.driverVersion, d.driverVersion);
    EXPECT_EQ(back.platformVersion, d.platformVersion);
    EXPECT_EQ(back.openclCVersion, d.openclCVersion);
    EXPECT_EQ(back.type, d.type);
    EXPECT_EQ(back.maxWorkItemDimensions, d.maxWorkItemDimensions);
    EXPECT_EQ(back.maxWorkItemSizes, d.maxWorkItemSizes);
    EXPECT_EQ(back.constantMemBytes, d.constantMemBytes);
    EXPECT_EQ(back.maxConstantArgs, d.maxConstantArgs);
    EXPECT_EQ(back.globalMemCacheBytes, d.globalMemCacheBytes);
    EXPECT_EQ(back.globalMemCacheLineBytes, d.globalMemCacheLineBytes);
    EXPECT_EQ(back.globalMemCacheType, d.globalMemCacheType);
    EXPECT_EQ(back.localMemType, d.localMemType);
    EXPECT_EQ(back.imageSupport, d.imageSupport);
    EXPECT_EQ(back.addressBits, d.addressBits);
    EXPECT_EQ(back.profilingTimerResolutionNs, d.profilingTimerResolutionNs);
    EXPECT_EQ(back.queueProperties, d.queueProperties);
    EXPECT_EQ(back.preferredVectorWidths, d.preferredVectorWidths);
    EXPECT_EQ(back.nativeVectorWidths, d.nativeVectorWidths);
    EXPECT_EQ(back.openclCVersions, d.openclCVersions);
    EXPECT_EQ(back.extensions, d.extensions);
    ASSERT_EQ(back.optionalFeatures.size(), d.optionalFeatures.size());

    // A device saved before these fields existed (an older experiment file) still reads.
    const DeviceInfo old = deviceFromJson(parseJsonText(
        R"({"index": 0, "name": "old", "vendor": "v", "platform": "p", "driver": "1",
            "version": "OpenCL 1.2", "type": "gpu", "compute_units": 2, "max_clock_mhz": 3,
            "local_mem_bytes": 4, "global_mem_bytes": 5, "max_alloc_bytes": 6,
            "max_work_group_size": 7})",
        "test"));
    EXPECT_EQ(old.name, "old");
    EXPECT_EQ(old.type, DeviceType::Gpu);
    EXPECT_FALSE(old.maxWorkItemDimensions.has_value());
    EXPECT_TRUE(old.maxWorkItemSizes.empty());
    EXPECT_THROW(deviceFromJson(parseJsonText(R"({"name": "no index"})", "test")), InputError);
}

// A saved listing is any text: a count beyond its type, negative or fractional is the file's
// error, not a wrapped or undefined conversion (a fuzzer's 4e96 in max_work_item_sizes).
TEST(DeviceInfo, CountsOutOfRangeAreInputErrors) {
    const std::string base =
        R"({"index": 0, "name": "n", "vendor": "v", "platform": "p", "driver": "1",
            "version": "OpenCL 1.2", "type": "gpu", "max_clock_mhz": 3,
            "local_mem_bytes": 4, "global_mem_bytes": 5, "max_alloc_bytes": 6,
            "max_work_group_size": 7, )";
    auto message = [&](const std::string& tail) {
        try {
            deviceFromJson(parseJsonText(base + tail + "}", "test"));
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(message(R"("compute_units": 2, "max_work_item_sizes": [1024, 4e96])"),
              "key 'max_work_item_sizes': expected a whole number from 0 to "
              "18446744073709551615, found 4e+96");
    EXPECT_NE(message(R"("compute_units": 4294967296)").find("key 'compute_units'"),
              std::string::npos);
    EXPECT_NE(message(R"("compute_units": 2, "address_bits": -64)").find("key 'address_bits'"),
              std::string::npos);
    EXPECT_NE(
        message(R"("compute_units": 2, "max_work_item_sizes": [1.5])").find("max_work_item_sizes"),
        std::string::npos);
    EXPECT_EQ(message(R"("compute_units": 4294967295, "max_work_item_sizes": [1, 2])"),
              "(no error)");
}

TEST(DeviceInfoQuery, ProbeResultsAreRememberedPerDeviceAndDriver) {
    DeviceSet set;
    const std::vector<DeviceListing> probed = listDevices(set);
    ASSERT_FALSE(probed.empty());
    ASSERT_TRUE(probed.front().capabilities.has_value()) << probed.front().probeError;

    // Nothing remembered: every device is listed, none opened, each pending.
    DeviceSet fresh;
    for (const DeviceListing& d : listDevicesRemembered(fresh, {})) {
        EXPECT_EQ(d.probes, ProbeState::Pending);
        EXPECT_FALSE(d.capabilities.has_value());
        EXPECT_TRUE(d.probeError.empty());
    }

    // What was probed reads back from its text, and lists as remembered.
    const std::string text = rememberedProbesText({}, probed);
    const RememberedProbes kept = rememberedProbes(text);
    const std::vector<DeviceListing> again = listDevicesRemembered(fresh, kept);
    ASSERT_EQ(again.size(), probed.size());
    for (std::size_t i = 0; i < again.size(); ++i) {
        if (!probed[i].capabilities)
            continue; // a failed probe is not remembered
        EXPECT_EQ(again[i].probes, ProbeState::Remembered);
        ASSERT_TRUE(again[i].capabilities.has_value());
        EXPECT_EQ(again[i].capabilities->nonUniformWorkGroups,
                  probed[i].capabilities->nonUniformWorkGroups);
        EXPECT_EQ(again[i].capabilities->nonUniformDetail,
                  probed[i].capabilities->nonUniformDetail);
        EXPECT_EQ(again[i].capabilities->workGroupScan, probed[i].capabilities->workGroupScan);
        EXPECT_EQ(again[i].capabilities->workGroupScanDetail,
                  probed[i].capabilities->workGroupScanDetail);
    }
    bool says = false;
    for (const DeviceProperty& p : deviceProperties(again.front()))
        says = says || p.value.find("earlier run") != std::string::npos;
    EXPECT_TRUE(says);

    // Another driver version is another key: its results are not used.
    DeviceInfo updated = probed.front().info;
    updated.driverVersion += ".1";
    EXPECT_NE(probeKey(updated), probeKey(probed.front().info));
    EXPECT_EQ(kept.count(probeKey(updated)), 0u);

    // A device's earlier entries are kept beside new ones; damaged lines are skipped.
    RememberedProbes other;
    other["another device | driver 2"] = Capabilities{true, "seen", false, "no"};
    const RememberedProbes both = rememberedProbes(rememberedProbesText(other, probed));
    EXPECT_EQ(both.count("another device | driver 2"), 1u);
    EXPECT_EQ(both.count(probeKey(probed.front().info)), 1u);
    const RememberedProbes damaged = rememberedProbes(
        "key\t2\tx\t0\ty\nkey only\n\t1\ta\t1\tb\nname\twith\ttoo\tmany\tfields\there\n" + text);
    EXPECT_EQ(damaged.size(), kept.size());
    EXPECT_TRUE(rememberedProbes(std::string(4096, '\t')).empty());

    // Tabs or line ends in a detail cannot break the file's lines.
    DeviceListing odd = probed.front();
    odd.capabilities->nonUniformDetail = "two\tfields\nand a line";
    const RememberedProbes read = rememberedProbes(rememberedProbesText({}, {odd}));
    ASSERT_EQ(read.count(probeKey(odd.info)), 1u);
    EXPECT_EQ(read.at(probeKey(odd.info)).nonUniformDetail, "two fields and a line");
}

} // namespace
} // namespace histlab
