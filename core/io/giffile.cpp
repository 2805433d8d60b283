// GIF: giflib opens the file (signature, logical screen, global colour map); HistLab walks the
// blocks and decodes the LZW data itself, because giflib's decoder refuses a minimum code size
// above 8 ("Failed to read from given file"), which LZW allows up to 11 (codes of 12 bits from
// the first: the GIF test suite's max-codes.gif, which PIL and browsers decode).
//
// The image is what a viewer shows first, as the GIF test suite and browsers define it: every
// image block up to the first one whose graphics control extension has a non-zero delay (or up
// to the last block where none has), painted on the logical screen in order, each block's
// disposal applied before the next (2: its rectangle back to transparent; 3: back to what it
// was). The screen starts transparent; parts of a block past the screen are clipped. A looping
// animation (a NETSCAPE2.0 or ANIMEXTS1.0 extension) in which no block has a delay shows each
// block as a frame (the suite's animation-zero-delays.gif), so its first block is the image.
// Alpha is kept only where some pixel of the image is transparent; otherwise the image is RGB.
//
// The work is bounded: the screen is held to checkDeclaredSize's limits before it is allocated,
// at most 4,096 blocks are composed, each block's LZW data must be able to stand for its pixels,
// and the pixels decoded over all composed blocks (parts past the screen included) are at most
// maxImagePixels(). Memory is the screen, a copy of it for disposal 3, and one block's LZW data;
// the blocks after the first image are walked (and counted as frames), never decompressed.
#include "io/decoders.h"
#include "io/imageio.h"
#include "runtime/errors.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <gif_lib.h>
#include <opencv2/imgproc.hpp>
#include <utility>

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
/// does not know.
std::string gifError(int code) {
    const char* text = GifErrorString(code);
    return text ? text : "giflib error " + std::to_string(code);
}

/// The most image blocks composed into the first image.
constexpr std::size_t maxComposedBlocks = 4096;

/// One image block as the walk finds it: where its descriptor starts and what its graphics
/// control extension says.
struct Block {
    std::size_t at = 0;
    int delay = 0, disposal = 0, transparent = -1;
    cv::Rect area; ///< where the block lies on the screen (it may reach past it)
};

/// A screen up to this many pixels is the image whatever its blocks cover (4 MiB as RGBA).
constexpr std::uint64_t screenAlwaysShown = std::uint64_t(1) << 20;

/// Reads the blocks of a GIF's bytes after its screen descriptor, every read bounds-checked.
class Walker {
public:
    Walker(const std::vector<unsigned char>& bytes, std::size_t at, const std::string& path)
        : m_bytes(bytes)
        , m_at(at)
        , m_path(path) {}

    std::size_t at() const { return m_at; }
    void seek(std::size_t at) { m_at = at; }

    [[noreturn]] void damaged(const std::string& what) const {
        throw InputError(m_path + ": damaged or truncated GIF (" + what + ")");
    }

    unsigned byte(const char* what) {
        if (m_at >= m_bytes.size())
            damaged(std::string("the file ends in ") + what);
        return m_bytes[m_at++];
    }

    unsigned word(const char* what) {
        const unsigned lo = byte(what);
        return lo | byte(what) << 8;
    }

    const unsigned char* take(std::size_t n, const char* what) {
        if (m_bytes.size() - m_at < n)
            damaged(std::string("the file ends in ") + what);
        const unsigned char* p = m_bytes.data() + m_at;
        m_at += n;
        return p;
    }

    /// Skips a chain of data sub-blocks; returns the bytes of data they hold and, where `out`
    /// is given, appends them to it.
    std::uint64_t subBlocks(const char* what, std::vector<unsigned char>* out = nullptr) {
        std::uint64_t total = 0;
        for (unsigned n; (n = byte(what)) != 0; total += n) {
            const unsigned char* p = take(n, what);
            if (out)
                out->insert(out->end(), p, p + n);
        }
        return total;
    }

private:
    const std::vector<unsigned char>& m_bytes;
    std::size_t m_at;
    const std::string& m_path;
};

/// An image descriptor and what follows it up to its LZW data.
struct Frame {
    int left = 0, top = 0, width = 0, height = 0;
    bool interlaced = false;
    std::vector<GifColorType> localMap;
    int codeSize = 0; ///< the LZW minimum code size
};

