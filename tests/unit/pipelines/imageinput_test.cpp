// The image option group every image family shares (blur, equalize; the histogram's IMAGE):
// one image file or a synthetic image, each refusal naming its option as histlab-cli prints it.
#include "unitsupport.h"

#include "pipelines/imageinput.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

/// The message of the UsageError `f` throws ("" when it throws none).
template <typename F> std::string refusal(F f) {
    try {
        f();
        return {};
    } catch (const UsageError& e) {
        return e.what();
    }
}

struct Params {
    ImageInput input;
};

TEST(ImageInput, OneImageFile) {
    ImageInput in;
    setImagePath(in, "blur", "a.png");
    EXPECT_EQ(in.path, "a.png");
    EXPECT_EQ(refusal([&] { setImagePath(in, "blur", "b.png"); }),
              "blur: more than one image given ('a.png', 'b.png')");
    // Through the option the command gets: the path, then the image the front end loaded.
    const PipelineOption option = imageArgument<Params>(&Params::input, "equalize", "help");
    EXPECT_EQ(option.kind, PipelineOption::Kind::Image);
    EXPECT_TRUE(option.positional());
    std::any params = Params{};
    option.set(params, "c.png");
    option.setImage(params, makeSyntheticImage(SyntheticKind::Uniform, 3, 2));
    const ImageInput& got = std::any_cast<const Params&>(params).input;
    EXPECT_EQ(got.path, "c.png");
    ASSERT_TRUE(got.loaded);
    EXPECT_EQ(imageOf(got), got.loaded);
    EXPECT_EQ(refusal([&] { option.set(params, "d.png"); }),
              "equalize: more than one image given ('c.png', 'd.png')");
}

TEST(ImageInput, SyntheticOptionsAndTheirValues) {
    ImageInput in;
    setSyntheticOption(in, "--synthetic", "gradient");
    setSyntheticOption(in, "--width", "7");
    setSyntheticOption(in, "--height", "5");
    setSyntheticOption(in, "--channels", "3");
    setSyntheticOption(in, "--depth", "16");
    const std::shared_ptr<const HostImage> image = imageOf(in);
    EXPECT_EQ(image->source, "synthetic gradient 7x5");
    EXPECT_EQ(image->width, 7);
    EXPECT_EQ(image->height, 5);
    EXPECT_EQ(image->channels, 3);
    EXPECT_EQ(image->depth, 16);
    EXPECT_EQ(image->data.size(), 7u * 5u * 3u * 2u);
    EXPECT_NO_THROW(validateImage(*image));
    EXPECT_EQ(refusal([&] { setSyntheticOption(in, "--channels", "2"); }), "--channels: 1, 3 or 4");
    EXPECT_EQ(refusal([&] { setSyntheticOption(in, "--depth", "12"); }), "--depth: 8 or 16");
    EXPECT_EQ(refusal([&] { setSyntheticOption(in, "--width", "0"); }),
              "--width: 0 is out of range (1..1048576)");
    EXPECT_EQ(refusal([&] { setSyntheticOption(in, "--synthetic", "noise"); }),
              "--synthetic: unknown kind 'noise' (random, uniform, gradient, skewed)");
    // The options a family gets, all through the same setters.
    std::vector<std::string> names;
    for (const PipelineOption& o : syntheticImageOptions<Params>(&Params::input))
        names.push_back(o.name);
    EXPECT_EQ(names, (std::vector<std::string>{"--synthetic", "--width", "--height", "--channels",
                                               "--depth"}));
}

TEST(ImageInput, CombinationsRefusedBeforeLoading) {
    ImageInput in;
    EXPECT_EQ(refusal([&] { checkImageInput(in, "blur"); }),
              "blur: which image? (histlab-cli blur IMAGE ... or --synthetic KIND --width W "
              "--height H)");
    in.width = 4;
    EXPECT_EQ(refusal([&] { checkImageInput(in, "blur"); }),
              "--width/--height: only with --synthetic");
    in.synthetic = SyntheticKind::Random;
    EXPECT_EQ(refusal([&] { checkImageInput(in, "blur"); }),
              "--synthetic: needs --width and --height");
    in.height = 4;
    EXPECT_EQ(refusal([&] { checkImageInput(in, "blur"); }), "");
    in.path = "a.png";
    EXPECT_EQ(refusal([&] { checkImageInput(in, "equalize"); }),
              "equalize: an image or --synthetic, not both");
    // An image a window already holds needs no path.
    ImageInput held;
    held.loaded =
        std::make_shared<const HostImage>(makeSyntheticImage(SyntheticKind::Random, 2, 2));
    EXPECT_EQ(refusal([&] { checkImageInput(held, "blur"); }), "");
}

} // namespace
} // namespace histlab
