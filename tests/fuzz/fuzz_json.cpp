// Saved runs and baselines (a dashboard run, an experiment) from any text: the run or an
// InputError naming the source.
#include "pipelines/dashboard/dashboard.h"
#include "pipelines/experiments/experiment.h"
#include "runtime/errors.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        histlab::parseDashboardJson(text, "fuzz.json");
    } catch (const histlab::InputError&) {
    }
    try {
        histlab::parseExperimentJson(text, "fuzz.json");
    } catch (const histlab::InputError&) {
    }
    return 0;
}