/// Reads an image descriptor (the walker after its 0x2C), its local colour map and the LZW
/// minimum code size.
Frame readFrame(Walker& w) {
    Frame f;
    f.left = int(w.word("an image descriptor"));
    f.top = int(w.word("an image descriptor"));
    f.width = int(w.word("an image descriptor"));
    f.height = int(w.word("an image descriptor"));
    const unsigned flags = w.byte("an image descriptor");
    f.interlaced = flags & 0x40;
    if (flags & 0x80) {
        const std::size_t colours = std::size_t(2) << (flags & 7);
        const unsigned char* p = w.take(3 * colours, "a local colour map");
        for (std::size_t i = 0; i < colours; ++i)
            f.localMap.push_back({p[3 * i], p[3 * i + 1], p[3 * i + 2]});
    }
    f.codeSize = int(w.byte("an image's LZW code size"));
    return f;
}

/// InputError for a frame of more pixels than its LZW data can stand for, checked before it
/// is decompressed: a code takes at least (minimum code size + 1) bits, at least 3, and stands
/// for at most 4,096 pixels (the longest string of a 4,096-entry table).
void checkLzwHoldsFrame(std::uint64_t lzwBytes, const Frame& f, int number, const Walker& w) {
    const std::uint64_t maxPixels =
        lzwBytes * 8 / std::uint64_t(std::max(3, f.codeSize + 1)) * 4096;
    const std::uint64_t framePixels = std::uint64_t(f.width) * std::uint64_t(f.height);
    if (framePixels > maxPixels)
        w.damaged("frame " + std::to_string(number) + " declares " + std::to_string(f.width) +
                  " x " + std::to_string(f.height) + " pixels; its " + std::to_string(lzwBytes) +
                  " bytes of LZW data can hold at most " + std::to_string(maxPixels));
}

/// Decodes GIF LZW data (variable-width codes of up to 12 bits, least significant bit first)
/// into `pixels` indices, each handed to `put(k, index)` in order; InputError where a code is
/// not yet defined or the data ends before the pixels do. Data past the last pixel is ignored,
/// as PIL and browsers ignore it.
template <typename Put>
void decodeLzw(const std::vector<unsigned char>& lzw, int minCodeSize, std::uint64_t pixels,
               int number, const Walker& w, Put put) {
    if (minCodeSize < 1 || minCodeSize > 11)
        w.damaged("frame " + std::to_string(number) + " has an LZW minimum code size of " +
                  std::to_string(minCodeSize) + ", not 1 ... 11");
    const int clear = 1 << minCodeSize, end = clear + 1;
    std::array<std::uint16_t, 4096> prefix{};
    std::array<std::uint8_t, 4096> suffix{}, first{};
    for (int i = 0; i < clear; ++i)
        suffix[std::size_t(i)] = first[std::size_t(i)] = std::uint8_t(i),
        prefix[std::size_t(i)] = 0;
    std::array<std::uint8_t, 4096> stack{};
    int codeSize = minCodeSize + 1, next = clear + 2, previous = -1;
    std::uint64_t done = 0, bits = 0;
    int held = 0;
    std::size_t at = 0;
    while (done < pixels) {
        while (held < codeSize && at < lzw.size()) {
            bits |= std::uint64_t(lzw[at++]) << held;
            held += 8;
        }
        if (held < codeSize)
            break;
        int code = int(bits & ((1u << codeSize) - 1));
        bits >>= codeSize;
        held -= codeSize;
        if (code == clear) {
            codeSize = minCodeSize + 1;
            next = clear + 2;
            previous = -1;
            continue;
        }
        if (code == end)
            break;
        if (code > next || (code == next && previous < 0) || (code > end && previous < 0))
            w.damaged("frame " + std::to_string(number) + " has the LZW code " +
                      std::to_string(code) + " before it is defined");
        // The string of `code` (of the previous code and its own first index where it is the
        // entry about to be made), written backwards from its last index.
        std::size_t depth = 0;
        int c = code == next ? previous : code;
        if (code == next)
            stack[depth++] = first[std::size_t(previous)];
        while (c > end) {
            stack[depth++] = suffix[std::size_t(c)];
            c = prefix[std::size_t(c)];
        }
        stack[depth++] = std::uint8_t(c);
        if (previous >= 0 && next < 4096) {
            prefix[std::size_t(next)] = std::uint16_t(previous);
            suffix[std::size_t(next)] = stack[depth - 1];
            first[std::size_t(next)] = first[std::size_t(previous)];
            if (++next == 1 << codeSize && codeSize < 12)
                ++codeSize;
        }
        previous = code;
        while (depth > 0 && done < pixels)
            put(done++, stack[--depth]);
    }
    if (done < pixels)
        w.damaged("frame " + std::to_string(number) + "'s LZW data ends after " +
                  std::to_string(done) + " of its " + std::to_string(pixels) + " pixels");
}

