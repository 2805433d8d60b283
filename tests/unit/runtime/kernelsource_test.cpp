// The kernel loader's #include "NAME.cl": the named file's text in its place, once per file,
// from the override folder or the embedded copies alike.
#include "runtime/kernelsource.h"
#include "unitsupport.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST(KernelSource, IncludesAreInlinedOnce) {
    test::TempDir dir;
    test::writeFile(dir / "outer.cl", "#include \"inner.cl\"\n#include \"inner.cl\"\n"
                                      "__kernel void outer(void) {}\n");
    test::writeFile(dir / "inner.cl",
                    "#include \"outer.cl\"\ninline int inner(void) { return 1; }\n");
    setKernelDir(dir.path().string());
    const KernelSource k = loadKernelSource("outer");
    setKernelDir("");
    EXPECT_EQ(occurrences(k.text, "inline int inner"), 1u);
    EXPECT_EQ(occurrences(k.text, "__kernel void outer"), 1u); // no loop back into itself
    EXPECT_EQ(occurrences(k.text, "#include"), 0u);
    EXPECT_LT(k.text.find("inline int inner"), k.text.find("__kernel void outer"));
}

TEST(KernelSource, EmbeddedFamiliesGetTheSharedEntropies) {
    for (const char* family : {"largebin", "register"}) {
        const KernelSource k = loadKernelSource(family);
        EXPECT_EQ(occurrences(k.text, "inline double groupSum("), 1u) << family;
        EXPECT_EQ(occurrences(k.text, "\n#include \"entropy.cl\""), 0u) << family;
    }
}

} // namespace
} // namespace histlab
