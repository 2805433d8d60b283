// The hand-written JSON value (report/legacyjson.h) that saved runs went through before
// nlohmann-json: it goes when nothing uses it any more, and these tests with it.
#include "report/legacyjson.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

TEST(Json, ParsesAndWritesBack) {
    const JsonValue v = parseJson(
        " {\"a\": [1, -2.5e3, true, false, null], \"b\": {\"c\": \"x\\\"y\\\\z\\n\\u00e9\"}} ");
    const auto& a = v.at("a").asArray();
    ASSERT_EQ(a.size(), 5u);
    EXPECT_EQ(a[0].asNumber(), 1);
    EXPECT_EQ(a[1].asNumber(), -2500);
    EXPECT_TRUE(a[2].asBool());
    EXPECT_FALSE(a[3].asBool());
    EXPECT_TRUE(a[4].isNull());
    EXPECT_EQ(v.at("b").at("c").asString(), "x\"y\\z\n\xc3\xa9");
    EXPECT_EQ(parseJson(v.dump()).dump(), v.dump());
    EXPECT_EQ(JsonValue(0.1).dump(), "0.1");
    EXPECT_EQ(JsonValue(std::uint64_t(1) << 40).dump(), "1099511627776");
}

TEST(Json, ErrorsSayWhere) {
    for (const char* bad :
         {"", "{", "[1,]", "{\"a\" 1}", "\"unterminated", "01x", "[1] 2", "{\"a\": tru}"})
        EXPECT_THROW(parseJson(bad), InputError) << bad;
    try {
        parseJson("{\n  \"a\": [1,\n  }\n}");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parseJson("[1]").at("x"), InputError);
    EXPECT_THROW(parseJson("{\"x\": 1}").at("x").asString(), InputError);
}

} // namespace
} // namespace histlab