/// The row of a frame that its `r`-th stored row is (interlaced frames store four passes).
int storedRow(int r, int height, bool interlaced) {
    if (!interlaced)
        return r;
    const int starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
    for (int p = 0; p < 4; ++p) {
        const int rows = height > starts[p] ? (height - starts[p] + steps[p] - 1) / steps[p] : 0;
        if (r < rows)
            return starts[p] + r * steps[p];
        r -= rows;
    }
    return height; // past the frame: never reached for r < height
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

    const int width = gif->SWidth, height = gif->SHeight;
    if (width <= 0 || height <= 0)
        throw InputError(path + ": GIF screen of " + std::to_string(width) + " x " +
                         std::to_string(height) + " pixels");
    std::vector<GifColorType> globalMap;
    if (gif->SColorMap)
        globalMap.assign(gif->SColorMap->Colors,
                         gif->SColorMap->Colors + gif->SColorMap->ColorCount);

    // The walk: every block's bytes are checked to be there; the image blocks of the first
    // image are kept, the others counted.
    Walker w(bytes, source.at, path);
    std::vector<Block> first;
    bool firstClosed = false, looping = false, overflow = false;
    std::size_t blocks = 0, delayed = 0;
    std::uint64_t decoded = 0; // the pixels of the first image's blocks
    int lastDelay = 0;
    Block pending;
    for (bool more = true; more;) {
        switch (w.byte("a record")) {
        case 0x3B: // the trailer
            more = false;
            break;
        case 0x21: {
            const unsigned label = w.byte("an extension");
            const std::size_t at = w.at();
            const unsigned n = w.byte("an extension");
            const unsigned char* p = w.take(n, "an extension");
            if (label == GRAPHICS_EXT_FUNC_CODE && n >= 4) {
                pending.disposal = (p[0] >> 2) & 7;
                pending.delay = p[1] | p[2] << 8;
                pending.transparent = (p[0] & 1) ? p[3] : -1;
            } else if (label == APPLICATION_EXT_FUNC_CODE && n == 11 &&
                       (std::memcmp(p, "NETSCAPE2.0", 11) == 0 ||
                        std::memcmp(p, "ANIMEXTS1.0", 11) == 0))
                looping = true;
            w.seek(at);
            w.subBlocks("an extension");
            break;
        }
        case 0x2C: {
            Block b = std::exchange(pending, Block{});
            b.at = w.at();
            const Frame f = readFrame(w);
            b.area = cv::Rect(f.left, f.top, f.width, f.height);
            const std::uint64_t lzwBytes = w.subBlocks("an image's LZW data");
            ++blocks;
            if (b.delay != 0)
                ++delayed;
            lastDelay = b.delay;
            if (!firstClosed) {
                // Checked before the screen is allocated.
                checkLzwHoldsFrame(lzwBytes, f, int(first.size() + 1), w);
                if ((decoded += std::uint64_t(f.width) * std::uint64_t(f.height)) >
                    maxImagePixels())
                    w.damaged("its first image's blocks hold more than the limit of " +
                              std::to_string(maxImagePixels()) + " pixels");
                if (first.size() < maxComposedBlocks)
                    first.push_back(b);
                else
                    overflow = true;
                firstClosed = b.delay != 0;
            }
            break;
        }
        default:
            w.damaged("an unknown block at byte " + std::to_string(w.at() - 1));
        }
    }
    if (blocks == 0)
        throw InputError(path + ": GIF without any image");
    // Frames end at a delay; a looping animation without any delay has one block a frame.
    std::size_t frames = 1;
    if (delayed > 0)
        frames = delayed + (lastDelay == 0 ? 1 : 0);
    else if (looping) {
        frames = blocks;
        first.resize(1);
        overflow = false;
    }
    if (overflow)
        w.damaged("more than " + std::to_string(maxComposedBlocks) +
                  " image blocks before the first delay");

    // The image is the screen, or, where the first image's blocks cover less than a quarter of
    // a screen larger than screenAlwaysShown, the rectangle they cover: a 35-byte file may declare
    // a 20000 x 20000 screen around a 1 x 1 block, and 400 million transparent pixels are not in
    // the file.
    const cv::Rect whole(0, 0, width, height);
    cv::Rect covered;
    for (const Block& b : first)
        covered |= b.area & whole;
    cv::Rect view = whole;
    if (std::uint64_t(width) * std::uint64_t(height) > screenAlwaysShown &&
        std::uint64_t(width) * std::uint64_t(height) > 4 * std::uint64_t(covered.area())) {
        if (covered.empty())
            w.damaged("no block of its first image lies on its " + std::to_string(width) + " x " +
                      std::to_string(height) + " screen");
        view = covered;
    }
    checkDeclaredSize(path, std::uint64_t(view.width), std::uint64_t(view.height), 4, 1);
    cv::Mat screen(view.height, view.width, CV_8UC4, cv::Scalar(0, 0, 0, 0));
    cv::Mat previous; // what a block of disposal 3 covers, before it
    std::vector<unsigned char> lzw;
    for (std::size_t i = 0; i < first.size(); ++i) {
        const Block& b = first[i];
        const int number = int(i + 1);
        w.seek(b.at);
        const Frame f = readFrame(w);
        lzw.clear();
        w.subBlocks("an image's LZW data", &lzw);
        const std::uint64_t pixels = std::uint64_t(f.width) * std::uint64_t(f.height);
        const std::vector<GifColorType>& map = f.localMap.empty() ? globalMap : f.localMap;
        if (map.empty() && pixels > 0)
            w.damaged("no colour map for image block " + std::to_string(number));
        // The part of the block in the image; the rest is decoded and dropped.
        // (An empty intersection is Rect() at (0, 0), a valid empty part of any image.)
        cv::Rect inView = cv::Rect(f.left, f.top, f.width, f.height) & view;
        inView = inView.empty() ? cv::Rect() : inView - view.tl();
        previous.release();
        if (b.disposal == 3 && i + 1 < first.size())
            screen(inView).copyTo(previous);
        decodeLzw(lzw, f.codeSize, pixels, number, w, [&](std::uint64_t k, int index) {
            if (std::size_t(index) >= map.size())
                w.damaged("colour " + std::to_string(index) + " of a " +
                          std::to_string(map.size()) + "-colour map");
            const int x = f.left + int(k % std::uint64_t(f.width)) - view.x;
            const int y =
                f.top + storedRow(int(k / std::uint64_t(f.width)), f.height, f.interlaced) - view.y;
            if (index == b.transparent || x < 0 || y < 0 || x >= view.width || y >= view.height)
                return;
            const GifColorType& c = map[std::size_t(index)];
            screen.at<cv::Vec4b>(y, x) = cv::Vec4b(c.Red, c.Green, c.Blue, 255);
        });
        if (i + 1 == first.size())
            break;
        if (b.disposal == 2)
            screen(inView).setTo(cv::Scalar(0, 0, 0, 0));
        else if (b.disposal == 3 && !previous.empty())
            previous.copyTo(screen(inView));
    }

    Decoded d;
    std::vector<cv::Mat> planes;
    cv::split(screen, planes);
    if (cv::countNonZero(planes[3]) == screen.rows * screen.cols)
        cv::cvtColor(screen, d.mat, cv::COLOR_RGBA2RGB);
    else
        d.mat = screen;
    if (view != whole)
        d.note = "frame 1 covers " + std::to_string(view.width) + " x " +
                 std::to_string(view.height) + " pixels at (" + std::to_string(view.x) + ", " +
                 std::to_string(view.y) + ") of the " + std::to_string(width) + " x " +
                 std::to_string(height) + " screen: that rectangle is the image";
    if (first.size() > 1)
        d.note += std::string(d.note.empty() ? "" : "; ") + "frame 1 composes " +
                  std::to_string(first.size()) + " image blocks";
    if (frames > 1)
        d.note += std::string(d.note.empty() ? "" : "; ") + "an animation of " +
                  std::to_string(frames) + " frames: its first is counted";
    d.frames = int(std::min<std::size_t>(frames, std::size_t(INT_MAX)));
    return d;
}

} // namespace histlab::io
