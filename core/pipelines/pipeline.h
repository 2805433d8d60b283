#pragma once
// A pipeline as the front ends see it. Each pipeline family registers one Pipeline (its folder's
// <name>pipeline.cpp, one line in pipelines/registry.cpp): its name and description, its options,
// its plan (the one place that decides defaults and validity for the chosen devices), its run
// (on the worker thread, every result verified against its CPU reference), its report (text,
// CSV, JSON, other files, and the verdict), and the entries it adds to the dashboard.
// histlab-cli builds one command per registered pipeline from this, the dashboard runs the
// entries, and the window's panels call the same plan and run through their typed functions,
// so the CLI and the window make the same decisions.
//
// The parameters, plan and result travel as std::any; bindPipeline() below turns a pipeline's
// typed functions into these, so each pipeline's own code stays typed.
#include "image/image.h"
#include "pipelines/dashboardentry.h"
#include "pipelines/options.h"
#include "report/table.h"
#include "runtime/device.h"
#include "runtime/runner.h"

#include <any>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace histlab {

/// One option of a pipeline's command, or one of its positional arguments.
struct PipelineOption {
    enum class Kind {
        Value, ///< takes a value: "--radius R"
        Flag,  ///< takes none: "--inclusive"
        Image, ///< an image file that the front end loads (positional IMAGE, or "--image FILE")
    };
    /// "--radius"; a positional argument is named without dashes, in capitals ("IMAGE").
    std::string name;
    std::string valueName; ///< what the value is, for --help: "R", "MIB", "FILE"
    std::string help;      ///< its values and its default
    Kind kind = Kind::Value;
    /// The value names a file the run reads (Image options always do): no output may be it.
    bool readsFile = false;
    /// Image options: read at its first page whatever --page picks (a mask that applies to
    /// every page of the images it masks).
    bool firstPageOnly = false;
    /// Stores the value (a flag gets "") in the parameters; throws UsageError naming the option
    /// for a bad one. A positional argument's setter is called once per argument given.
    std::function<void(std::any& params, const std::string& value)> set;
    /// Image options: stores the loaded image (after `set` has stored its path).
    std::function<void(std::any& params, HostImage image)> setImage;
    /// Image options of the families that count a stack (--page all, --page A-B): stores the
    /// pages to read (the front end then loads nothing; the run reads the pages in turn). Unset
    /// where a run reads one page.
    std::function<void(std::any& params, const PageRange& pages)> setPages;

    bool positional() const { return !name.empty() && name[0] != '-'; }
};

/// What a run reads besides the files its options name (PipelineOption::readsFile): a folder
/// it lists, for the front ends' check that no output replaces an input or lands among them.
struct PipelineInput {
    std::string option; ///< the option or argument that named it ("FOLDER")
    std::string folder;
    bool recursive = false; ///< its subfolders are listed too
    /// Every file the listing takes, relative to the folder (all shards of it, not only this
    /// run's share: another shard's run reads the rest).
    std::vector<std::string> files;
    /// Whether the listing would take a file of this name (by its extension): an output of
    /// such a name in the folder becomes an input of the next run.
    std::function<bool(const std::string& name)> listed;
};

/// A file a run writes besides --csv and --json ("--stats-csv FILE", "--out FILE").
struct PipelineOutput {
    std::string name;
    std::string help;
    bool image = false; ///< an image, written by the front end's image writer; else text
};

/// How a finished run went, as the exit code of histlab-cli says it.
struct Verdict {
    enum class Kind {
        Ok,         ///< everything that ran is verified (or timed)
        Mismatch,   ///< a result differs from its CPU reference (exit 1)
        NothingRan, ///< nothing could run at all (exit 4)
        NotWritten, ///< outputs asked for could not be written (exit 3)
        NoInput,    ///< no input could be read or counted: every one failed (exit 3)
    };
    Kind kind = Kind::Ok;
    std::string message; ///< one line for stderr when not Ok
};

/// An image a run produced for an output option; `image` is null when there is none, and
/// `whyNone` says why ("no launch ran").
struct ImageOutput {
    const HostImage* image = nullptr;
    std::string whyNone;
};

