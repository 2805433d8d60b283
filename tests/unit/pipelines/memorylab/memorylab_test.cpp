// The memory lab on the test device (PoCL in CI), small sizes: the plan's decisions (the parts,
// the sizes by sort of device, what cannot run, each blamed on its option), a run that streams
// every measurement, and the report files (CSV rows, JSON in the shapes every HistLab file
// shares).
#include "unitsupport.h"

#include "pipelines/memorylab/memorylab.h"
#include "pipelines/registry.h"
#include "report/json.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace histlab {
namespace {

DeviceInfo deviceOf(DeviceType type, std::uint64_t largestBuffer = std::uint64_t(4) << 30) {
    DeviceInfo info;
    info.name = "test device";
    info.type = type;
    info.maxWorkGroupSize = 256;
    info.maxAllocBytes = largestBuffer;
    return info;
}

// The largest transfer on a CPU device, decided once for histlab-cli memory and the Memory tab.
// The two differed: 16 MiB in the window, 1 GiB in the CLI. The answer: 256 MiB on a CPU device
// (1 GiB on any other, never above the largest buffer). A demanding user wants the transfer
// curve to reach past the caches to the memory's bandwidth, which 16 MiB does not on a CPU with
// a large last-level cache; 1 GiB adds no figure to 256 MiB but, on a CPU device where every
// "device" buffer is host memory, takes 6 GiB (six buffers of the largest size) and minutes of
// PoCL's time checking every byte of every run, while the window waits. runTransfers' own
// default (a spec without a largest size) is the same function, so there is one answer.
TEST(MemoryLabPlan, LargestTransferBySortOfDevice) {
    EXPECT_EQ(planMemoryLab(deviceOf(DeviceType::Cpu), {}).transfers->maxBytes, std::uint64_t(256)
                                                                                    << 20);
    EXPECT_EQ(planMemoryLab(deviceOf(DeviceType::Gpu), {}).transfers->maxBytes, std::uint64_t(1)
                                                                                    << 30);
    EXPECT_EQ(planMemoryLab(deviceOf(DeviceType::Accelerator), {}).transfers->maxBytes,
              std::uint64_t(1) << 30);
    // A device whose largest buffer is smaller: that buffer.
    EXPECT_EQ(planMemoryLab(deviceOf(DeviceType::Gpu, 100 << 20), {}).transfers->maxBytes,
              std::uint64_t(100) << 20);
    EXPECT_EQ(planMemoryLab(deviceOf(DeviceType::Cpu, 100 << 20), {}).transfers->maxBytes,
              std::uint64_t(100) << 20);
    EXPECT_EQ(defaultTransferMax(deviceOf(DeviceType::Cpu)), std::uint64_t(256) << 20);
    // The sweep starts at 4 KiB, or at the largest size when that is smaller.
    EXPECT_EQ(planMemoryLab(deviceOf(DeviceType::Cpu), {}).transfers->minBytes, 4096u);
    MemoryLabParams tiny;
    tiny.maxBytes = 1000;
    EXPECT_EQ(planMemoryLab(deviceOf(DeviceType::Cpu), tiny).transfers->minBytes, 1000u);
}

TEST(MemoryLabPlan, PartsAndTheCeilingsBuffer) {
    const DeviceInfo cpu = deviceOf(DeviceType::Cpu), gpu = deviceOf(DeviceType::Gpu);
    // Neither part asked for: both.
    const MemoryLabPlan both = planMemoryLab(cpu, {});
    ASSERT_TRUE(both.ceilingBytes && both.transfers);
    EXPECT_EQ(*both.ceilingBytes, std::size_t(64) << 20);
    EXPECT_EQ(*planMemoryLab(gpu, {}).ceilingBytes, std::size_t(256) << 20);
    EXPECT_EQ(*planMemoryLab(deviceOf(DeviceType::Gpu, 100 << 20), {}).ceilingBytes,
              std::size_t(100) << 20);
    MemoryLabParams params;
    params.ceilings = true;
    params.repeats = 3;
    const MemoryLabPlan ceilings = planMemoryLab(cpu, params);
    EXPECT_TRUE(ceilings.ceilingBytes);
    EXPECT_FALSE(ceilings.transfers);
    EXPECT_EQ(ceilings.repeats, 3);
    // --max-size also caps the ceilings' buffer.
    params.maxBytes = 65536;
    EXPECT_EQ(*planMemoryLab(cpu, params).ceilingBytes, 65536u);
    params.ceilingBytes = 4096;
    EXPECT_EQ(*planMemoryLab(cpu, params).ceilingBytes, 4096u);
    params = {};
    params.transfers = true;
    const MemoryLabPlan transfers = planMemoryLab(cpu, params);
    EXPECT_FALSE(transfers.ceilingBytes);
    ASSERT_TRUE(transfers.transfers);
    EXPECT_TRUE(transfers.transfers->launchLatency);
    EXPECT_EQ(transfers.transfers->kinds.size(), 5u);
}

/// The option a plan of `params` blames, or "" when it plans.
std::string blamed(const DeviceInfo& device, const MemoryLabParams& params) {
    try {
        planMemoryLab(device, params);
        return "";
    } catch (const UsageError& e) {
        return e.parameter();
    }
}

TEST(MemoryLabPlan, WhatCannotRunIsRefusedByItsOption) {
    const DeviceInfo cpu = deviceOf(DeviceType::Cpu, std::uint64_t(1) << 30);
    MemoryLabParams params;
    params.maxBytes = (std::uint64_t(1) << 30) + 1;
    EXPECT_EQ(blamed(cpu, params), "--max-size");
    params.ceilings = true; // it also caps the ceilings: refused whatever runs
    EXPECT_EQ(blamed(cpu, params), "--max-size");
    params = {};
    params.transfers = true;
    params.minBytes = 65536;
    params.maxBytes = 4096;
    EXPECT_EQ(blamed(cpu, params), "--min-size");
    params.transfers = false;
    params.ceilings = true;
    params.minBytes.reset();
    params.maxBytes = 32;
    EXPECT_EQ(blamed(cpu, params), "--max-size") << "the ceilings need 64 bytes";
    params.ceilingBytes = 16;
    params.maxBytes.reset();
    EXPECT_EQ(blamed(cpu, params), "--ceiling-size");
    params = {};
    params.repeats = 0;
    EXPECT_EQ(blamed(cpu, params), "--repeat");
}

TEST(MemoryLab, RunStreamsEveryMeasurement) {
    Device& device = test::sharedDevice();
    MemoryLabParams params;
    params.maxBytes = 8192;
    params.ceilingBytes = 4096;
    params.repeats = 1;
    const MemoryLabPlan plan = planMemoryLab(device.info(), params);
    std::vector<std::string> lines;
    const MemoryRun run = runMemoryLab(device, plan, {}, [&](const MemoryLabItem& item) {
        lines.push_back(describeMemoryLabItem(item));
    });
    ASSERT_TRUE(run.ceilings && run.transfers && run.transfers->launch);
    // 5 widths, 5 kinds x 2 sizes, the launch, in that order.
    ASSERT_EQ(lines.size(), 5u + 10u + 1u);
    EXPECT_EQ(lines[0], "ceiling uint: verified");
    EXPECT_EQ(lines[4], "ceiling uint16: verified");
    EXPECT_EQ(lines[5], "h2d-pageable 4 KiB: verified");
    EXPECT_EQ(lines[14], "d2d 8 KiB: verified");
    EXPECT_EQ(lines[15], "launch latency: timed");
    const std::string text = memoryText(run);
    EXPECT_EQ(text.rfind("memory lab\ndevice ", 0), 0u) << text;
    EXPECT_NE(text.find("\nbandwidth ceilings on 4 KiB of random bytes"), std::string::npos);
    EXPECT_NE(text.find("\nkernel launch latency (do_nothing, 1 work-item"), std::string::npos);
    // histlab-cli memory is the registered pipeline's command.
    const Pipeline* p = findPipeline("memory");
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(p->runnable());
}

TEST(MemoryReport, CsvAndJson) {
    Device& device = test::sharedDevice();
    MemoryRun run;
    run.device = device.info();
    run.ceilings = measureCeilingWidths(device, 4096, 1, {}, {1, 4});
    TransferSpec spec;
    spec.minBytes = 1024;
    spec.maxBytes = 2048;
    spec.kinds = {TransferKind::HostToDevicePageable, TransferKind::DeviceToDevice};
    spec.repeats = 1;
    spec.launchRepeats = 3;
    run.transfers = runTransfers(device, spec);
    const std::string csv = memoryCsv(run);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "section,kind,width,bytes,median_ms,min_ms,profiled_median_ms,gbps,status,detail");
    // 2 widths x (read, copy) + 2 kinds x 2 sizes + the launch.
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4 + 4 + 1) << csv;
    EXPECT_NE(csv.find("\nceiling,copy,4,8192,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\ntransfer,d2d,,2048,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nlaunch,do_nothing,,0,"), std::string::npos) << csv;
    // The launch speaks the one status vocabulary: nothing to verify, so timed.
    EXPECT_NE(csv.find(",timed,\n"), std::string::npos) << csv;
    const Json json = parseJsonText(memoryJson(run), "memory.json");
    EXPECT_EQ(json.at("tool"), "histlab-cli memory");
    EXPECT_EQ(json.at("ceilings").at("widths").size(), 2u);
    EXPECT_EQ(json.at("transfers").at("points").size(), 4u);
    EXPECT_EQ(json.at("transfers").at("points")[0].at("status"), "verified");
    EXPECT_EQ(json.at("launch").at("ran"), true);
    EXPECT_EQ(json.at("launch").at("status"), "timed");
    // The shapes every file shares: the device, the ceilings, the timings.
    EXPECT_EQ(json.at("device").at("name"), run.device.name);
    const Json& copy4 = json.at("ceilings").at("widths")[1].at("copy");
    EXPECT_EQ(copy4.at("bytes"), 8192);
    EXPECT_EQ(timingFromJson(copy4).samplesMs, run.ceilings->widths[1].copy.stats.samplesMs);
    EXPECT_EQ(timingFromJson(json.at("transfers").at("points")[3].at("latency")).samplesMs,
              run.transfers->points[3].wall.samplesMs);
    // Either part may be absent.
    MemoryRun ceilingsOnly;
    ceilingsOnly.ceilings = run.ceilings;
    EXPECT_FALSE(parseJsonText(memoryJson(ceilingsOnly), "memory.json").contains("transfers"));
}

} // namespace
} // namespace histlab
