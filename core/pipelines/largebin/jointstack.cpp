#include "pipelines/largebin/jointstack.h"

#include "pipelines/largebin/imagestack.h"

#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"
#include "runtime/timing.h"

#include <cmath>
#include <sstream>

namespace histlab {

namespace {

/// The pages' planes as makeJointRequest makes them, read one page at a time.
class StackPairs {
public:
    StackPairs(const JointStackRequest& request, const CancelToken& cancel)
        : m_request(request)
        , m_cancel(cancel) {
        for (const std::string& path : request.paths)
            m_stacks.push_back(openImagePages(path));
    }
    /// The request of page `page` (its planes, spec, mask).
    JointRequest page(int page) const {
        m_cancel.throwIfCancelled();
        const HostImage a = m_stacks.front()->read(page);
        const HostImage b = m_stacks.size() > 1 ? m_stacks.back()->read(page) : HostImage();
        JointRequest r =
            makeJointRequest(a, m_stacks.size() > 1 ? b : a, m_request.channelA, m_request.channelB,
                             m_request.bins, m_request.rangeA, m_request.rangeB,
                             m_request.mask.get(), {m_request.method}, m_request.repeats);
        r.colocalise = m_request.colocalise;
        r.costes = m_request.costes;
        return r;
    }

private:
    const JointStackRequest& m_request;
    const CancelToken& m_cancel;
    std::vector<std::unique_ptr<ImagePageReader>> m_stacks;
};

/// The stack's colocalisation: every pass over all pages, each page read once for the device's
/// pass and the reference's with the same arguments. The reference's own search is then replayed
/// from those passes, and reads the pages afresh only where it asks for other arguments (where
/// the device's passes differed).
void colocaliseStack(Device& device, const JointStackRequest& request, const StackPairs& pairs,
                     const JointSpec& spec, JointRun& stack) {
    const SampleType type = spec.a.type;
    struct Recorded {
        ColocPassArgs args;
        ColocSums sums;
    };
    std::vector<Recorded> sumsDone;
    std::vector<std::pair<ColocSteps, std::vector<ColocMoments>>> stepsDone;
    double referenceMs = 0; // the reference's passes inside the device's
    auto timed = [&referenceMs](const std::function<void()>& work) {
        referenceMs += wallClockMs(work);
    };
    auto forPages = [&](const std::function<void(const JointRequest&)>& visit) {
        for (int page = request.first; page <= request.last; ++page)
            visit(pairs.page(page));
    };
    auto devicePass = [&](const JointRequest& r) {
        SamplePlane m;
        m.type = SampleType::U8;
        m.bytes = r.mask;
        const cl::Buffer a = uploadPlane(device, r.a), b = uploadPlane(device, r.b);
        const cl::Buffer mask = r.mask.empty() ? a : uploadPlane(device, m);
        return ColocDevicePass(device, a, b, r.mask.empty() ? nullptr : &mask, r.a.count(), spec);
    };
    const ColocPasses devicePasses{
        [&](const ColocPassArgs& args) {
            ColocSums sums, reference;
            forPages([&](const JointRequest& r) {
                addColocSums(sums, devicePass(r)(args));
                timed([&] {
                    addColocSums(reference, colocPassReference(r.a, r.b, spec, r.mask, args));
                });
            });
            sumsDone.push_back({args, reference});
            return sums;
        },
        [&](const ColocSteps& steps) {
            std::vector<ColocMoments> sums(steps.count() + 1), reference(steps.count() + 1);
            forPages([&](const JointRequest& r) {
                addColocMoments(sums, devicePass(r).steps(steps));
                timed([&] {
                    addColocMoments(reference, colocStepsReference(r.a, r.b, spec, r.mask, steps));
                });
            });
            stepsDone.emplace_back(steps, reference);
            return sums;
        }};
    std::size_t nextSums = 0, nextSteps = 0;
    const ColocPasses referencePasses{
        [&](const ColocPassArgs& args) {
            if (nextSums < sumsDone.size() && sumsDone[nextSums].args == args)
                return sumsDone[nextSums++].sums;
            nextSums = sumsDone.size();
            ColocSums reference;
            forPages([&](const JointRequest& r) {
                addColocSums(reference, colocPassReference(r.a, r.b, spec, r.mask, args));
            });
            return reference;
        },
        [&](const ColocSteps& steps) {
            if (nextSteps < stepsDone.size() && stepsDone[nextSteps].first.ta == steps.ta &&
                stepsDone[nextSteps].first.tb == steps.tb)
                return stepsDone[nextSteps++].second;
            nextSteps = stepsDone.size();
            std::vector<ColocMoments> reference(steps.count() + 1);
            forPages([&](const JointRequest& r) {
                addColocMoments(reference, colocStepsReference(r.a, r.b, spec, r.mask, steps));
            });
            return reference;
        }};
    JointRequest whole;
    whole.colocalise = request.colocalise;
    whole.costes = request.costes;
    whole.a.type = type;
    colocaliseCounts(stack, whole, devicePasses,
                     [&] { return colocalise(type, request.costes, referencePasses); });
    // The reference's passes ran inside the device's, page by page: their time is moved over.
    stack.colocDeviceMs -= referenceMs;
    stack.colocReferenceMs += referenceMs;
}

} // namespace

JointStackRun runJointStack(Device& device, const JointStackRequest& request,
                            const CancelToken& cancel,
                            const std::function<void(double, const std::string&)>& progress) {
    JointStackRun run;
    run.first = request.first;
    run.last = request.last;
    run.pagesInFile = request.pagesInFile;
    const StackPairs pairs(request, cancel);
    JointRun& stack = run.stack;
    stack.device = device.info();
    JointPoint total;
    total.method = request.method;
    total.status = Status::Verified;
    for (int page = request.first; page <= request.last; ++page) {
        startStackPage(page, request.first, request.last, cancel, progress);
        const JointRequest r = pairs.page(page);
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
            throw InputError(r.a.source + ": its samples are not those of page " +
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
        p.coloc = one.coloc;
        p.colocStatus = one.colocStatus;
        p.colocDetail = one.colocDetail;
        p.colocDeviceMs = one.colocDeviceMs;
        p.colocReferenceMs = one.colocReferenceMs;
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
        progress(double(run.pages.size()) / double(run.pages.size() + 1),
                 "colocalisation of the stack");
    colocaliseStack(device, request, pairs, stack.spec, stack);
    if (progress)
        progress(1.0, "done");
    return run;
}

namespace {

Table pagesTable(const JointStackRun& run) {
    Table table({"page",
                 "pairs",
                 "counted",
                 "entropy_a",
                 "entropy_b",
                 "joint_entropy",
                 "mi",
                 "nmi_studholme",
                 "nmi_arithmetic",
                 "nmi_geometric",
                 "status",
                 "detail",
                 "pearson",
                 "pearson_below",
                 "pearson_above",
                 "m1",
                 "m2",
                 "tm1",
                 "tm2",
                 "threshold_a",
                 "threshold_b",
                 "icq",
                 "above_both",
                 "coloc_status"});
    auto row = [&table](const std::string& page, std::size_t pairs, std::uint64_t counted,
                        const MutualInformation& mi, Status status, const std::string& detail,
                        const Colocalisation& c, Status colocStatus) {
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
        for (double v : {c.pearson, c.pearsonBelow, c.pearsonAbove, c.m1, c.m2, c.tm1, c.tm2,
                         c.thresholdA, c.thresholdB, c.icq, c.overlap})
            std::isnan(v) ? table.skip() : table.add(v); // undefined: empty, as batch's table
        table.add(statusName(colocStatus));
    };
    for (const JointStackPage& p : run.pages)
        row(std::to_string(p.page), p.pairs, p.counted, p.mi, p.status, p.detail, p.coloc,
            p.colocStatus);
    // The worst status of the stack's (or one pair's) methods.
    JointPoint total;
    total.status = Status::Verified;
    for (const JointPoint& p : run.stack.points)
        if (p.status != Status::Verified && total.status == Status::Verified)
            total = p;
    row("all", run.stack.pairs, run.stack.histogram.counted(), run.stack.mi, total.status,
        total.detail, run.stack.coloc, run.stack.colocStatus);
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
                     {"r"},
                     {"TA"},
                     {"TB"},
                     {"status", A::Left}});
    auto number = [](double v) { return std::isnan(v) ? std::string("-") : fixedText(v, 6); };
    auto whole = [](double v) { return std::isnan(v) ? std::string("-") : fixedText(v, 0); };
    for (const JointStackPage& p : run.pages) {
        std::string status = statusText(p.status, p.detail);
        if (p.colocStatus == Status::Mismatch || p.colocStatus == Status::Failed)
            status += "; colocalisation " + statusText(p.colocStatus, p.colocDetail);
        table.add({std::to_string(p.page), std::to_string(p.pairs), number(p.mi.entropyA),
                   number(p.mi.entropyB), number(p.mi.jointEntropy), number(p.mi.mi),
                   number(p.mi.nmiStudholme), number(p.coloc.pearson), whole(p.coloc.thresholdA),
                   whole(p.coloc.thresholdB), status});
    }
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
        pages.push_back(
            {{"page", p.page},
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
             {"median_ms", p.medianMs},
             {"colocalisation", colocalisationJson(p.coloc, p.colocStatus, p.colocDetail,
                                                   p.colocDeviceMs, p.colocReferenceMs)}});
    json["stack"] = {{"first", run.first},
                     {"last", run.last},
                     {"pages_in_file", run.pagesInFile},
                     {"table", "the sum of the pages' verified tables"}};
    json["pages"] = std::move(pages);
    return jsonText(json);
}

} // namespace histlab