/// What a finished run reports, for every front end. The functions read the result they were
/// made from, which must outlive the report.
struct Report {
    std::string text;                  ///< the human-readable report (histlab-cli's stdout)
    Table table;                       ///< the rows a generic view shows
    std::function<std::string()> csv;  ///< --csv
    std::function<std::string()> json; ///< --json
    /// Other text outputs, by option; each function gets the path it is written to (a format
    /// may follow its extension).
    std::map<std::string, std::function<std::string(const std::string& path)>> files;
    /// Text outputs too large to hold as one string (a similarity matrix), by option: each
    /// writes its text to the stream a row at a time (through writeFileStreamed), and may throw
    /// UsageError naming its option for a size it refuses.
    std::map<std::string, std::function<void(std::ostream& out, const std::string& path)>>
        streamedFiles;
    std::map<std::string, ImageOutput> images; ///< image outputs, by option
    Verdict verdict;
};

struct Pipeline {
    std::string name;        ///< the command, e.g. "scan"
    std::string summary;     ///< one line for the list of commands
    std::string description; ///< what it computes, the metric (which bytes count) and the
                             ///< ceiling it is judged against
    std::string reference;   ///< the CPU reference every result is checked against
    /// One device ("--device SEL"), several ("--device SEL[,SEL...]|all", repeatable), or
    /// none (host work only: no --device, and its run gets no device indices).
    enum class Devices { One, Many, None } devices = Devices::One;
    std::vector<PipelineOption> options;
    std::string csvHelp;  ///< what --csv writes (empty: no --csv)
    std::string jsonHelp; ///< what --json writes (empty: no --json)
    std::vector<PipelineOutput> outputs;

    /// The parameters before any option is given.
    std::function<std::any()> defaults;
    /// After the options: the checks that need no device, and what the core reads itself (a
    /// baseline file). Throws UsageError naming the option, or InputError naming the file.
    std::function<void(std::any& params)> prepare;
    /// After prepare: the folders the run lists, with their files (none by default).
    std::function<std::vector<PipelineInput>(const std::any& params)> inputs;
    /// After prepare: whether these parameters need no device at all (dashboard --list), so
    /// that a machine without OpenCL still answers. Unset: they need one.
    std::function<bool(const std::any& params)> hostOnly;
    /// Every default and every check that depends on the devices (given in the order chosen):
    /// what will run. Throws UsageError naming the option that cannot work there.
    std::function<std::any(const std::vector<DeviceInfo>& devices, const std::any& params)> plan;
    /// Runs a plan on the worker thread, on ctx's devices at these indices; streams items.
    std::function<std::any(JobContext& ctx, const std::vector<int>& devices, const std::any& plan,
                           const ItemSink& onItem)>
        run;
    /// One line for each streamed item, as it arrives (histlab-cli's stderr).
    std::function<std::string(const std::any& item)> describeItem;
    /// The report of a finished run.
    std::function<Report(const std::any& result)> report;

    /// What this family adds to the dashboard (each verified, each judged against a ceiling).
    std::vector<DashboardPipeline> dashboard;

    /// False for a family that only adds dashboard entries (no command of its own).
    bool runnable() const { return static_cast<bool>(run); }
};

/// Fills a pipeline's defaults/prepare/plan/run/report from its typed functions.
template <typename Params, typename Plan, typename Result>
void bindPipeline(
    Pipeline& p, std::function<Plan(const std::vector<DeviceInfo>&, const Params&)> plan,
    std::function<Result(JobContext&, const std::vector<int>&, const Plan&, const ItemSink&)> run,
    std::function<Report(const Result&)> report, std::function<void(Params&)> prepare = {}) {
    p.defaults = [] { return std::any(Params{}); };
    p.prepare = [prepare](std::any& params) {
        if (prepare)
            prepare(std::any_cast<Params&>(params));
    };
    p.plan = [plan](const std::vector<DeviceInfo>& devices, const std::any& params) {
        return std::any(plan(devices, std::any_cast<const Params&>(params)));
    };
    p.run = [run](JobContext& ctx, const std::vector<int>& devices, const std::any& planned,
                  const ItemSink& onItem) {
        return std::any(run(ctx, devices, std::any_cast<const Plan&>(planned), onItem));
    };
    p.report = [report](const std::any& result) {
        return report(std::any_cast<const Result&>(result));
    };
}

/// bindPipeline for a family that runs on one device (Pipeline::Devices::One): its plan is for
/// that device's description, its run gets that device, opened on the worker.
template <typename Params, typename Plan, typename Result>
void bindDevicePipeline(
    Pipeline& p, std::function<Plan(const DeviceInfo&, const Params&)> plan,
    std::function<Result(JobContext&, Device&, const Plan&, const ItemSink&)> run,
    std::function<Report(const Result&)> report, std::function<void(Params&)> prepare = {}) {
    bindPipeline<Params, Plan, Result>(
        p,
        [plan](const std::vector<DeviceInfo>& devices, const Params& params) {
            return plan(devices.front(), params);
        },
        [run](JobContext& ctx, const std::vector<int>& devices, const Plan& planned,
              const ItemSink& onItem) {
            return run(ctx, ctx.devices().open(devices.front()), planned, onItem);
        },
        std::move(report), std::move(prepare));
}

