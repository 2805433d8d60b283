#pragma once
// histlab-cli register as a front end calls it: its parameters, its plan and its run. The Joint
// tab's Register view calls the same plan and run.
#include "pipelines/pipeline.h"
#include "pipelines/register/register.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

struct RegisterParams {
    std::vector<std::string> paths;                       ///< FIXED MOVING
    std::vector<std::shared_ptr<const HostImage>> images; ///< loaded, in order
    std::string maskPath;
    std::shared_ptr<const HostImage> mask;
    std::string channels = "gray,gray"; ///< --channels F,M
    RegisterOptions options;
    /// --synthetic WxH: a synthetic pair (syntheticRegisterPair) moved by --truth, inverted
    /// unless --no-invert.
    std::optional<std::pair<int, int>> synthetic;
    RigidTransform truth{3.25, -2.5, 4.0};
    bool invert = true;
    int benchmark = 0; ///< --benchmark N: rounds of benchmarkEvaluations
};

/// "WxH" or "N" (N x N); throws UsageError(option).
std::pair<int, int> parseRegisterSize(const std::string& text, const std::string& option);

struct RegisterPlan {
    RegisterInput input;
    RegisterOptions options;
    std::optional<RigidTransform> truth;
    int benchmark = 0;
};

/// The checks that need no device: two images (or --synthetic), channels, mask of FIXED's size,
/// bins, levels. Throws UsageError naming the option, InputError naming the file.
RegisterPlan planRegister(const DeviceInfo& device, const RegisterParams& params);

struct RegisterJobResult {
    RegistrationResult result;
    HostImage registered; ///< MOVING in FIXED's grid (resampleRegistered)
};

/// The pyramid, the search, the registered image (and --benchmark); each improved point of the
/// curve to `onItem` as a RegisterStep.
RegisterJobResult runRegisterJob(JobContext& ctx, Device& device, const RegisterPlan& plan,
                                 const ItemSink& onItem);

} // namespace histlab
