#pragma once
// The joint histogram of a stack (--page all or A-B): page P of IMAGE_A against page P of
// IMAGE_B (or two channels of each page of one stack), the pages read one at a time, each pair
// of pages counted on the device and verified cell by cell as one pair of images is (runJoint).
// The stack's table is the sum of the pages' verified tables and its entropies and MI are those
// of the summed table; each page keeps its own entropies and MI. Colocalisation likewise: each
// page's own, and the stack's over every page's pairs (Coloc 2 on a 3-D stack), its passes
// reading the pages again (three more reads of the stack with the stepwise search), each page
// read once for the device's pass and the CPU reference's.
#include "pipelines/largebin/jointrun.h"
#include "pipelines/pipeline.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace histlab {

struct JointStackRequest {
    std::vector<std::string> paths; ///< one stack (two channels) or two
    int first = 1, last = 1;
    int pagesInFile = 1; ///< of the first stack
    std::string channelA = "gray", channelB = "gray";
    std::pair<int, int> bins{256, 256};
    std::optional<BinRange> rangeA, rangeB;
    std::shared_ptr<const HostImage> mask; ///< applied to every page
    LargeBinMethod method = LargeBinMethod::Auto;
    int repeats = 5;
    bool colocalise = true; ///< --coloc off: false
    CostesSearch costes = CostesSearch::Stepwise;
};

/// One page's pair: its entropies and MI, how the method went.
struct JointStackPage {
    int page = 0;
    std::size_t pairs = 0;
    std::uint64_t counted = 0;
    MutualInformation mi;
    Status status = Status::Failed;
    std::string detail;
    double medianMs = 0;
    Colocalisation coloc; ///< the page's own
    Status colocStatus = Status::NotApplicable;
    std::string colocDetail;
    double colocDeviceMs = 0, colocReferenceMs = 0;
};

struct JointStackRun {
    JointRun stack; ///< the summed table, its entropies and MI; one point: the pages' worst
    int first = 1, last = 1, pagesInFile = 1;
    std::vector<JointStackPage> pages;
};

/// Runs the pages in turn: InputError naming a page whose size, channels or depth differ from
/// what the first page's table was made for; progress per page, cancellation between pages.
JointStackRun runJointStack(Device& device, const JointStackRequest& request,
                            const CancelToken& cancel,
                            const std::function<void(double, const std::string&)>& progress);

/// jointText of the stack (with the stack's colocalisation), then one row per page: pairs, H(A),
/// H(B), H(A,B), MI, NMI, Pearson's r, Costes' thresholds, the status.
std::string jointStackText(const JointStackRun& run);
/// page,pairs,counted,entropy_a,entropy_b,joint_entropy,mi,nmi_studholme,nmi_arithmetic,
/// nmi_geometric,status,detail, then the colocalisation's pearson,pearson_below,pearson_above,
/// m1,m2,tm1,tm2,threshold_a,threshold_b,icq,above_both,coloc_status: one row per page, then
/// the stack's with page "all".
std::string jointStackPagesCsv(const JointStackRun& run);
/// jointJson of the stack with "pages" (each page's row above, its "colocalisation" object as
/// jointJson's) and "stack" (first, last, pages_in_file).
std::string jointStackJson(const JointStackRun& run);

} // namespace histlab
