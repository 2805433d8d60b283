// The registry as both front ends read it: every family has a unique name, says what it
// computes, and a family with a command has every function a front end calls (defaults, prepare,
// plan, run, report) and options with unique names, help and setters. findPipeline
// finds each by name and nothing else.
#include "pipelines/registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace histlab {
namespace {

TEST(Registry, EveryFamilyIsNamedOnceAndDescribed) {
    ASSERT_FALSE(pipelines().empty());
    std::set<std::string> seen;
    for (const Pipeline& p : pipelines()) {
        SCOPED_TRACE(p.name);
        EXPECT_FALSE(p.name.empty());
        EXPECT_TRUE(seen.insert(p.name).second) << "registered twice";
        EXPECT_FALSE(p.summary.empty());
        EXPECT_EQ(findPipeline(p.name), &p);
    }
    EXPECT_EQ(findPipeline("no-such-pipeline"), nullptr);
    EXPECT_EQ(findPipeline(""), nullptr);
}

TEST(Registry, EveryCommandHasWhatTheFrontEndsCall) {
    int commands = 0;
    for (const Pipeline& p : pipelines()) {
        if (!p.runnable()) {
            // A family without a command exists for its dashboard entries.
            EXPECT_FALSE(p.dashboard.empty()) << p.name;
            continue;
        }
        SCOPED_TRACE(p.name);
        ++commands;
        EXPECT_FALSE(p.description.empty());
        EXPECT_FALSE(p.reference.empty());
        // describeItem is optional: a family that streams nothing has no item lines.
        EXPECT_TRUE(p.defaults && p.prepare && p.plan && p.report);
        std::set<std::string> options;
        for (const PipelineOption& o : p.options) {
            SCOPED_TRACE(o.name);
            EXPECT_FALSE(o.name.empty());
            EXPECT_TRUE(options.insert(o.name).second) << "option listed twice";
            EXPECT_FALSE(o.help.empty());
            EXPECT_TRUE(static_cast<bool>(o.set));
            if (o.kind == PipelineOption::Kind::Image) {
                EXPECT_TRUE(static_cast<bool>(o.setImage));
            }
            if (o.kind == PipelineOption::Kind::Value && !o.positional()) {
                EXPECT_FALSE(o.valueName.empty());
            }
        }
        for (const PipelineOutput& out : p.outputs)
            EXPECT_TRUE(options.insert(out.name).second) << out.name << " is also an option";
        std::any params = p.defaults();
        EXPECT_TRUE(params.has_value());
    }
    EXPECT_GE(commands, 8);
}

} // namespace
} // namespace histlab
