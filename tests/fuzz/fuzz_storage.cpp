// The FileStorage readers (codebooks and descriptor files: YAML, XML, JSON) on any text: the
// nesting bound comes before OpenCV's parser, which recurses once a level, so nothing here may
// crash, whatever the depth; a refusal is HistLab's InputError.
#include "runtime/errors.h"
#include "services/bowopencv.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    histlab::storageNesting(text);
    try {
        const histlab::Codebook c = histlab::codebookFromStorage(text, "fuzz.yml");
        if (c.k == 0 || c.dim == 0 || c.values.size() != c.k * c.dim)
            std::abort(); // a codebook without words, or of another shape than it says
    } catch (const histlab::InputError&) {
    }
    try {
        const histlab::Descriptors d = histlab::descriptorsFromStorage(text, "fuzz.xml");
        if (d.count == 0 || d.dim == 0 || d.values.size() != d.count * d.dim)
            std::abort();
    } catch (const histlab::InputError&) {
    }
    return 0;
}
