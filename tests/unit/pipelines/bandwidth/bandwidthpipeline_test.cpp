// The bandwidth family: no command of its own, the two ceilings as dashboard entries, first in
// the dashboard's order (the registry's), each timed on random bytes and judged against itself.
#include "unitsupport.h"

#include "pipelines/dashboard/dashboard.h"
#include "pipelines/registry.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

TEST(BandwidthPipeline, CeilingsAreDashboardEntriesOnly) {
    const Pipeline* p = findPipeline("bandwidth");
    ASSERT_NE(p, nullptr);
    EXPECT_FALSE(p->runnable());
    ASSERT_EQ(p->dashboard.size(), 2u);
    EXPECT_EQ(p->dashboard[0].name, "read-only");
    EXPECT_EQ(p->dashboard[1].name, "copy");
    const std::vector<DashboardPipeline> all = dashboardPipelines();
    ASSERT_GE(all.size(), 2u);
    EXPECT_EQ(all[0].name, "read-only");
    EXPECT_EQ(all[1].name, "copy");
}

TEST(BandwidthPipeline, EachCeilingIsTimedOnTheDevice) {
    DashboardOptions options;
    options.bytes = 64 * 1024;
    options.repeats = 1;
    for (const DashboardPipeline& entry : findPipeline("bandwidth")->dashboard) {
        const std::vector<DashboardResult> results = entry.run(test::sharedDevice(), options, {});
        ASSERT_EQ(results.size(), 1u) << entry.name;
        const DashboardResult& r = results.front();
        EXPECT_EQ(r.pipeline, entry.name);
        EXPECT_EQ(r.ceilingKind, entry.name);
        EXPECT_EQ(r.status, Status::Timed);
        // read-only: bytes read; copy: bytes read + written
        EXPECT_EQ(r.bytes, options.bytes * (entry.name == "copy" ? 2 : 1));
        EXPECT_GT(r.gbps, 0) << entry.name;
        EXPECT_EQ(r.ceilingGbps, r.gbps);
    }
}

} // namespace
} // namespace histlab
