// The files' building blocks (report/json.h, report/table.h): JSON read back with errors that
// name the file, line and column; integers kept exact beyond 2^53 (the hand-written parser this
// replaced stored every number as a double); the one timings shape and the older flat one;
// CSV fields quoted where they must be and numbers written exactly.
#include "report/json.h"
#include "report/table.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace histlab {
namespace {

std::string errorOf(const std::string& text) {
    try {
        parseJsonText(text, "run.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(Json, ParseErrorsNameTheFileLineAndColumn) {
    const std::string e = errorOf("{\n  \"a\": 1,\n  \"b\": }\n");
    EXPECT_EQ(e.rfind("run.json: JSON: ", 0), 0u) << e;
    EXPECT_NE(e.find("at line 3, column 8"), std::string::npos) << e;
    EXPECT_NE(errorOf("").find("run.json: JSON: "), std::string::npos);
    EXPECT_NE(errorOf("[1, 2").find("line 1"), std::string::npos);
    EXPECT_NE(errorOf("{} trailing").find("run.json"), std::string::npos);
}

// Found by fuzzing: a number beyond a double's range is nlohmann's out_of_range, not a
// parse_error, and escaped as an uncaught exception (a crash of every saved-run reader).
TEST(Json, NumberOverflowIsAnInputError) {
    EXPECT_EQ(errorOf(R"({"gbps": 21E7483648})"),
              "run.json: JSON: number overflow parsing '21E7483648'");
}

TEST(Json, IntegersStayExact) {
    const std::uint64_t big = (std::uint64_t(1) << 53) + 1; // not a double
    const Json back =
        parseJsonText(jsonText(Json{{"bytes", big}, {"max", ~std::uint64_t(0)}}), "test");
    EXPECT_EQ(jsonUnsignedAt(back, "bytes"), big);
    EXPECT_EQ(jsonUnsignedAt(back, "max"), ~std::uint64_t(0));
    EXPECT_EQ(jsonIntegerAt(parseJsonText(R"({"n": -9007199254740993})", "t"), "n"),
              -9007199254740993LL);
}

TEST(Json, MembersSayWhatIsWrong) {
    const Json j = parseJsonText(R"({"s": "x", "n": 1.5, "neg": -1, "b": true})", "t");
    EXPECT_EQ(jsonStringAt(j, "s"), "x");
    EXPECT_DOUBLE_EQ(jsonNumberAt(j, "n"), 1.5);
    EXPECT_TRUE(jsonBoolAt(j, "b"));
    EXPECT_EQ(jsonStringOr(j, "missing", "fallback"), "fallback");
    auto message = [&](auto f) {
        try {
            f();
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(message([&] { jsonAt(j, "nope"); }), "missing key 'nope'");
    EXPECT_NE(message([&] { jsonStringAt(j, "n"); }).find("key 'n': expected a string"),
              std::string::npos);
    EXPECT_NE(message([&] { jsonUnsignedAt(j, "neg"); }).find("key 'neg'"), std::string::npos);
    EXPECT_NE(message([&] { jsonUnsignedAt(j, "n"); }).find("whole number"), std::string::npos);
}

TEST(Json, OneTimingsShapeAndTheOlderFlatOne) {
    const TimingStats t = summarize({3.0, 1.0, 2.0});
    const Json j = timingJson(t);
    EXPECT_EQ(j.at("median_ms").get<double>(), 2.0);
    EXPECT_EQ(j.at("samples_ms").size(), 3u);
    const TimingStats nested = timingFromJson(Json{{"timing", j}, {"gbps", 1}});
    EXPECT_EQ(nested.medianMs, 2.0);
    EXPECT_EQ(nested.minMs, 1.0);
    EXPECT_EQ(nested.maxMs, 3.0);
    EXPECT_EQ(nested.samplesMs.size(), 3u);
    // Rows written before there was one shape carried the keys flat.
    const TimingStats flat = timingFromJson(parseJsonText(
        R"({"median_ms": 5, "min_ms": 4, "max_ms": 6, "samples_ms": [4, 5, 6], "gbps": 9})",
        "old.json"));
    EXPECT_EQ(flat.medianMs, 5.0);
    EXPECT_EQ(flat.maxMs, 6.0);
    EXPECT_THROW(timingFromJson(Json{{"gbps", 1}}), InputError);
}

TEST(Table, CsvQuotesWhatItMustAndWritesNumbersExactly) {
    Table t({"name", "value", "count", "ok"});
    t.row().add("plain").add(0.1).add(std::uint64_t(18446744073709551615ull)).add(true);
    t.row().add("a, \"quoted\"\nline").add(1e-7).add(-3).add(false);
    t.row().add("short");
    EXPECT_EQ(t.csv(), "name,value,count,ok\n"
                       "plain,0.1,18446744073709551615,true\n"
                       "\"a, \"\"quoted\"\"\nline\",1e-07,-3,false\n"
                       "short,,,\n");
    EXPECT_EQ(t.column("count"), 2);
    EXPECT_EQ(t.column("missing"), -1);
    EXPECT_EQ(numberText(4370.0), "4370");
    EXPECT_EQ(numberText(2.5), "2.5");
    EXPECT_EQ(numberText(1.0 / 3.0), "0.3333333333333333");
    EXPECT_EQ(numberText(std::numeric_limits<double>::quiet_NaN()), "nan");
    EXPECT_EQ(csvField("carriage\rreturn"), "\"carriage\rreturn\"");
}

} // namespace
} // namespace histlab
