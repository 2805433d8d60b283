// Netpbm images (PBM, PGM, PPM; plain and raw) read here rather than through OpenCV 4.6, which
// scales a plain file's samples to 8 bits but not a raw one's, keeps 16-bit samples unscaled
// whatever the maxval (a PGM of maxval 1,000 fell into the 256-bin histogram's bins 0 to 3),
// and accepts samples above the maxval. Netpbm's specification: a sample is a fraction of the
// maxval, 0 black and maxval white; PBM's 1 is black.
#include "io/decoders.h"
#include "runtime/errors.h"

#include <cctype>

namespace histlab::io {

namespace {

class Cursor {
public:
    Cursor(const std::vector<unsigned char>& bytes, const std::string& path)
        : m_b(bytes)
        , m_path(path) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(m_path + ": damaged " + kind() + " (" + what + ")");
    }
    std::string kind() const {
        return m_b[1] == '1' || m_b[1] == '4'   ? "PBM"
               : m_b[1] == '2' || m_b[1] == '5' ? "PGM"
                                                : "PPM";
    }

    /// Skips whitespace and comments (from '#' to the end of the line).
    void skipSpace() {
        while (m_at < m_b.size()) {
            if (m_b[m_at] == '#')
                while (m_at < m_b.size() && m_b[m_at] != '\n' && m_b[m_at] != '\r')
                    ++m_at;
            else if (std::isspace(m_b[m_at]))
                ++m_at;
            else
                break;
        }
    }

    /// A decimal number of the header or of a plain file's samples (at most `digits` digits:
    /// `limit` caps the value so that nothing overflows).
    std::uint64_t number(const char* what, std::uint64_t limit) {
        skipSpace();
        if (m_at >= m_b.size())
            fail("the file ends before its " + std::string(what));
        if (!std::isdigit(m_b[m_at]))
            fail(std::string(what) + " is not a number");
        std::uint64_t v = 0;
        while (m_at < m_b.size() && std::isdigit(m_b[m_at])) {
            v = v * 10 + (m_b[m_at++] - '0');
            if (v > limit)
                fail(std::string(what) + " is above " + std::to_string(limit));
        }
        return v;
    }

    /// A plain PBM's next bit: one digit, spaces between them optional.
    int bit() {
        skipSpace();
        if (m_at >= m_b.size())
            fail("the file ends before its last pixel");
        const unsigned char c = m_b[m_at++];
        if (c != '0' && c != '1')
            fail("a PBM pixel is 0 or 1, not '" + std::string(1, char(c)) + "'");
        return c - '0';
    }

    std::size_t at() const { return m_at; }
    void advance(std::size_t n) { m_at += n; }
    std::size_t left() const { return m_b.size() - m_at; }
    const unsigned char* here() const { return m_b.data() + m_at; }

private:
    const std::vector<unsigned char>& m_b;
    const std::string& m_path;
    std::size_t m_at = 2;
};

} // namespace

Decoded decodePnm(const std::vector<unsigned char>& bytes, const std::string& path) {
    Cursor in(bytes, path);
    const char type = char(bytes.at(1));
    const bool bitmap = type == '1' || type == '4', plain = type <= '3';
    const int channels = type == '3' || type == '6' ? 3 : 1;
    const std::uint64_t width = in.number("width", 1u << 30);
    const std::uint64_t height = in.number("height", 1u << 30);
    const std::uint64_t maxval = bitmap ? 1 : in.number("maxval", 65535);
    if (width == 0 || height == 0)
        in.fail(std::to_string(width) + " x " + std::to_string(height) + " pixels");
    if (maxval == 0)
        in.fail("a maxval of 0");
    const bool wide = maxval > 255;
    checkDeclaredSize(path, width, height, channels, wide ? 2 : 1);
    if (!plain) { // exactly one whitespace byte between the header and the samples
        if (in.left() == 0 || !std::isspace(*in.here()))
            in.fail("no whitespace after the header");
        in.advance(1);
    }
    const std::uint64_t samples = width * height * channels;
    // The bytes the declared samples need at least, checked before the image is allocated.
    const std::uint64_t need = type == '4' ? (width + 7) / 8 * height
                               : plain     ? samples
                                           : samples * (wide ? 2 : 1);
    if (in.left() < need)
        throw InputError(path + ": truncated " + in.kind() + " (" + std::to_string(width) + " x " +
                         std::to_string(height) + " pixels need " + std::to_string(need) +
                         " bytes of samples, the file has " + std::to_string(in.left()) + ")");

    Decoded d;
    d.create(int(height), int(width), CV_MAKETYPE(wide ? CV_16U : CV_8U, channels));
    const std::uint64_t top = wide ? 65535 : 255;
    const std::size_t perRow = std::size_t(width) * channels;
    for (std::uint64_t y = 0; y < height; ++y) {
        auto* row8 = d.mat.ptr<std::uint8_t>(int(y));
        auto* row16 = d.mat.ptr<std::uint16_t>(int(y));
        const unsigned char* raw = in.here();
        for (std::size_t i = 0; i < perRow; ++i) {
            std::uint64_t v;
            if (bitmap)
                v = type == '1' ? in.bit() : (raw[i / 8] >> (7 - i % 8)) & 1;
            else if (plain)
                v = in.number("sample", 65535);
            else
                v = wide ? std::uint64_t(raw[2 * i]) << 8 | raw[2 * i + 1] : raw[i];
            if (bitmap) {
                row8[i] = v ? 0 : 255;
                continue;
            }
            if (v > maxval)
                in.fail("sample " + std::to_string(v) + " at pixel (" +
                        std::to_string(i / channels) + ", " + std::to_string(y) +
                        ") is above the maxval " + std::to_string(maxval));
            if (maxval != top)
                v = (v * top + maxval / 2) / maxval;
            if (wide)
                row16[i] = std::uint16_t(v);
            else
                row8[i] = std::uint8_t(v);
        }
        if (!plain)
            in.advance(type == '4' ? (width + 7) / 8 : perRow * (wide ? 2 : 1));
    }
    return d;
}

} // namespace histlab::io
