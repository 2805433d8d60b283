#pragma once
// The joint histogram of a stack (--page all or A-B): page P of IMAGE_A against page P of
// IMAGE_B (or two channels of each page of one stack), the pages read one at a time, each pair
// of pages counted on the device and verified cell by cell as one pair of images is (runJoint).
// The stack's table is the sum of the pages' verified tables and its entropies and MI are those
// of the summed table; each page keeps its own entropies and MI.
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

/// jointText of the stack, then one row per page: pairs, H(A), H(B), H(A,B), MI, the NMIs.
std::string jointStackText(const JointStackRun& run);
/// page,pairs,counted,entropy_a,entropy_b,joint_entropy,mi,nmi_studholme,nmi_arithmetic,
/// nmi_geometric,status,detail: one row per page, then the stack's with page "all".
std::string jointStackPagesCsv(const JointStackRun& run);
/// jointJson of the stack with "pages" (each page's row above) and "stack" (first, last,
/// pages_in_file).
std::string jointStackJson(const JointStackRun& run);

} // namespace histlab
