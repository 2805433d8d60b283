#pragma once
// A new run next to a saved one: what `sweep` and `dashboard` share. A run saved as JSON
// (--json FILE, the window's Save) can be read back as the baseline of a new run (--baseline
// FILE, the window's Open); each row of the new run is then shown with its baseline's GB/s and
// the ratio. A free-text note (--note TEXT) is stored with the new run.
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/status.h"
#include "report/table.h"
#include "runtime/errors.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// What a person asks to compare a run with, and what is stored with it.
template <typename Run> struct Comparison {
    std::optional<std::string> baselinePath; ///< --baseline FILE
    std::shared_ptr<const Run> baseline;     ///< read from it (readBaseline)
    std::string note;                        ///< --note TEXT
};

/// The saved run at `path`, through `parse(text, path)`; InputError naming the file for one
/// that cannot be read or is not such a run (with the line and column of a JSON error).
/// The most a --baseline file may hold: 64 MiB.
inline constexpr std::uint64_t kBaselineFileLimit = std::uint64_t(64) << 20;

template <typename Run>
std::shared_ptr<const Run>
readBaseline(const std::string& path,
             const std::function<Run(const std::string& text, const std::string& source)>& parse);

/// --baseline FILE and --note TEXT, stored in the parameters' `comparison`.
template <typename Params, typename Run>
std::vector<PipelineOption> comparisonOptions(Comparison<Run> Params::*comparison,
                                              const std::string& baselineHelp,
                                              const std::string& noteHelp) {
    // An input file: a run never writes its --json over the baseline it reads (a rolling
    // baseline is two steps, so that a failed run cannot lose the last good one).
    return {inputFileOption<Params>("--baseline", "FILE", baselineHelp,
                                    [comparison](Params& p, const std::string& v) {
                                        (p.*comparison).baselinePath = v;
                                    }),
            valueOption<Params>(
                "--note", "TEXT", noteHelp,
                [comparison](Params& p, const std::string& v) { (p.*comparison).note = v; })};
}

/// The row of a baseline that a new row is shown with (found by the run's own rule), and
/// whether the two compare: both ran without fault (verified or timed).
template <typename Row> struct BaselineMatch {
    const Row* row = nullptr;
    bool comparable = false;
};

template <typename Row> BaselineMatch<Row> matchBaseline(const Row* found, const Row& row) {
    return {found, found && statusOk(found->status) && statusOk(row.status)};
}

/// The CSV columns a run compared with a baseline adds: baseline_device, baseline_gbps,
/// ratio_to_baseline.
std::vector<std::string> baselineColumns();

/// A row's baseline cells: the baseline's device, its GB/s and gbps / its GB/s when both ran
/// (`comparable`) and it is above 0; empty cells otherwise.
void addBaselineCells(Table& table, bool comparable, const std::string& baselineDevice,
                      double baselineGbps, double gbps);

/// "x1.25": a GB/s against its baseline's, or "-" when there is nothing to compare.
std::string ratioText(bool comparable, double baselineGbps, double gbps);

/// A saved run from its JSON `text`: `read` turns the document into the run. InputError naming
/// `source` (the file) for what is wrong: a syntax error with its line and column, a missing or
/// mistyped key, a document that `read` refuses.
template <typename Run>
Run readSavedRun(const std::string& text, const std::string& source,
                 const std::function<Run(const Json& document)>& read) {
    const Json document = parseJsonText(text, source);
    try {
        return read(document);
    } catch (const InputError& e) {
        throw InputError(source + ": " + e.what());
    } catch (const Json::exception& e) {
        // A value of another type than the reader takes where it reads one unchecked (a
        // number among a device's optional features): the file's fault, said as such.
        throw InputError(source + ": a value of the wrong type: " + jsonErrorText(e));
    }
}

template <typename Run>
std::shared_ptr<const Run>
readBaseline(const std::string& path,
             const std::function<Run(const std::string& text, const std::string& source)>& parse) {
    // A saved run is kilobytes; a JSON tree costs several times its text, so a baseline is
    // read up to 64 MiB (a sparse 20 GB file would otherwise be read whole).
    return std::make_shared<const Run>(
        parse(readTextFile(path, kBaselineFileLimit, "a baseline"), path));
}

} // namespace histlab
