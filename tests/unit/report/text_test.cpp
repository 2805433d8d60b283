// Text reports for people: fixed digits, and tables whose columns never run together however
// wide a number grows.
#include "report/status.h"
#include "report/text.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

using A = TextTable::Align;

TEST(TextTable, ColumnsAreAsWideAsTheirWidestCellAndTwoSpacesApart) {
    TextTable t({{"kernel", A::Left}, {"GB/s"}, {"% copy"}, {"status", A::Left}});
    t.add({"char1", "2.22", "176505.2", "verified"});
    t.add({"uint4_serial", "14.82", "1177126.6", "mismatch: byte 3"});
    EXPECT_EQ(t.text(), "kernel         GB/s     % copy  status\n"
                        "char1          2.22   176505.2  verified\n"
                        "uint4_serial  14.82  1177126.6  mismatch: byte 3\n");
}

TEST(TextTable, IndentSpansNotesAndMissingCells) {
    TextTable t({{"stage", A::Left}, {"ms"}, {"note", A::Left}}, "  ");
    t.add({"histogram", "1.5"});
    t.addSpan({"merge"}, "n/a for this variant");
    t.add({"apply", "12.25", "x"}, "refused: too large");
    EXPECT_EQ(t.text(), "  stage         ms  note\n"
                        "  histogram    1.5\n"
                        "  merge  n/a for this variant\n"
                        "  apply      12.25  x\n"
                        "      refused: too large\n");
}

TEST(TextTable, StatusTextAddsTheDetailOnlyWhenThereIsOne) {
    EXPECT_EQ(statusText(Status::Verified, ""), "verified");
    EXPECT_EQ(statusText(Status::Unsupported, "needs 64 KiB"), "unsupported: needs 64 KiB");
    EXPECT_EQ(fixedText(2.0 / 3.0, 2), "0.67");
    EXPECT_EQ(gbpsText(4370.4), "4370");
    EXPECT_EQ(gbpsText(12.54), "12.5");
}

TEST(TextTable, ChoiceListsReadAsASentence) {
    EXPECT_EQ(choiceList({}), "");
    EXPECT_EQ(choiceList({"bins"}), "bins");
    EXPECT_EQ(choiceList({"random", "skewed", "smooth"}), "random, skewed or smooth");
}

} // namespace
} // namespace histlab
