// histlab-cli: HistLab's work without a display. Wiring only: one command per pipeline of the
// core's registry (and `devices`), parsed with CLI11; each command's help is generated from its
// options. Messages keep one style, "histlab-cli: --banks: 3 is not a power of two", and the
// exit codes below (also in --help and the README).
#include "cli/command.h"
#include "cli/pipelinecommand.h"
#include "cli/support.h"
#include "pipelines/blur/blur.h"
#include "pipelines/registry.h"
#include "runtime/kernelsource.h"
#include "runtime/log.h"
#include "runtime/version.h"

#include <iostream>
#include <new>
#include <stdexcept>
#include <string_view>
#ifdef HISTLAB_HAVE_OPENCV
#include "services/opencvservices.h"
#endif

using namespace histlab;
using namespace histlab::cli;

namespace {

const char* kExitCodes = R"(
Exit codes:
  0  success
  1  verification mismatch: a device result differs from its CPU reference (the files asked
     for are still written, and say so)
  2  usage error: an unknown command or option, a bad value (a size of 0 included), an unknown
     --device, a value the device cannot take (--banks that does not fit local memory, a --wg
     it refuses), a --region outside the image, an output that is a file the run reads (or a
     new file in a folder it lists, of a name the listing takes), two outputs into one file
     or both to stdout
  3  input error: a missing, empty, truncated, unsupported or non-image file, a folder, an
     output file that cannot be written (results a run could not write: the table says
     which), a saved run that cannot be read, a run whose every input failed, not enough
     memory for the input (on this machine or under its memory limit)
  4  device error: no OpenCL device, an OpenCL call that failed, a kernel that does not build;
     for commands that run many variants or points: when none of them could run (one that
     cannot is a row that says why, and the run goes on)
)";

/// One line for a CLI11 parse error, in this tool's words. Read with plain string work, not
/// std::regex: libstdc++'s matcher recurses once per character, and a 120,000-character
/// argument overflowed the stack (exit 139).
std::string describe(const CLI::ParseError& e, const std::string& commands) {
    const std::string what = e.what();
    // "The following argument was not expected: ARG" / "... arguments were not expected: ..."
    const std::size_t intro = what.find("The following argument");
    const std::size_t colon = what.find("not expected: ", intro == std::string::npos ? 0 : intro);
    if (intro != std::string::npos && colon != std::string::npos) {
        const std::size_t from = colon + std::string_view("not expected: ").size();
        const std::size_t to = what.find_first_of(" \t\n", from);
        const std::string where = e.get_name(); // CLI11 names the command
        const std::string arg = what.substr(from, to == std::string::npos ? to : to - from);
        const bool option = arg.size() > 1 && arg[0] == '-';
        if (where == "histlab-cli")
            return option ? "unknown option '" + arg + "' (see histlab-cli --help)"
                          : "unknown command '" + arg + "' (" + commands + "; see --help)";
        return where + ": " + (option ? "unknown option '" : "unexpected argument '") + arg +
               "' (see histlab-cli " + where + " --help)";
    }
    // "--size: 1 required NUMBER missing"
    if (const std::size_t name = what.find(": "); !what.empty() && what[0] == '-' &&
                                                  name != std::string::npos &&
                                                  what.find_first_of(" \t\n") >= name) {
        const std::size_t count = name + 2;
        const std::size_t digits = what.find_first_not_of("0123456789", count);
        if (digits != std::string::npos && digits > count &&
            what.compare(digits, 10, " required ") == 0 &&
            what.find(" missing", digits) != std::string::npos)
            return what.substr(0, name) + ": needs a value";
    }
    return what;
}

