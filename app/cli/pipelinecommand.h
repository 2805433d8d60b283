#pragma once
// The command of a registered pipeline (pipelinecommand.cpp).
#include "cli/command.h"
#include "pipelines/pipeline.h"

#include <memory>

namespace histlab::cli {

/// `histlab-cli NAME [options]` for the pipeline: its options, --device, --csv/--json and its
/// other outputs, --quiet; `pipeline` must outlive the command.
std::unique_ptr<Command> makePipelineCommand(const Pipeline& pipeline);

} // namespace histlab::cli
