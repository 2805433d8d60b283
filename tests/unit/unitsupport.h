#pragma once
// Shared helpers of the core unit tests: one opened device per test binary (opening PoCL is
// slow), temporary folders, and CPU counts written independently of the core's reference.
#include "image/image.h"
#include "pipelines/devicesplit.h"
#include "pipelines/pipeline.h"
#include "runtime/device.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <any>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace histlab::test {

/// The devices of every test (what runs on a DeviceSet: experiments), one program cache.
DeviceSet& sharedDeviceSet();
/// The device every test runs on: the default selection ("" = first GPU, else the CPU).
Device& sharedDevice();
/// Every device of sharedDeviceSet(), opened: what a split across devices runs on.
std::vector<Device*> allSharedDevices();
/// Each kind of piece of a split (end to end, kernels only) covers [0, length) once, in order.
void expectPiecesCover(const SplitTiming& run, std::uint64_t length);

/// A fresh folder under the system's temporary folder, removed with everything in it.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

private:
    std::filesystem::path m_path;
};

/// Writes `content` to `path` (binary).
void writeFile(const std::filesystem::path& path, const std::string& content);
std::string readFile(const std::filesystem::path& path);

using Counts = std::array<std::uint64_t, 256>;

/// Counts of an 8-bit (or 16-bit: high byte) image by channel name: "r", "g", "b", "a" and
/// "gray" (luma per the core's lumaOf), or just "gray" for a gray image. Independent of
/// referenceHistogram() and lumaPlane() on purpose.
std::map<std::string, Counts> independentCounts(const HostImage& image);

/// An 8-bit image of `pixels` pixels with `channels` channels, one row (or `width` wide),
/// filled with the synthetic pattern.
HostImage syntheticImage(SyntheticKind kind, std::size_t pixels, int channels, int width = 0,
                         std::uint64_t seed = 1);

/// A gray image `width` pixels wide of 8- or 16-bit `values`, row after row.
HostImage grayImage(int width, int depth, const std::vector<std::uint16_t>& values);

/// The largest power of two number of local copies of 256 * histograms bins that fits the device.
int maxFittingBanks(const DeviceInfo& info, int histograms);

/// The parameter named by the UsageError `f` throws ("" when it throws none), as in "--banks".
template <typename F> std::string refusedParameter(F&& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.parameter();
    }
    return {};
}

/// A device's description without the device, for plans: a `type` device with a 1024-item
/// work-group limit, 48 KiB of local memory, 8 compute units and 1 GiB buffers.
DeviceInfo describedDevice(DeviceType type);

/// A registered pipeline's plan for the shared device and its run on a job runner's worker, as
/// histlab-cli runs it; the result (for the pipeline's report), or the job's error as a
/// failed test (an empty any).
std::any runPipeline(const Pipeline& pipeline, const std::any& params);

/// The text parses as one JSON document (the error says where it does not).
::testing::AssertionResult validJson(const std::string& json);

} // namespace histlab::test