/// `text` broken into lines of at most `width` characters (CLI11 indents each line).
std::string wrapped(const std::string& text, std::size_t width = 64) {
    std::string out, line, word;
    auto flush = [&] {
        if (!out.empty())
            out += '\n';
        out += line;
        line.clear();
    };
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : ' ';
        if (c != ' ' && c != '\n') {
            word += c;
            continue;
        }
        if (!word.empty()) {
            if (!line.empty() && line.size() + 1 + word.size() > width)
                flush();
            line += (line.empty() ? "" : " ") + word;
            word.clear();
        }
        if (c == '\n')
            flush();
    }
    if (!line.empty())
        flush();
    return out;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"histlab-cli - OpenCL histograms and image kernels, measured on every device "
                 "and verified against a CPU reference, without a display",
                 "histlab-cli"};
    app.set_help_flag("-h,--help", "this help; COMMAND --help for a command's options");
    app.set_version_flag("--version", "histlab-cli " + versionLine(),
                         "the version and the git commit it was built from");
    app.footer(kExitCodes);
    app.get_formatter()->column_width(30);
    std::string kernelDir;
    bool verbose = false;
    app.add_option("--kernel-dir", kernelDir,
                   "read kernels/NAME.cl from DIR instead of the embedded copies")
        ->type_name("DIR");
    app.add_flag("-v,--verbose", verbose,
                 "log the chosen device, build options and build logs to stderr");

    std::vector<std::pair<CLI::App*, std::unique_ptr<Command>>> commands;
    std::string names;
    // A pipeline named "GROUP ACTION" ("bow bench") is the subcommand ACTION of the command
    // GROUP, which needs one of its actions.
    auto parentOf = [&](const std::string& name) -> std::pair<CLI::App*, std::string> {
        const std::size_t space = name.find(' ');
        if (space == std::string::npos)
            return {&app, name};
        const std::string group = name.substr(0, space);
        CLI::App* parent = nullptr;
        try {
            parent = app.get_subcommand(group);
        } catch (const CLI::OptionNotFound&) {
            parent = app.add_subcommand(group, group + "'s commands (histlab-cli " + group +
                                                   " COMMAND --help for each)");
            parent->require_subcommand(1);
            parent->footer(kExitCodes);
        }
        return {parent, name.substr(space + 1)};
    };
    auto add = [&](const std::string& name, const std::string& summary,
                   std::unique_ptr<Command> command) {
        const auto [parent, leaf] = parentOf(name);
        CLI::App* sub = parent->add_subcommand(leaf, summary);
        sub->footer(kExitCodes);
        command->setup(*sub);
        commands.emplace_back(sub, std::move(command));
        names += (names.empty() ? "" : ", ") + name;
    };
    add("devices",
        "every OpenCL device with its index, properties and probe results (non-uniform "
        "work-groups, work_group_scan_exclusive_add); --json for JSON",
        makeDevicesCommand());
    for (const Pipeline& p : pipelines())
        if (p.runnable()) {
            add(p.name, p.summary, makePipelineCommand(p));
            commands.back().first->footer("\n" + wrapped(p.description, 96) + "\n\n" +
                                          wrapped("CPU reference: " + p.reference, 96) + "\n" +
                                          kExitCodes);
        }
    // Help in lines a terminal shows whole (CLI11 indents the lines that follow the first).
    for (auto& entry : commands) {
        CLI::App* sub = entry.first;
        sub->description(wrapped(sub->get_description()));
        for (CLI::Option* o : sub->get_options())
            o->description(wrapped(o->get_description()));
        if (CLI::App* parent = sub->get_parent(); parent != &app)
            parent->description(wrapped(parent->get_description()));
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string message = describe(e, names);
        for (CLI::App* group : app.get_subcommands({}))
            if (group->parsed() && group->get_require_subcommand_min() > 0 &&
                group->get_subcommands().empty()) {
                std::string actions;
                for (CLI::App* action : group->get_subcommands({}))
                    actions += (actions.empty() ? "" : ", ") + action->get_name();
                message = group->get_name() + ": needs a command, one of " + actions +
                          " (see histlab-cli " + group->get_name() + " --help)";
            }
        return fail(message, Usage);
    }
    if (verbose)
        setLogLevel(LogLevel::Info);
    if (!kernelDir.empty() || app.count("--kernel-dir")) {
        try {
            setKernelDir(kernelDir);
        } catch (const UsageError& e) {
            return fail(e.what(), Usage);
        }
    }
#ifdef HISTLAB_HAVE_OPENCV
    installOpenCvServices(); // what the core cannot call: image files, cv::blur, features
#endif
    JobRunner runner;
    for (auto& [sub, command] : commands)
        if (sub->parsed()) {
            // The command's boundary: memory that runs out where no step caught it (an input
            // too large for the machine, or for ulimit -v) is one line and exit 3, not abort.
            try {
                return command->run(runner);
            } catch (const std::bad_alloc&) {
                return fail(notEnoughMemoryMessage(sub->get_name()), Input);
            } catch (const std::length_error&) {
                return fail(notEnoughMemoryMessage(sub->get_name()), Input);
            }
        }
    return fail("no command given (" + names + "; see --help)", Usage);
}
