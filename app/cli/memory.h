#pragma once
// histlab-cli's memory lab commands (issue 6): `reverse` and `memory`. Wiring only, like
// cli_main.cpp, which dispatches to them and holds their --help text.
#include "runtime/runner.h"

#include <string>
#include <vector>

namespace histlab::cli {

/// True for the commands of this file: "reverse" and "memory".
bool isMemoryCommand(const std::string& command);

/// Runs `command` with the arguments that follow it; returns the exit code documented in
/// --help (0 ok, 1 verification mismatch, 2 usage, 3 input, 4 device).
int runMemoryCommand(const std::string& command, const std::vector<std::string>& args,
                     JobRunner& runner);

} // namespace histlab::cli
