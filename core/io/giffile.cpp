// GIF through giflib (OpenCV 4.6 has no GIF decoder). The image is the first frame: a viewer
// paints it on the logical screen, but what the screen shows outside the frame (a background
// colour, or nothing) is not pixels of the file, and a 35-byte file may declare a 20000 x 20000
// screen around a 1 x 1 frame. The other frames are counted without being decompressed, so that
// an animation costs one frame's memory.
#include "io/decoders.h"
#include "runtime/errors.h"

#include <algorithm>
#include <cstring>
#include <gif_lib.h>
#include <opencv2/imgproc.hpp>

namespace histlab::io {

namespace {

struct Source {
    const unsigned char* data;
    std::size_t size;
    std::size_t at;
};

int readGif(GifFileType* gif, GifByteType* out, int n) {
    auto* s = static_cast<Source*>(gif->UserData);
    const std::size_t take = std::min<std::size_t>(std::size_t(std::max(n, 0)), s->size - s->at);
    std::memcpy(out, s->data + s->at, take);
    s->at += take;
    return int(take);
}

/// giflib's words for an error code; GifErrorString has none (a null pointer) for codes it
/// does not know, 0 among them (what a failed frame header leaves).
std::string gifError(int code) {
    const char* text = GifErrorString(code);
    return text ? text : "giflib error " + std::to_string(code);
}

/// InputError for damaged data at `what`, with giflib's words for its error.
[[noreturn]] void gifFailed(GifFileType* gif, const std::string& path, const std::string& what) {
    throw InputError(path + ": damaged or truncated GIF (" + what + ": " + gifError(gif->Error) +
                     ")");
}

/// InputError for a frame of more pixels than its LZW data (the sub-blocks from `at0`) can stand
/// for, checked before its pixels are allocated.
void checkLzwHoldsFrame(const std::vector<unsigned char>& bytes, std::size_t at0,
                        const GifImageDesc& f, const std::string& path) {
    // A code takes at least (minimum code size + 1) bits, at least 3, and stands for at most 4,096
    // pixels (the longest string of a 4,096-entry table).
    const int codeSize = at0 > 0 ? bytes[at0 - 1] : 2;
    std::uint64_t lzwBytes = 0;
    for (std::size_t at = at0; at < bytes.size() && bytes[at] != 0;
         at += 1 + std::size_t(bytes[at]))
        lzwBytes += std::min<std::size_t>(bytes[at], bytes.size() - at - 1);
    const std::uint64_t maxPixels = lzwBytes * 8 / std::uint64_t(std::max(3, codeSize + 1)) * 4096;
    const std::uint64_t framePixels = std::uint64_t(f.Width) * std::uint64_t(f.Height);
    if (framePixels > maxPixels)
        throw InputError(path + ": damaged or truncated GIF (frame 1 declares " +
                         std::to_string(f.Width) + " x " + std::to_string(f.Height) +
                         " pixels; its " + std::to_string(lzwBytes) +
                         " bytes of LZW data can hold at most " + std::to_string(maxPixels) + ")");
}

/// The first frame's pixels as RGBA (its transparent colour, if any, of alpha 0); InputError
/// for a damaged row or an index outside its colour map.
cv::Mat readFirstFrame(GifFileType* gif, const GifImageDesc& f, const ColorMapObject& map,
                       int transparent, const std::string& path) {
    cv::Mat rgba(f.Height, f.Width, CV_8UC4, cv::Scalar(0, 0, 0, 0));
    std::vector<GifPixelType> line(std::size_t(f.Width));
    // Interlaced frames arrive in four passes of rows.
    const int starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
    const int passes = f.Interlace ? 4 : 1;
    for (int p = 0; p < passes; ++p)
        for (int y = f.Interlace ? starts[p] : 0; y < f.Height; y += f.Interlace ? steps[p] : 1) {
            if (DGifGetLine(gif, line.data(), f.Width) == GIF_ERROR)
                gifFailed(gif, path, "row " + std::to_string(y));
            auto* out = rgba.ptr<cv::Vec4b>(y);
            for (int x = 0; x < f.Width; ++x) {
                const int i = line[std::size_t(x)];
                if (i >= map.ColorCount)
                    throw InputError(path + ": damaged GIF (colour " + std::to_string(i) +
                                     " of a " + std::to_string(map.ColorCount) + "-colour map)");
                const GifColorType& c = map.Colors[i];
                out[x] = cv::Vec4b(c.Red, c.Green, c.Blue, i == transparent ? 0 : 255);
            }
        }
    return rgba;
}

} // namespace

Decoded decodeGif(const std::vector<unsigned char>& bytes, const std::string& path) {
    Source source{bytes.data(), bytes.size(), 0};
    int error = 0;
    GifFileType* gif = DGifOpen(&source, readGif, &error);
    if (!gif)
        throw InputError(path + ": not a GIF giflib can read (" + gifError(error) + ")");
    struct Close {
        GifFileType* g;
        ~Close() { DGifCloseFile(g, nullptr); }
    } close{gif};
    auto fail = [&](const std::string& what) { gifFailed(gif, path, what); };

    const int width = gif->SWidth, height = gif->SHeight;
    if (width <= 0 || height <= 0)
        throw InputError(path + ": GIF screen of " + std::to_string(width) + " x " +
                         std::to_string(height) + " pixels");
    // The screen is never allocated (the first frame is the image): the limits hold the frame.
    Decoded d;
    int frames = 0, transparent = -1;
    cv::Mat rgba;
    for (;;) {
        GifRecordType record;
        if (DGifGetRecordType(gif, &record) == GIF_ERROR)
            fail("a record");
        if (record == TERMINATE_RECORD_TYPE)
            break;
        if (record == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType* block = nullptr;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR)
                fail("an extension");
            if (code == GRAPHICS_EXT_FUNC_CODE && block && frames == 0) {
                GraphicsControlBlock gcb;
                if (DGifExtensionToGCB(block[0], block + 1, &gcb) == GIF_OK)
                    transparent = gcb.TransparentColor;
            }
            while (block)
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR)
                    fail("an extension");
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE)
            continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR)
            fail("a frame's header");
        const GifImageDesc& f = gif->Image;
        if (++frames > 1) { // counted, not decompressed
            int codeSize = 0;
            GifByteType* block = nullptr;
            if (DGifGetCode(gif, &codeSize, &block) == GIF_ERROR)
                fail("frame " + std::to_string(frames));
            while (block)
                if (DGifGetCodeNext(gif, &block) == GIF_ERROR)
                    fail("frame " + std::to_string(frames));
            continue;
        }
        const ColorMapObject* map = f.ColorMap ? f.ColorMap : gif->SColorMap;
        if (!map)
            throw InputError(path + ": damaged GIF (no colour map for its first frame)");
        if (f.Width <= 0 || f.Height <= 0 || f.Left < 0 || f.Top < 0 || f.Left + f.Width > width ||
            f.Top + f.Height > height)
            throw InputError(path + ": damaged GIF (a frame of " + std::to_string(f.Width) + " x " +
                             std::to_string(f.Height) + " at (" + std::to_string(f.Left) + ", " +
                             std::to_string(f.Top) + ") outside its " + std::to_string(width) +
                             " x " + std::to_string(height) + " screen)");
        checkLzwHoldsFrame(bytes, source.at, f, path);
        checkDeclaredSize(path, std::uint64_t(f.Width), std::uint64_t(f.Height), 4, 1);
        if (f.Width != width || f.Height != height)
            d.note = "frame 1 covers " + std::to_string(f.Width) + " x " +
                     std::to_string(f.Height) + " pixels at (" + std::to_string(f.Left) + ", " +
                     std::to_string(f.Top) + ") of the " + std::to_string(width) + " x " +
                     std::to_string(height) + " screen: the frame is the image";
        rgba = readFirstFrame(gif, f, *map, transparent, path);
    }
    if (frames == 0)
        throw InputError(path + ": GIF without any image");
    // RGB unless the first frame has a transparent colour.
    if (transparent < 0)
        cv::cvtColor(rgba, d.mat, cv::COLOR_RGBA2RGB);
    else
        d.mat = rgba;
    if (frames > 1)
        d.note += std::string(d.note.empty() ? "" : "; ") + "an animation of " +
                  std::to_string(frames) + " frames: its first is counted";
    d.frames = frames;
    return d;
}

} // namespace histlab::io
