#pragma once
// The image a pipeline works on, as one option group for every family that takes one: an image
// file (the IMAGE argument, loaded by the front end: the core has no image loader) or a
// synthetic image (--synthetic KIND --width W --height H [--channels C] [--depth D]), which is
// how the GPU machines, built without OpenCV, run image pipelines at all.
//
// A family's parameters hold an ImageInput member; imageArgument() and syntheticImageOptions()
// build its options for any such parameters, checkImageInput() is its prepare step and
// imageOf() gives the image to run on.
#include "image/image.h"
#include "pipelines/pipeline.h"

#include <memory>
#include <optional>
#include <string>

namespace histlab {

struct ImageInput {
    std::string path; ///< the IMAGE argument as given ("" for none)
    /// The file's image once the front end loaded it (or the image a window already holds).
    std::shared_ptr<const HostImage> loaded;
    std::optional<SyntheticKind> synthetic; ///< --synthetic KIND
    int width = 0, height = 0;              ///< --width, --height (synthetic only)
    int channels = 1;                       ///< --channels: 1, 3 or 4
    int depth = 8;                          ///< --depth: 8 or 16
    /// --page all or A-B: the pages of a stack, read by the run itself (nothing is loaded).
    std::optional<PageRange> pages;
};

/// Stores the IMAGE argument; a second one is refused with UsageError(command, "more than one
/// image given ('a', 'b')").
void setImagePath(ImageInput& input, const std::string& command, const std::string& path);

/// Stores one of --synthetic, --width, --height, --channels, --depth (`option`); UsageError
/// naming it for a bad value ("--channels: 1, 3 or 4").
void setSyntheticOption(ImageInput& input, const std::string& option, const std::string& value);

/// The checks of a synthetic image's options against the IMAGE argument, before anything is
/// loaded: both given ("<command>: an image or --synthetic, not both"), a synthetic image
/// without its size ("--synthetic: needs --width and --height"), a size without one, and
/// neither ("<command>: which image? ...").
void checkImageInput(const ImageInput& input, const std::string& command);

/// The image to run on: the loaded file, or the synthetic image, made now.
std::shared_ptr<const HostImage> imageOf(const ImageInput& input);

/// The IMAGE argument of a command whose parameters hold `input`.
template <typename Params>
PipelineOption imageArgument(ImageInput Params::*input, const std::string& command,
                             std::string help) {
    return imageOption<Params>(
        "IMAGE", "FILE", std::move(help),
        [input, command](Params& p, const std::string& path) {
            setImagePath(p.*input, command, path);
        },
        [input](Params& p, HostImage image) {
            (p.*input).loaded = std::make_shared<const HostImage>(std::move(image));
        });
}

/// --synthetic KIND alone, with the help a family gives it (a family that sizes its synthetic
/// data otherwise, as the histogram does in bytes).
template <typename Params>
PipelineOption syntheticKindOption(ImageInput Params::*input, std::string help) {
    return valueOption<Params>("--synthetic", "KIND", std::move(help),
                               [input](Params& p, const std::string& value) {
                                   setSyntheticOption(p.*input, "--synthetic", value);
                               });
}

/// --synthetic KIND --width W --height H --channels C --depth D.
template <typename Params>
std::vector<PipelineOption> syntheticImageOptions(ImageInput Params::*input) {
    auto option = [input](const std::string& name, const std::string& valueName,
                          const std::string& help) {
        return valueOption<Params>(name, valueName, help,
                                   [input, name](Params& p, const std::string& value) {
                                       setSyntheticOption(p.*input, name, value);
                                   });
    };
    return {syntheticKindOption<Params>(
                input, "random | uniform | gradient | skewed pixels instead of a file, with "
                       "--width W --height H [--channels 1|3|4] [--depth 8|16]"),
            option("--width", "W", "the synthetic image's width in pixels"),
            option("--height", "H", "the synthetic image's height in pixels"),
            option("--channels", "1|3|4",
                   "the synthetic image's channels: gray, RGB or RGBA "
                   "(default 1)"),
            option("--depth", "8|16", "the synthetic image's bits per channel (default 8)")};
}

} // namespace histlab
