#include "pipelines/experiments/binsexperiment.h"

#include "runtime/errors.h"

#include <algorithm>
#include <cstring>

namespace histlab {

BinSpec binsExperimentSpec(int bins) {
    SamplePlane probe; // the type's automatic range: [0, 65536]
    probe.type = SampleType::U16;
    return makeBinSpec(probe, bins, std::nullopt);
}

std::vector<GridEntry> binsGrid(const DeviceInfo& device, std::size_t bytes,
                                const std::vector<int>& bins) {
    const std::size_t samples = bytes / sampleBytes(SampleType::U16);
    std::vector<GridEntry> grid;
    for (int count : bins.empty() ? defaultBinCounts() : bins) {
        const BinSpec spec = binsExperimentSpec(count);
        for (LargeBinMethod method : allLargeBinMethods()) {
            GridEntry e;
            e.bins = count;
            e.geometry = planLargeBinGeometry(device, spec, samples, method);
            e.series = largeBinMethodName(method);
            e.x = count;
            e.params = {{"method", largeBinMethodName(method)}, {"bins", std::to_string(count)}};
            grid.push_back(std::move(e));
        }
    }
    return grid;
}

SamplePlane binsImagePlane(const HostImage& image) {
    requireIntegerImage(image, "an experiment");
    SamplePlane plane = imagePlane(image, "gray");
    if (plane.bytes.empty())
        throw InputError(image.source + ": the image has no pixels");
    if (plane.type == SampleType::U8) {
        std::vector<std::uint8_t> wide(plane.bytes.size() * 2);
        for (std::size_t i = 0; i < plane.bytes.size(); ++i) {
            const auto v = std::uint16_t(plane.bytes[i] * 257u);
            std::memcpy(wide.data() + 2 * i, &v, 2);
        }
        plane.bytes = std::move(wide);
        plane.type = SampleType::U16;
        plane.source += " (8-bit x 257)";
    }
    return plane;
}

BinsInput makeBinsInput(Device& device, const std::string& distribution, std::size_t bytes,
                        const SamplePlane* image, const std::vector<int>& bins,
                        const CancelToken& cancel) {
    const std::size_t samples = bytes / sampleBytes(SampleType::U16);
    SamplePlane plane;
    if (distribution == "image") {
        if (!image || image->type != SampleType::U16 || image->bytes.empty())
            throw UsageError("--dist", "'image' needs the 16-bit samples of an image");
        plane.type = SampleType::U16;
        plane.source = image->source;
        plane.bytes.resize(samples * 2);
        for (std::size_t off = 0; off < plane.bytes.size(); off += image->bytes.size())
            std::memcpy(plane.bytes.data() + off, image->bytes.data(),
                        std::min(image->bytes.size(), plane.bytes.size() - off));
    } else {
        LargeBinData data;
        try {
            data = parseLargeBinData(distribution);
        } catch (const UsageError& e) {
            throw UsageError("--dist", e.what());
        }
        plane = makeLargeBinData(data, SampleType::U16, samples);
    }
    cancel.throwIfCancelled();
    BinsInput in;
    in.samples = plane.count();
    in.buffer = uploadPlane(device, plane);
    for (int count : bins.empty() ? defaultBinCounts() : bins) {
        cancel.throwIfCancelled();
        in.references.emplace(count, largeHistogramReference(plane, binsExperimentSpec(count)));
    }
    return in;
}

void runBinsPoint(Device& device, const GridEntry& entry, const BinsInput& input, int repeats,
                  const CancelToken& cancel, ExperimentPoint& point) {
    const LargeBinPoint p =
        runLargeBinPoint(device, input.buffer, input.samples, binsExperimentSpec(entry.bins),
                         input.references.at(entry.bins), entry.geometry, repeats, cancel);
    point.stats = p.stats;
    point.gbps = p.gbps;
    point.gsps = p.gsps;
    point.status = p.status;
    point.reason = p.detail;
}

} // namespace histlab
