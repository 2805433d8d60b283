// One table gives an enum's names, its parser and the message that refuses a wrong name.
#include "runtime/enumtable.h"

#include <gtest/gtest.h>

#include <string>

namespace histlab {
namespace {

enum class Fruit { Apple, Pear, Quince };

const EnumTable<Fruit>& fruits() {
    static const EnumTable<Fruit> table(
        "--fruit", "a fruit",
        {{Fruit::Apple, "apple"}, {Fruit::Pear, "pear"}, {Fruit::Pear, "perry", true}}, {"all"});
    return table;
}

std::string refusal(const std::string& name) {
    try {
        fruits().parse(name);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(EnumTable, NamesAndParsesEachValue) {
    EXPECT_EQ(fruits().parse("apple"), Fruit::Apple);
    EXPECT_EQ(fruits().parse("pear"), Fruit::Pear);
    EXPECT_STREQ(fruits().name(Fruit::Apple), "apple");
    EXPECT_STREQ(fruits().name(Fruit::Pear), "pear");
    EXPECT_STREQ(fruits().name(Fruit::Quince), "?"); // not in the table
}

TEST(EnumTable, AnAliasParsesButIsNeitherWrittenNorListed) {
    EXPECT_EQ(fruits().parse("perry"), Fruit::Pear);
    EXPECT_STREQ(fruits().name(Fruit::Pear), "pear");
    EXPECT_EQ(fruits().names(), (std::vector<std::string>{"apple", "pear"}));
    EXPECT_EQ(fruits().values(), (std::vector<Fruit>{Fruit::Apple, Fruit::Pear}));
}

TEST(EnumTable, TheRefusalListsTheTableThenTheCallersNames) {
    EXPECT_EQ(refusal("plum"), "--fruit: 'plum' is not a fruit (apple, pear or all)");
    // a name the caller handles is still no value of the table
    EXPECT_EQ(refusal("all"), "--fruit: 'all' is not a fruit (apple, pear or all)");
    // what is echoed stays one short line
    EXPECT_EQ(refusal("a\nb"), "--fruit: 'a\\nb' is not a fruit (apple, pear or all)");
    EXPECT_EQ(refusal(std::string(200, 'x')).size(), std::string("--fruit: '").size() + 83 +
                                                         std::string("' is not a fruit (apple, "
                                                                     "pear or all)")
                                                             .size());
}

} // namespace
} // namespace histlab
