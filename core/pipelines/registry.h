#pragma once
// The registry: every pipeline family HistLab has, listed once (pipelines/registry.cpp).
// histlab-cli makes a command of each, the dashboard runs their entries, the window builds on
// their plans. (Explicit, not self-registering: a static library's unreferenced registrations
// are dropped by the linker.)
#include "pipelines/pipeline.h"

#include <string>
#include <vector>

namespace histlab {

/// Every pipeline family, in the registry's order (the order of --help and of the dashboard).
const std::vector<Pipeline>& pipelines();

/// The pipeline called `name`, or nullptr.
const Pipeline* findPipeline(const std::string& name);

} // namespace histlab
