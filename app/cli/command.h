#pragma once
// One histlab-cli command behind one interface: it declares its options on its CLI11
// subcommand, and runs once they are parsed. main.cpp makes one of each: `devices`, and one
// PipelineCommand per pipeline of the core's registry.
#include "runtime/runner.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace histlab::cli {

class Command {
public:
    virtual ~Command() = default;
    /// Declares the command's options on `sub` (its name and description are set already).
    virtual void setup(CLI::App& sub) = 0;
    /// Runs after a successful parse; returns the exit code (support.h's Exit).
    virtual int run(JobRunner& runner) = 0;
};

/// `devices [--json]`: every OpenCL device with its index, properties and probe results.
std::unique_ptr<Command> makeDevicesCommand();

} // namespace histlab::cli
