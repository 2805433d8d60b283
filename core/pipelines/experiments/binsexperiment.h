#pragma once
// The bins experiment's parts (experiment.h): its grid, its 16-bit input and its points, each
// run by the large-bin pipeline's own plan, timing and CPU reference (largebin/largebin.h), so a
// point here is what `histlab-cli largebin --method M --bins N` measures on the same samples.
// Metric: GB/s = bytes of 16-bit samples / median time of one whole histogram (clear, every
// slice, the reduction); G samples/s = samples / the same time. Bins span the whole 16-bit range
// [0, 65536], so 65,536 bins give every value a bin of its own.
#include "pipelines/experiments/experiment.h"

#include <map>

namespace histlab {

/// The bin spec of `bins` bins over the whole 16-bit range; UsageError("--bins") outside 1 ...
/// 65,536.
BinSpec binsExperimentSpec(int bins);

/// The bins experiment's grid for `device` and `bytes` of 16-bit samples: for every bin count
/// (empty: defaultBinCounts()), every large-bin method but auto (allLargeBinMethods), with its
/// geometry as planLargeBinGeometry makes it. A method the device cannot run at a bin count stays
/// in the grid, unsupported with the plan's reason: it is reported, never replaced.
std::vector<GridEntry> binsGrid(const DeviceInfo& device, std::size_t bytes,
                                const std::vector<int>& bins);

/// The 16-bit samples of an image for "image": its gray plane (the image, or a color image's
/// luma), an 8-bit image's values widened x 257 (0 ... 255 to 0 ... 65,535, as a conversion to
/// 16 bits does) so that they span the bins as a 16-bit image's do. Throws InputError for a float
/// image (as every experiment does) and for an image without pixels.
SamplePlane binsImagePlane(const HostImage& image);

/// One distribution's input: 16-bit samples on the device and the CPU reference of each bin
/// count of the grid.
struct BinsInput {
    cl::Buffer buffer;
    std::size_t samples = 0;
    std::map<int, LargeHistogram> references; ///< by bin count
};

/// `bytes` / 2 samples: "random", "skewed" or "smooth" (makeLargeBinData: the large-bin
/// pipeline's own data), or "image": `image` (binsImagePlane) repeated to the size; and their
/// references for every count of `bins`. Throws UsageError("--dist") for another distribution.
BinsInput makeBinsInput(Device& device, const std::string& distribution, std::size_t bytes,
                        const SamplePlane* image, const std::vector<int>& bins,
                        const CancelToken& cancel = {});

/// Runs one entry of binsGrid on `input`: `repeats` timed histograms after a warm-up with the
/// entry's geometry (runLargeBinPoint), compared slot by slot with the reference. Fills the
/// point's timing, GB/s, G samples/s and status: verified, mismatch (the first differing slot),
/// unsupported (the plan's reason) or failed. Throws only CancelledError.
void runBinsPoint(Device& device, const GridEntry& entry, const BinsInput& input, int repeats,
                  const CancelToken& cancel, ExperimentPoint& point);

} // namespace histlab
