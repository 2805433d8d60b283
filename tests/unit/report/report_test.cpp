// Results as files: atomic writes, up-front writability checks, the devices as JSON.
#include "unitsupport.h"

#include "report/report.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace histlab {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::vector<std::string> listing(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(Report, WriteFileAtomicallyWritesAndLeavesNoTemporary) {
    TempDir dir;
    const fs::path out = dir / "hist.csv";
    writeFileAtomically(out.string(), "bin,gray\n0,1\n");
    EXPECT_EQ(test::readFile(out), "bin,gray\n0,1\n");
    writeFileAtomically(out.string(), "replaced"); // replaces, never appends
    EXPECT_EQ(test::readFile(out), "replaced");
    EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"hist.csv"});
}

TEST(Report, WriteIntoAMissingFolderThrowsAndWritesNothing) {
    TempDir dir;
    const fs::path out = dir / "missing" / "hist.csv";
    try {
        writeFileAtomically(out.string(), "x");
        ADD_FAILURE() << "wrote into a missing folder";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(out.string()), std::string::npos) << e.what();
    }
    EXPECT_TRUE(listing(dir.path()).empty());
    EXPECT_FALSE(fs::exists(dir / "missing"));
}

TEST(Report, CheckWritable) {
    TempDir dir;
    EXPECT_NO_THROW(checkWritable((dir / "new.json").string()));
    EXPECT_NO_THROW(checkWritable("-"));
    EXPECT_THROW(checkWritable(dir.path().string()), InputError) << "a folder is not a file";
    EXPECT_THROW(checkWritable((dir / "no" / "x.json").string()), InputError);
    EXPECT_THROW(checkWritable(""), InputError);
    EXPECT_TRUE(listing(dir.path()).empty()) << "checking creates nothing";
}

TEST(Report, UtcTimestamp) {
    const std::string ts = utcTimestamp();
    EXPECT_EQ(ts.size(), 20u) << ts;
    EXPECT_EQ(ts.back(), 'Z');
}

TEST(Report, DevicesJson) {
    const DeviceInfo& info = test::sharedDevice().info();
    const std::string json =
        devicesJson(std::vector<DeviceListing>{{info, test::sharedDevice().capabilities(), {}}});
    EXPECT_TRUE(test::validJson(json));
    EXPECT_NE(json.find("\"non_uniform_work_groups\""), std::string::npos);
    EXPECT_NE(json.find(Json(info.name).dump()), std::string::npos);
    EXPECT_TRUE(
        test::validJson(devicesJson(std::vector<DeviceListing>{{info, std::nullopt, "x"}})));
}

} // namespace
} // namespace histlab
