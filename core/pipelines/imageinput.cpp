#include "pipelines/imageinput.h"

#include "pipelines/options.h"
#include "runtime/errors.h"

namespace histlab {

void setImagePath(ImageInput& input, const std::string& command, const std::string& path) {
    if (!input.path.empty())
        throw UsageError(command,
                         "more than one image given ('" + input.path + "', '" + path + "')");
    input.path = path;
}

void setSyntheticOption(ImageInput& input, const std::string& option, const std::string& value) {
    if (option == "--synthetic") {
        input.synthetic = parseSyntheticKind(value);
    } else if (option == "--width") {
        input.width = int(parseWholeNumber(option, value, 1, 1 << 20));
    } else if (option == "--height") {
        input.height = int(parseWholeNumber(option, value, 1, 1 << 20));
    } else if (option == "--channels") {
        input.channels = int(parseWholeNumber(option, value, 1, 4));
        if (input.channels == 2)
            throw UsageError(option, "1, 3 or 4");
    } else if (option == "--depth") {
        input.depth = int(parseWholeNumber(option, value, 8, 16));
        if (input.depth != 8 && input.depth != 16)
            throw UsageError(option, "8 or 16");
    } else {
        throw UsageError(option, "not an option of a synthetic image");
    }
}

void checkImageInput(const ImageInput& input, const std::string& command) {
    if (input.synthetic && !input.path.empty())
        throw UsageError(command, "an image or --synthetic, not both");
    if (input.synthetic && (input.width == 0 || input.height == 0))
        throw UsageError("--synthetic", "needs --width and --height");
    if (!input.synthetic && (input.width || input.height))
        throw UsageError("--width/--height", "only with --synthetic");
    if (!input.synthetic && input.path.empty() && !input.loaded && !input.pages)
        throw UsageError(command, "which image? (histlab-cli " + command +
                                      " IMAGE ... or --synthetic KIND --width W --height H)");
}

std::shared_ptr<const HostImage> imageOf(const ImageInput& input) {
    if (input.synthetic)
        return std::make_shared<const HostImage>(makeSyntheticImage(
            *input.synthetic, input.width, input.height, input.channels, input.depth));
    if (!input.loaded)
        throw InputError(input.path.empty() ? std::string("no image given")
                                            : input.path + ": the image was not loaded");
    return input.loaded;
}

} // namespace histlab
