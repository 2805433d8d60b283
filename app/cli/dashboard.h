#pragma once
// histlab-cli dashboard (issue 6): every registered pipeline on every chosen device, each
// verified and judged against a ceiling measured in the same run. Wiring only, like
// cli_main.cpp, which dispatches to it and holds its --help text.
#include "runtime/runner.h"

#include <string>
#include <vector>

namespace histlab::cli {

/// Runs `histlab-cli dashboard` with the arguments that follow the command; returns the exit
/// code documented in --help (0 ok, 1 a result differs from its CPU reference, 2 usage, 3 input,
/// 4 no result could run at all).
int runDashboardCommand(const std::vector<std::string>& args, JobRunner& runner);

} // namespace histlab::cli
