#include "pipelines/registry.h"

#include "runtime/errors.h"

namespace histlab {

// The one list: a pipeline family is its folder, its kernel, its tests, its panel (if it has
// one) and one line here. X(name) stands for the function `Pipeline namePipeline()` that the
// family's folder defines, named after the command it makes (a command of two words in camel
// case: bowBuildCodebook is "bow build-codebook").
// clang-format off
#define HISTLAB_PIPELINES(X)                                                                       \
    X(bandwidth) X(histogram) X(blur) X(scan) X(equalize)                                          \
    X(largebin) X(joint) X(register) X(bowBench) X(bowBuildCodebook) X(bowHistograms) X(bowMerge)            \
    X(reverse) X(transfer) X(memory) X(sweep) X(dashboard) X(batch) X(merge)
// clang-format on

#define HISTLAB_DECLARE_PIPELINE(name) Pipeline name##Pipeline();
HISTLAB_PIPELINES(HISTLAB_DECLARE_PIPELINE)
#undef HISTLAB_DECLARE_PIPELINE

const std::vector<Pipeline>& pipelines() {
#define HISTLAB_LIST_PIPELINE(name) name##Pipeline(),
    static const std::vector<Pipeline> all{HISTLAB_PIPELINES(HISTLAB_LIST_PIPELINE)};
#undef HISTLAB_LIST_PIPELINE
    return all;
}

const Pipeline* findPipeline(const std::string& name) {
    for (const Pipeline& p : pipelines())
        if (p.name == name)
            return &p;
    return nullptr;
}

} // namespace histlab
