#pragma once
// histlab-cli joint as a front end calls it: its parameters, its plan (one device, or the pairs
// split across several) and its run. The Joint tab calls the same plan and run.
#include "pipelines/largebin/jointrun.h"
#include "pipelines/largebin/jointstack.h"
#include "pipelines/pipeline.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace histlab {

/// histlab-cli joint's parameters.
struct JointParams {
    std::vector<std::string> paths;                       ///< IMAGE_A [IMAGE_B]
    std::vector<std::shared_ptr<const HostImage>> images; ///< loaded, in order
    std::string maskPath;
    std::shared_ptr<const HostImage> mask;
    std::string channels = "gray,gray"; ///< --channels A,B
    std::pair<int, int> bins{256, 256};
    std::optional<BinRange> rangeA, rangeB;
    std::vector<LargeBinMethod> methods{LargeBinMethod::Auto};
    int repeats = 5;
    /// --synthetic D --type T --count N: A and B synthetic (seeds 1 and 2), for machines
    /// without an image loader.
    std::optional<LargeBinData> synthetic;
    SampleType type = SampleType::U8;
    std::size_t count = 0;
    std::optional<PageRange> pages; ///< --page all or A-B: page P of A against page P of B
    bool colocalise = true;         ///< --coloc off: false
    CostesSearch costes = CostesSearch::Stepwise; ///< --coloc stepwise | bisection
};

/// "stepwise", "bisection" or "off" (histlab-cli joint --coloc, the Joint tab's choice) into
/// `params`; throws UsageError naming --coloc for anything else.
void setColocChoice(JointParams& params, const std::string& text);

/// One device: the joint run; several (--device all, or a list): the pairs split across them.
struct JointPlan {
    JointRequest request;
    bool split = false;
    DeviceFault fault;                      ///< HISTLAB_DEVICE_FAIL
    std::optional<JointStackRequest> stack; ///< set for a stack, in place of `request`
};

/// The request of `params` (makeJointRequest's checks, or the synthetic pairs), and on several
/// devices the split, which counts with one method. Throws UsageError naming the option.
JointPlan planJointOn(const std::vector<DeviceInfo>& devices, const JointParams& params);

/// A finished joint run: on one device, or split.
struct JointResult {
    std::optional<JointRun> run;
    std::optional<JointSplitRun> split;
    std::optional<JointStackRun> stack;
};

/// The plan on `devices` (the first, unless split): progress at each method, each JointPoint to
/// `onItem` as it ends.
JointResult runJointJob(JobContext& ctx, const std::vector<int>& devices, const JointPlan& plan,
                        const ItemSink& onItem);

} // namespace histlab