/// The devices at `indices` opened on the worker, each once (a list may name one twice), in
/// the order first named: what a pipeline that splits its input across devices runs on.
std::vector<Device*> openDevices(JobContext& ctx, const std::vector<int>& indices);

/// An option that takes a value, stored by `set` into the typed parameters.
template <typename Params>
PipelineOption valueOption(std::string name, std::string valueName, std::string help,
                           std::function<void(Params&, const std::string&)> set) {
    PipelineOption o;
    o.name = std::move(name);
    o.valueName = std::move(valueName);
    o.help = std::move(help);
    o.set = [set](std::any& params, const std::string& value) {
        set(std::any_cast<Params&>(params), value);
    };
    return o;
}

/// A value that names a file the run reads (a codebook, a mask, a shard): no output may be it.
template <typename Params>
PipelineOption inputFileOption(std::string name, std::string valueName, std::string help,
                               std::function<void(Params&, const std::string&)> set) {
    PipelineOption o =
        valueOption<Params>(std::move(name), std::move(valueName), std::move(help), std::move(set));
    o.readsFile = true;
    return o;
}

/// --repeat N: timed runs after a warm-up, a whole number from 1 to `most`, into `repeats`.
template <typename Params>
PipelineOption repeatOption(int Params::*repeats, std::string help, int most = 100000) {
    return valueOption<Params>("--repeat", "N", std::move(help),
                               [repeats, most](Params& p, const std::string& v) {
                                   p.*repeats = int(parseWholeNumber("--repeat", v, 1, most));
                               });
}

/// An option without a value.
template <typename Params>
PipelineOption flagOption(std::string name, std::string help, std::function<void(Params&)> set) {
    PipelineOption o;
    o.name = std::move(name);
    o.help = std::move(help);
    o.kind = PipelineOption::Kind::Flag;
    o.set = [set](std::any& params, const std::string&) { set(std::any_cast<Params&>(params)); };
    return o;
}

/// An image file: `setPath` stores the path given (and refuses a second one), `setImage` the
/// image the front end loaded from it.
template <typename Params>
PipelineOption imageOption(std::string name, std::string valueName, std::string help,
                           std::function<void(Params&, const std::string&)> setPath,
                           std::function<void(Params&, HostImage)> setImage) {
    PipelineOption o = valueOption<Params>(std::move(name), std::move(valueName), std::move(help),
                                           std::move(setPath));
    o.kind = PipelineOption::Kind::Image;
    o.readsFile = true;
    o.setImage = [setImage](std::any& params, HostImage image) {
        setImage(std::any_cast<Params&>(params), std::move(image));
    };
    return o;
}

/// `option` (an image option) taking --page all and --page A-B: `set` stores the pages.
template <typename Params>
PipelineOption withStackPages(PipelineOption option,
                              std::function<void(Params&, const PageRange&)> set) {
    option.setPages = [set](std::any& params, const PageRange& pages) {
        set(std::any_cast<Params&>(params), pages);
    };
    return option;
}

/// How the rows of a run went, counted for their verdict: how many there are, how many ran
/// (verified, timed or mismatch), how many differ from their CPU reference.
struct StatusCount {
    std::size_t rows = 0, ran = 0, mismatches = 0;
    void add(Status status);
    /// verdictOf these counts.
    Verdict verdict(const std::string& what, const std::string& nothingRan) const;
};

/// The statuses of `rows` (each with a `status`), added to `count`.
template <typename Rows> StatusCount countStatuses(const Rows& rows, StatusCount count = {}) {
    for (const auto& row : rows)
        count.add(row.status);
    return count;
}

/// The verdict of rows that each ran or not: Mismatch when any differs from its CPU reference
/// ("<n> <what> differ from the CPU reference"), NothingRan when there were rows and none ran
/// (`nothingRan` is the message), else Ok.
Verdict verdictOf(std::size_t rows, std::size_t ran, std::size_t mismatches,
                  const std::string& what, const std::string& nothingRan);

/// The verdict of one result verified as a whole: Mismatch ("verification failed: <detail>")
/// when it differs from its CPU reference, else Ok.
Verdict verificationVerdict(bool verified, const std::string& detail);

} // namespace histlab
