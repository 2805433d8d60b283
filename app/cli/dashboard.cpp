// histlab-cli dashboard: the per-device dashboard (issue 6) without a display. Wiring only:
// parse, run the core's dashboard (core/dashboard.h) as one job, stream each result to stderr as
// it arrives, then print a table per device and write the files. The pipelines come from the
// core's registry: this file names none of them.
#include "cli/dashboard.h"

#include "cli/support.h"
#include "pipelines/dashboard/dashboard.h"

#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

namespace histlab::cli {
namespace {

struct DashboardArgs {
    std::vector<std::string> devices;   // selectors; empty: auto
    std::vector<std::string> pipelines; // empty: all
    DashboardOptions options;
    std::optional<std::string> json, csv, baseline;
    std::string note;
    bool quiet = false;
    bool list = false;
};

DashboardArgs parseArgs(const std::vector<std::string>& argv) {
    DashboardArgs a;
    ArgList args(argv);
    while (!args.empty()) {
        const std::string& o = args.next();
        if (o == "--device") {
            for (const std::string& d : splitList(args.value(o)))
                a.devices.push_back(d);
        } else if (o == "--pipeline") {
            for (const std::string& p : splitList(args.value(o)))
                a.pipelines.push_back(p);
            if (a.pipelines.empty())
                throw UsageFailure{"--pipeline: needs at least one name"};
        } else if (o == "--size") {
            a.options.bytes = std::size_t(parseSize(o, args.value(o)));
            if (a.options.bytes < 16)
                throw UsageFailure{"--size: at least 16 bytes"};
        } else if (o == "--repeat") {
            a.options.repeats = parseCount(o, args.value(o), 1, 10000);
        } else if (o == "--json") {
            a.json = args.value(o);
        } else if (o == "--csv") {
            a.csv = args.value(o);
        } else if (o == "--baseline") {
            a.baseline = args.value(o);
        } else if (o == "--note") {
            a.note = args.value(o);
        } else if (o == "--quiet") {
            a.quiet = true;
        } else if (o == "--list") {
            a.list = true;
        } else {
            throw UsageFailure{"dashboard: unknown option '" + o + "' (see --help)"};
        }
    }
    try {
        selectDashboardPipelines(a.pipelines); // an unknown name is a usage error before any work
    } catch (const UsageError& e) {
        throw UsageFailure{e.what()};
    }
    return a;
}

/// "histogram256: 0.31 GB/s, 6.6 % of read-only (4.70 GB/s), verified" or
/// "scan: unsupported (why)".
std::string describe(const DashboardResult& r) {
    std::ostringstream s;
    s << r.pipeline << ": ";
    if (r.ran() && r.ceilingGbps > 0)
        s << gbpsText(r.gbps) << " GB/s, " << fixed(r.percentOfCeiling, 1) << " % of "
          << r.ceilingKind << " (" << gbpsText(r.ceilingGbps) << " GB/s), " << statusName(r.status);
    else if (r.ran()) // a host transfer: no device ceiling
        s << gbpsText(r.gbps) << " GB/s, " << statusName(r.status);
    else
        s << statusName(r.status) << " (" << r.reason << ")";
    return s.str();
}

void printTables(std::ostream& out, const DashboardRun& run, const DashboardRun* baseline) {
    for (std::size_t slot = 0; slot < run.devices.size(); ++slot) {
        const DashboardDevice& d = run.devices[slot];
        out << "device " << d.info.index << ": " << d.info.name << " ["
            << deviceTypeName(d.info.type) << "], " << d.info.platformName << ", driver "
            << d.info.driverVersion << ", " << formatByteSize(d.inputBytes) << " per input\n";
        out << "  " << std::left << std::setw(14) << "pipeline" << std::right << std::setw(10)
            << "GB/s" << std::setw(22) << "ceiling GB/s" << std::setw(9) << "%"
            << "  " << std::left << std::setw(12) << "status";
        if (baseline)
            out << std::right << std::setw(10) << "baseline" << std::setw(8) << "ratio"
                << "  " << std::left;
        out << "variant or reason\n";
        for (const DashboardResult& r : run.results) {
            if (r.device != int(slot))
                continue;
            const bool ran = r.ran(), judged = ran && r.ceilingGbps > 0;
            out << "  " << std::left << std::setw(14) << r.pipeline << std::right << std::setw(10)
                << (ran ? gbpsText(r.gbps) : "-") << std::setw(22)
                << (judged ? r.ceilingKind + " " + gbpsText(r.ceilingGbps) : "-") << std::setw(9)
                << (judged ? fixed(r.percentOfCeiling, 1) : "-") << "  " << std::left
                << std::setw(12) << statusName(r.status);
            if (baseline) {
                const DashboardResult* b = findBaselineResult(*baseline, run, r);
                std::string ratio = "-";
                if (b && b->ran() && ran && b->gbps > 0) {
                    ratio = "x"; // appended, not "x" + ...: GCC 12's -O3 -Wrestrict false alarm
                    ratio += fixed(r.gbps / b->gbps, 2);
                }
                out << std::right << std::setw(10) << (b && b->ran() ? gbpsText(b->gbps) : "-")
                    << std::setw(8) << ratio << "  " << std::left;
            }
            out << (ran ? r.variant : r.reason) << '\n';
        }
    }
}

void printList(std::ostream& out) {
    for (const DashboardPipeline& p : dashboardPipelines())
        out << std::left << std::setw(14) << p.name << ' ' << p.description << '\n';
}

} // namespace

int runDashboardCommand(const std::vector<std::string>& argv, JobRunner& runner) {
    DashboardArgs a;
    try {
        a = parseArgs(argv);
    } catch (const UsageFailure& f) {
        std::cerr << "histlab-cli: " << f.message << '\n';
        return Usage;
    }
    if (a.list) {
        printList(std::cout);
        return Ok;
    }
    std::optional<DashboardRun> baseline;
    try {
        checkOutput("--csv", a.csv);
        checkOutput("--json", a.json);
        if (a.baseline) {
            try {
                baseline = parseDashboardJson(readTextFile(*a.baseline));
            } catch (const InputError& e) {
                throw InputError(*a.baseline + ": " + e.what());
            }
        }
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }

    std::size_t arrived = 0;
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        const std::vector<int> indices = selectDevices(a.devices, ctx.devices().infos());
        DashboardRun run = planDashboard(ctx.devices(), indices, a.pipelines, a.options);
        run.note = a.note;
        runDashboard(ctx.devices(), run, ctx.cancelToken(), [&](const DashboardResult& r) {
            std::cerr << '[' << ++arrived << "] " << run.devices[std::size_t(r.device)].info.name
                      << ": " << describe(r) << '\n';
        });
        return run;
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const DashboardRun run = std::any_cast<DashboardRun>(std::get<std::any>(outcome));
    const DashboardRun* base = baseline ? &*baseline : nullptr;
    // Written on a mismatch too: the exit code says so, the files show what ran.
    try {
        if (a.csv)
            writeFileAtomically(*a.csv, dashboardCsv(run, base));
        if (a.json)
            writeFileAtomically(*a.json, dashboardJson(run));
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    if (!a.quiet && a.csv.value_or("") != "-" && a.json.value_or("") != "-")
        printTables(std::cout, run, base);

    std::size_t ran = 0, mismatches = 0;
    for (const DashboardResult& r : run.results) {
        ran += r.ran() ? 1 : 0;
        mismatches += r.status == Status::Mismatch ? 1 : 0;
    }
    if (mismatches) {
        std::cerr << "histlab-cli: " << mismatches
                  << " result(s) differ from the CPU reference (see status mismatch)\n";
        return Mismatch;
    }
    if (ran == 0) {
        std::cerr << "histlab-cli: no pipeline of the dashboard could run\n";
        return DeviceFailure;
    }
    return Ok;
}

} // namespace histlab::cli
