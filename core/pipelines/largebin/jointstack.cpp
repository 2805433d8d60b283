#include "pipelines/largebin/jointstack.h"

#include "pipelines/largebin/imagestack.h"

#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <cmath>
#include <sstream>

namespace histlab {

JointStackRun runJointStack(Device& device, const JointStackRequest& request,
                            const CancelToken& cancel,
                            const std::function<void(double, const std::string&)>& progress) {
    JointStackRun run;
    run.first = request.first;
    run.last = request.last;
    run.pagesInFile = request.pagesInFile;
    std::vector<std::unique_ptr<ImagePageReader>> stacks;
    for (const std::string& path : request.paths)
        stacks.push_back(openImagePages(path));
    JointRun& stack = run.stack;
    stack.device = device.info();
    JointPoint total;
    total.method = request.method;
    total.status = Status::Verified;
    for (int page = request.first; page <= request.last; ++page) {
        startStackPage(page, request.first, request.last, cancel, progress);
        const HostImage a = stacks.front()->read(page);
        const HostImage b = stacks.size() > 1 ? stacks.back()->read(page) : HostImage();
        const JointRequest r = makeJointRequest(
            a, stacks.size() > 1 ? b : a, request.channelA, request.channelB, request.bins,
            request.rangeA, request.rangeB, request.mask.get(), {request.method}, request.repeats);
        if (page == request.first) {
            if (r.a.type == SampleType::F32)
                refuseFloatStack(request.paths.front(), "joint histogram");
            stack.spec = r.spec;
            stack.histogram.binsA = r.spec.a.bins;
            stack.histogram.binsB = r.spec.b.bins;
            stack.histogram.counts.assign(r.spec.cells(), 0);
            stack.maskSource = r.maskSource;
        } else if (r.spec.a.lo != stack.spec.a.lo || r.spec.a.hi != stack.spec.a.hi ||
                   r.spec.b.lo != stack.spec.b.lo || r.spec.b.hi != stack.spec.b.hi ||
                   r.a.type != stack.spec.a.type || r.b.type != stack.spec.b.type) {
            throw InputError(a.source + ": its samples are not those of page " +
                             std::to_string(request.first) +
                             " (the pages of a stack share their channels and depth)");
        }
        const JointRun one = runJoint(device, r, cancel);
        JointStackPage p;
        p.page = page;
        p.pairs = one.pairs;
        p.counted = one.histogram.counted();
        p.mi = one.mi;
        p.status = one.points.front().status;
        p.detail = one.points.front().detail;
        p.medianMs = one.points.front().stats.medianMs;
        for (std::size_t i = 0; i < stack.histogram.counts.size(); ++i)
            stack.histogram.counts[i] += one.histogram.counts[i];
        stack.histogram.leftOut += one.histogram.leftOut;
        stack.pairs += one.pairs;
        total.bytes += one.points.front().bytes;
        total.stats.medianMs += p.medianMs;
        total.geometry = one.points.front().geometry;
        if (p.status != Status::Verified && total.status == Status::Verified) {
            total.status = p.status;
            total.detail = "page " + std::to_string(page) + ": " + p.detail;
        }
        run.pages.push_back(std::move(p));
    }
    const std::string pages = stackPagesText(request.first, request.last, request.pagesInFile);
    stack.sourceA = request.paths.front() + pages + " (" + request.channelA + ")";
    stack.sourceB = request.paths.back() + pages + " (" + request.channelB + ")";
    stack.mi = mutualInformation(stack.histogram);
    if (total.stats.medianMs > 0)
        total.gbps = double(total.bytes) / (total.stats.medianMs * 1e6);
    stack.points.push_back(std::move(total));
    stack.miEvaluation.status = Status::NotApplicable;
    stack.miEvaluation.detail = "each page's own run";
    if (progress)
        progress(1.0, "done");
    return run;
}

namespace {

Table pagesTable(const JointStackRun& run) {
    Table table({"page", "pairs", "counted", "entropy_a", "entropy_b", "joint_entropy", "mi",
                 "nmi_studholme", "nmi_arithmetic", "nmi_geometric", "status", "detail"});
    auto row = [&table](const std::string& page, std::size_t pairs, std::uint64_t counted,
                        const MutualInformation& mi, Status status, const std::string& detail) {
        table.row()
            .add(page)
            .add(std::uint64_t(pairs))
            .add(counted)
            .add(mi.entropyA)
            .add(mi.entropyB)
            .add(mi.jointEntropy)
            .add(mi.mi)
            .add(mi.nmiStudholme)
            .add(mi.nmiArithmetic)
            .add(mi.nmiGeometric)
            .add(statusName(status))
            .add(detail);
    };
    for (const JointStackPage& p : run.pages)
        row(std::to_string(p.page), p.pairs, p.counted, p.mi, p.status, p.detail);
    // The worst status of the stack's (or one pair's) methods.
    JointPoint total;
    total.status = Status::Verified;
    for (const JointPoint& p : run.stack.points)
        if (p.status != Status::Verified && total.status == Status::Verified)
            total = p;
    row("all", run.stack.pairs, run.stack.histogram.counted(), run.stack.mi, total.status,
        total.detail);
    return table;
}

} // namespace

std::string jointStackText(const JointStackRun& run) {
    std::ostringstream out;
    out << jointText(run.stack);
    out << stackSumLine(run.pages.size(), "tables");
    using A = TextTable::Align;
    TextTable table({{"page"},
                     {"pairs"},
                     {"H(A)"},
                     {"H(B)"},
                     {"H(A,B)"},
                     {"MI"},
                     {"NMI"},
                     {"status", A::Left}});
    auto number = [](double v) { return std::isnan(v) ? std::string("-") : fixedText(v, 6); };
    for (const JointStackPage& p : run.pages)
        table.add({std::to_string(p.page), std::to_string(p.pairs), number(p.mi.entropyA),
                   number(p.mi.entropyB), number(p.mi.jointEntropy), number(p.mi.mi),
                   number(p.mi.nmiStudholme), statusText(p.status, p.detail)});
    out << table.text();
    return out.str();
}

std::string jointStackPagesCsv(const JointStackRun& run) {
    return pagesTable(run).csv();
}

std::string jointStackJson(const JointStackRun& run) {
    Json json = Json::parse(jointJson(run.stack));
    Json pages = Json::array();
    for (const JointStackPage& p : run.pages)
        pages.push_back({{"page", p.page},
                         {"pairs", p.pairs},
                         {"counted", p.counted},
                         {"entropy_a", p.mi.entropyA},
                         {"entropy_b", p.mi.entropyB},
                         {"joint_entropy", p.mi.jointEntropy},
                         {"mi", p.mi.mi},
                         {"nmi_studholme",
                          std::isnan(p.mi.nmiStudholme) ? Json(nullptr) : Json(p.mi.nmiStudholme)},
                         {"status", statusName(p.status)},
                         {"detail", p.detail},
                         {"median_ms", p.medianMs}});
    json["stack"] = {{"first", run.first},
                     {"last", run.last},
                     {"pages_in_file", run.pagesInFile},
                     {"table", "the sum of the pages' verified tables"}};
    json["pages"] = std::move(pages);
    return jsonText(json);
}

} // namespace histlab
