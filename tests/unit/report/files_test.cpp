// Where outputs go: links are followed and kept, devices and pipes written through, stdout's
// names mean stdout, and every path that cannot be looked at is one InputError naming it.
#include "unitsupport.h"

#include "report/files.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

namespace histlab {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using Kind = OutputTarget::Kind;

// The message of the InputError `f` throws ("" when it throws none).
template <typename F> std::string inputErrorOf(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(Files, StdoutAndStderrByEveryName) {
    for (const char* name : {"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})
        EXPECT_EQ(outputTarget(name).kind, Kind::Stdout) << name;
    for (const char* name : {"/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"})
        EXPECT_EQ(outputTarget(name).kind, Kind::Stderr) << name;
}

TEST(Files, DevicesAreWrittenThroughAndStayDevices) {
    EXPECT_EQ(outputTarget("/dev/null").kind, Kind::Stream);
    writeFileAtomically("/dev/null", "nothing kept");
    struct stat st {};
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    if (::access("/dev/full", W_OK) == 0) {
        const std::string why = inputErrorOf([] { writeFileAtomically("/dev/full", "x"); });
        EXPECT_NE(why.find("/dev/full: write failed"), std::string::npos) << why;
    }
}

TEST(Files, AFifoWithoutAReaderIsRefusedNotWaitedOn) {
    TempDir dir;
    const fs::path fifo = dir / "f.csv";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(outputTarget(fifo.string()).kind, Kind::Stream);
    const std::string why = inputErrorOf([&] { writeFileAtomically(fifo.string(), "x"); });
    EXPECT_NE(why.find("a FIFO that no process reads"), std::string::npos) << why;
}

TEST(Files, ALinkToAFileReplacesTheFileAndStaysALink) {
    TempDir dir;
    test::writeFile(dir / "real.csv", "old");
    fs::create_symlink("real.csv", dir / "link.csv");
    const OutputTarget t = outputTarget((dir / "link.csv").string());
    EXPECT_EQ(t.kind, Kind::File);
    EXPECT_EQ(fs::path(t.path), fs::canonical(dir / "real.csv"));
    writeFileAtomically((dir / "link.csv").string(), "new");
    EXPECT_TRUE(fs::is_symlink(dir / "link.csv"));
    EXPECT_EQ(test::readFile(dir / "real.csv"), "new");
}

TEST(Files, ADanglingLinkCreatesItsTarget) {
    TempDir dir;
    fs::create_symlink("made.csv", dir / "link.csv");
    writeFileAtomically((dir / "link.csv").string(), "made");
    EXPECT_TRUE(fs::is_symlink(dir / "link.csv"));
    EXPECT_EQ(test::readFile(dir / "made.csv"), "made");
}

TEST(Files, PathsThatCannotBeLookedAtAreOneErrorNamingThem) {
    TempDir dir;
    const fs::path loop = dir / "loop.csv";
    fs::create_symlink("loop.csv", loop);
    std::string why = inputErrorOf([&] { checkWritable(loop.string()); });
    EXPECT_NE(why.find(loop.string() + ": "), std::string::npos) << why;
    EXPECT_NE(why.find("symbolic links"), std::string::npos) << why;

    const std::string longName = (dir / (std::string(300, 'a') + ".csv")).string();
    why = inputErrorOf([&] { checkWritable(longName); });
    EXPECT_NE(why.find("File name too long"), std::string::npos) << why;

    test::writeFile(dir / "file", "x");
    why = inputErrorOf([&] { checkWritable((dir / "file" / "x.csv").string()); });
    EXPECT_NE(why.find("Not a directory"), std::string::npos) << why;

    why = inputErrorOf([&] { checkWritable(dir.path().string()); });
    EXPECT_NE(why.find("is a folder"), std::string::npos) << why;
    EXPECT_NE(inputErrorOf([] { checkWritable(""); }), "");
}

TEST(Files, ALongNameStillGetsATemporaryThatFits) {
    TempDir dir;
    const fs::path out = dir / (std::string(250, 'b') + ".csv"); // 254 bytes: fits NAME_MAX
    writeFileAtomically(out.string(), "fits");
    EXPECT_EQ(test::readFile(out), "fits");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(Files, SameFile) {
    TempDir dir;
    test::writeFile(dir / "a.png", "x");
    test::writeFile(dir / "b.png", "x");
    fs::create_symlink("a.png", dir / "link.png");
    const std::string a = (dir / "a.png").string();
    EXPECT_TRUE(sameFile(a, (dir / "link.png").string()));
    EXPECT_TRUE(sameFile(a, (dir / "." / "a.png").string()));
    EXPECT_FALSE(sameFile(a, (dir / "b.png").string()));
    // Neither exists yet: the same path however written.
    EXPECT_TRUE(sameFile((dir / "new.csv").string(), (dir / "sub" / ".." / "new.csv").string()));
    EXPECT_FALSE(sameFile((dir / "new.csv").string(), (dir / "other.csv").string()));
    // Two outputs into stdout or /dev/null lose nothing.
    EXPECT_FALSE(sameFile("-", "-"));
    EXPECT_FALSE(sameFile("/dev/null", "/dev/null"));
}

} // namespace
} // namespace histlab
