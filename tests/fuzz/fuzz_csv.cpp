// The CSV readers on any text: the generic parser, a shard's word table, a descriptor file.
#include "pipelines/bow/collection.h"
#include "report/table.h"
#include "runtime/errors.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        histlab::parseCsv(text, "fuzz.csv");
    } catch (const histlab::InputError&) {
    }
    for (std::size_t k : {std::size_t(0), std::size_t(8)}) {
        try {
            histlab::parseWordsCsv(text, "fuzz.csv", k);
        } catch (const histlab::InputError&) {
        }
    }
    try {
        histlab::parseDescriptorCsv(text, "fuzz.csv");
    } catch (const histlab::InputError&) {
    }
    return 0;
}
