#include "unitsupport.h"

#include "report/json.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace histlab::test {

DeviceSet& sharedDeviceSet() {
    static DeviceSet devices;
    return devices;
}

Device& sharedDevice() {
    static Device& device = sharedDeviceSet().select("");
    return device;
}

std::vector<Device*> allSharedDevices() {
    std::vector<Device*> devices;
    for (std::size_t i = 0; i < sharedDeviceSet().infos().size(); ++i)
        devices.push_back(&sharedDeviceSet().open(int(i)));
    return devices;
}

void expectPiecesCover(const SplitTiming& run, std::uint64_t length) {
    std::uint64_t at = 0, kernelAt = 0;
    for (const SplitShare& s : run.shares) {
        if (s.length) {
            EXPECT_EQ(s.offset, at);
            at += s.length;
        }
        if (s.kernelLength) {
            EXPECT_EQ(s.kernelOffset, kernelAt);
            kernelAt += s.kernelLength;
        }
    }
    EXPECT_EQ(at, length);
    EXPECT_EQ(kernelAt, length);
}

TempDir::TempDir() {
    static std::atomic<int> counter{0};
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    m_path = std::filesystem::temp_directory_path() /
             ("histlab-unit-" + std::to_string(::getpid()) + "-" + std::to_string(stamp) + "-" +
              std::to_string(counter++));
    std::filesystem::create_directories(m_path);
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

void writeFile(const std::filesystem::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::map<std::string, Counts> independentCounts(const HostImage& image) {
    // 8-bit view of the samples: the high byte of 16-bit values (host byte order).
    const std::size_t samples = image.pixelCount() * std::size_t(image.channels);
    std::vector<std::uint8_t> v(samples);
    for (std::size_t i = 0; i < samples; ++i) {
        if (image.depth == 16) {
            std::uint16_t w;
            std::memcpy(&w, image.data.data() + 2 * i, 2);
            v[i] = static_cast<std::uint8_t>(w >> 8);
        } else {
            v[i] = image.data[i];
        }
    }
    std::map<std::string, Counts> out;
    if (image.channels == 1) {
        Counts& g = out["gray"];
        g.fill(0);
        for (std::uint8_t x : v)
            ++g[x];
        return out;
    }
    static const char* names[] = {"r", "g", "b", "a"};
    for (int c = 0; c < image.channels; ++c)
        out[names[c]].fill(0);
    Counts& gray = out["gray"];
    gray.fill(0);
    for (std::size_t p = 0; p < image.pixelCount(); ++p) {
        const std::uint8_t* px = v.data() + p * image.channels;
        for (int c = 0; c < image.channels; ++c)
            ++out[names[c]][px[c]];
        // The core's definition of gray; whether it equals OpenCV's cvtColor is checked on its
        // own (image_test.cpp, io_test.cpp), so one luma bug fails those tests, not all of these.
        const unsigned y = lumaOf(px[0], px[1], px[2]);
        ++gray[y];
    }
    return out;
}

HostImage grayImage(int width, int depth, const std::vector<std::uint16_t>& values) {
    HostImage img;
    img.width = width;
    img.height = int(values.size()) / width;
    img.channels = 1;
    img.depth = depth;
    img.source = std::to_string(depth) + "-bit";
    for (std::uint16_t v : values) {
        if (depth == 16) {
            const auto at = img.data.size();
            img.data.resize(at + 2);
            std::memcpy(img.data.data() + at, &v, 2);
        } else {
            img.data.push_back(static_cast<std::uint8_t>(v));
        }
    }
    return img;
}

HostImage syntheticImage(SyntheticKind kind, std::size_t pixels, int channels, int width,
                         std::uint64_t seed) {
    HostImage img = makeSynthetic(kind, pixels * std::size_t(channels), seed);
    img.channels = channels;
    img.width = width > 0 ? width : static_cast<int>(pixels);
    img.height = static_cast<int>(pixels / std::size_t(img.width));
    if (std::size_t(img.width) * std::size_t(img.height) != pixels)
        throw std::logic_error("syntheticImage: width does not divide the pixel count");
    img.source += " " + std::to_string(img.width) + "x" + std::to_string(img.height) + "x" +
                  std::to_string(channels);
    return img;
}

int maxFittingBanks(const DeviceInfo& info, int histograms) {
    const std::uint64_t perCopy = 256ull * 4 * std::uint64_t(histograms);
    int banks = 0;
    for (std::uint64_t b = 1; b * perCopy <= info.localMemBytes && b <= (1u << 20); b *= 2)
        banks = static_cast<int>(b);
    return banks;
}

DeviceInfo describedDevice(DeviceType type) {
    DeviceInfo info;
    info.name = "described device";
    info.type = type;
    info.maxWorkGroupSize = 1024;
    info.localMemBytes = 48 * 1024;
    info.computeUnits = 8;
    info.maxAllocBytes = std::uint64_t(1) << 30;
    return info;
}

std::any runPipeline(const Pipeline& pipeline, const std::any& params) {
    const DeviceInfo& device = sharedDevice().info();
    const std::any plan = pipeline.plan({device}, params);
    JobRunner runner;
    auto outcome = runner.runAndWait(
        [&](JobContext& ctx) { return pipeline.run(ctx, {device.index}, plan, {}); });
    if (const JobError* e = std::get_if<JobError>(&outcome)) {
        ADD_FAILURE() << pipeline.name << ": " << e->message;
        return {};
    }
    return std::get<std::any>(outcome);
}

::testing::AssertionResult validJson(const std::string& json) {
    try {
        parseJsonText(json, "test");
    } catch (const InputError& e) {
        return ::testing::AssertionFailure() << e.what();
    }
    return ::testing::AssertionSuccess();
}

} // namespace histlab::test
