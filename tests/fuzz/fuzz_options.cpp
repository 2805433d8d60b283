// The command line's values: every option of every pipeline in the registry parses its text as
// histlab-cli does (PipelineOption::set), and the shared parsers (sizes, regions, shards, bin
// ranges). The first two bytes choose the option, the rest is its value: a stored value or a
// UsageError/InputError naming the option, nothing else.
#include "image/image.h"
#include "pipelines/bow/collection.h"
#include "pipelines/largebin/joint.h"
#include "pipelines/largebin/largebin.h"
#include "pipelines/registry.h"
#include "runtime/bytesize.h"
#include "runtime/errors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace {

struct Target {
    const histlab::Pipeline* pipeline;
    const histlab::PipelineOption* option;
};

const std::vector<Target>& targets() {
    static const std::vector<Target> all = [] {
        std::vector<Target> t;
        for (const histlab::Pipeline& p : histlab::pipelines())
            for (const histlab::PipelineOption& o : p.options)
                if (o.kind == histlab::PipelineOption::Kind::Value && !o.readsFile && o.set)
                    t.push_back({&p, &o});
        return t;
    }();
    return all;
}

template <typename F> void refusedOrParsed(F&& parse) {
    try {
        parse();
    } catch (const histlab::UsageError&) {
    } catch (const histlab::InputError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2)
        return 0;
    const std::size_t choice = std::size_t(data[0]) << 8 | data[1];
    const std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);
    const std::size_t shared = 7;
    const std::size_t pick = choice % (targets().size() + shared);
    if (pick < targets().size()) {
        const Target& t = targets()[pick];
        std::any params = t.pipeline->defaults();
        refusedOrParsed([&] { t.option->set(params, text); });
        return 0;
    }
    switch (pick - targets().size()) {
    case 0:
        refusedOrParsed([&] { histlab::parseByteSize("--size", text); });
        break;
    case 1:
        refusedOrParsed([&] { histlab::parseRegion(text); });
        break;
    case 2:
        refusedOrParsed([&] { histlab::parseShard(text); });
        break;
    case 3:
        refusedOrParsed([&] { histlab::parseBinRange(text); });
        break;
    case 4:
        refusedOrParsed([&] { histlab::parseBinCounts(text); });
        break;
    case 5:
        refusedOrParsed([&] { histlab::parseJointBins(text); });
        break;
    default:
        refusedOrParsed([&] { histlab::parseSyntheticKind(text); });
        break;
    }
    return 0;
}
