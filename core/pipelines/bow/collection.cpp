#include "pipelines/bow/collection.h"

#include "image/image.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/table.h"
#include "runtime/bytesize.h"
#include "runtime/enumtable.h"
#include "runtime/errors.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace histlab {

namespace fs = std::filesystem;

namespace {

BowOpenCv& openCvFunctions() {
    static BowOpenCv functions;
    return functions;
}

/// The extension in lower case without its dot, as the extension lists hold them.
std::string lowerExtension(const fs::path& p) {
    const std::string e = lowercaseExtension(p.string());
    return e.empty() ? e : e.substr(1);
}

const std::set<std::string>& imageExtensions() {
    static const std::set<std::string> e(imageFileExtensions().begin(),
                                         imageFileExtensions().end());
    return e;
}

const std::set<std::string>& descriptorExtensions() {
    static const std::set<std::string> e = {"csv", "yml", "yaml", "xml", "json"};
    return e;
}

/// What a descriptor file's cell holds: a finite float, a number that is not one (nan, inf, or
/// beyond a float's range), or no number in any notation.
enum class CellKind { Number, NotFinite, Text };

/// A cell as a float, in any notation a program writes: decimal, exponent, a leading '+', hex
/// ("0x1p3"), spaces around. Read without the C library's locale (a GUI may set one whose
/// decimal point is a comma).
CellKind floatOf(const std::string& text, float& value) {
    const std::size_t a = text.find_first_not_of(" \t"), b = text.find_last_not_of(" \t");
    if (a == std::string::npos)
        return CellKind::Text;
    const char* p = text.data() + a;
    const char* end = text.data() + b + 1;
    bool negative = false;
    if (*p == '+' || *p == '-') {
        negative = *p == '-';
        ++p;
    }
    std::chars_format format = std::chars_format::general;
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        format = std::chars_format::hex;
        p += 2;
    }
    if (p == end || *p == '+' || *p == '-')
        return CellKind::Text;
    const auto [stop, ec] = std::from_chars(p, end, value, format);
    if (stop != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
        return CellKind::Text;
    value = negative ? -value : value;
    return ec == std::errc() && std::isfinite(value) ? CellKind::Number : CellKind::NotFinite;
}

/// A descriptor CSV's rows, one at a time: the first row is a header when one of its cells is no
/// number in any notation; every other cell must be a finite float.
class DescriptorRows {
public:
    explicit DescriptorRows(const std::string& path)
        : m_path(path) {}
    void add(const std::vector<std::string>& row, std::size_t line) {
        float v = 0;
        if (m_rows++ == 0)
            for (const std::string& cell : row)
                if (floatOf(cell, v) == CellKind::Text) {
                    m_header = cell; // a header line of names
                    return;
                }
        m_values.clear();
        for (std::size_t c = 0; c < row.size(); ++c) {
            const CellKind kind = floatOf(row[c], v);
            if (kind != CellKind::Number)
                throw InputError(m_path + ": line " + std::to_string(line) + ", column " +
                                 std::to_string(c + 1) + ": '" + row[c] + "' is not " +
                                 (kind == CellKind::NotFinite ? "a finite number" : "a number"));
            m_values.push_back(v);
        }
        if (m_d.count == 0) {
            m_d.dim = m_values.size();
            if (m_d.dim > kBowMaxDim)
                throw InputError(m_path + ": " + std::to_string(m_d.dim) +
                                 " values a descriptor: at most " + std::to_string(kBowMaxDim));
        } else if (m_values.size() != m_d.dim) {
            throw InputError(m_path + ": line " + std::to_string(line) + " has " +
                             std::to_string(m_values.size()) + " values, the first descriptor " +
                             std::to_string(m_d.dim));
        }
        m_d.values.insert(m_d.values.end(), m_values.begin(), m_values.end());
        ++m_d.count;
    }
    Descriptors finish() {
        if (m_d.count == 0)
            throw InputError(m_path + ": no descriptors in the file" +
                             (m_header.empty() ? std::string()
                                               : " (line 1 is read as a header: '" + m_header +
                                                     "' is no number)"));
        return std::move(m_d);
    }

private:
    std::string m_path, m_header;
    std::size_t m_rows = 0;
    std::vector<float> m_values;
    Descriptors m_d;
};

const char* const kWordColumns[] = {"file", "descriptors", "status", "weighting"};
constexpr std::size_t kWordColumnCount = 4;

} // namespace

namespace {

const EnumTable<BowDetector>& bowDetectors() {
    static const EnumTable<BowDetector> table(
        "--detector", "a detector", {{BowDetector::Kaze, "kaze"}, {BowDetector::Sift, "sift"}});
    return table;
}

} // namespace

std::size_t bowDetectorDimensions(BowDetector detector) {
    return detector == BowDetector::Sift ? 128 : 64;
}

BowDetector parseBowDetector(const std::string& name) {
    return bowDetectors().parse(name);
}

const char* bowDetectorName(BowDetector value) {
    return bowDetectors().name(value);
}

void setBowOpenCv(BowOpenCv functions) {
    openCvFunctions() = std::move(functions);
}

const BowOpenCv& bowOpenCv() {
    return openCvFunctions();
}

void requireBowOpenCv(const std::string& what) {
    if (!openCvFunctions().describe)
        throw InputError(what + ": this build has no OpenCV (built with -DHISTLAB_OPENCV=OFF): "
                                "images, FileStorage files and the OpenCV peers need it");
}

Descriptors readDescriptorFile(const std::string& path) {
    if (lowerExtension(path) != "csv") {
        requireBowOpenCv(path);
        return bowOpenCv().readDescriptors(path);
    }
    // A row at a time: the file's floats are kept, not its text split into cells.
    CsvReader in(path, kTextFileLimit, "a descriptor file");
    DescriptorRows rows(path);
    std::vector<std::string> row;
    while (in.next(row))
        rows.add(row, in.line());
    return rows.finish();
}

Descriptors parseDescriptorCsv(const std::string& text, const std::string& path) {
    const auto rows = parseCsv(text, path);
    DescriptorRows d(path);
    for (std::size_t r = 0; r < rows.size(); ++r)
        d.add(rows[r], r + 1);
    return d.finish();
}

Shard parseShard(const std::string& text) {
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos)
        throw UsageError("--shard", "'" + text + "' is not I/N (the I-th of N shares, from 0)");
    Shard s;
    s.count = std::size_t(parseWholeNumber("--shard", text.substr(slash + 1), 1, 1ll << 40));
    s.index = std::size_t(parseWholeNumber("--shard", text.substr(0, slash), 0, 1ll << 40));
    if (s.index >= s.count) {
        // Slurm arrays often run from 1 (--array=1-3): the message lists the shards to give.
        const std::string n = "/" + std::to_string(s.count);
        std::string shards;
        for (std::size_t i = 0; i < s.count; ++i) {
            if (s.count > 4 && i == 2) {
                shards += ", ...";
                i = s.count - 1;
            }
            shards += (i == 0 ? "" : ", ") + std::to_string(i) + n;
        }
        throw UsageError("--shard", "'" + text + "': shards count from 0: " + shards);
    }
    return s;
}

std::string shardHelp() {
    return "only the I-th of N shares of the sorted listing (files I, I + N, ...): shards count "
           "from 0, 0/N to (N-1)/N, so --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT "
           "with --array=0-(N-1)";
}

std::vector<std::string> listCollection(const std::string& folder, bool recursive,
                                        bool descriptorFiles, const Shard& shard,
                                        std::size_t* skipped) {
    std::error_code ec;
    const fs::file_status st = fs::status(folder, ec);
    if (ec && ec.value() == ELOOP)
        throw InputError(folder + ": a loop of symbolic links, not a folder");
    if (ec && ec.value() != ENOENT)
        throw InputError(folder + ": cannot be looked at (" + ec.message() + ")");
    if (ec || !fs::exists(st))
        throw InputError(folder + ": no such folder");
    if (!fs::is_directory(st))
        throw InputError(folder + ": not a folder");
    std::vector<std::string> files;
    std::size_t others = 0;
    auto visit = [&](const fs::directory_entry& e) {
        std::error_code ignored;
        if (e.is_directory(ignored))
            return;
        if (!e.is_regular_file(ignored)) { // a FIFO, a device, a broken link: never opened
            ++others;
            return;
        }
        // The name as it stands in the folder: lexically, so that a link keeps its own name
        // (fs::relative would follow it to wherever it points, "../..." included).
        if (listedInCollection(e.path().filename().string(), descriptorFiles))
            files.push_back(e.path().lexically_relative(folder).generic_string());
        else
            ++others;
    };
    // Walked by hand rather than with recursive_directory_iterator: a subfolder that cannot be
    // read is an error naming it, never skipped in silence (its images would be missing from a
    // table that says nothing of them). Links to folders are not followed, as the iterator's
    // default: a link back up would list the folder forever.
    std::vector<fs::path> pending{fs::path(folder)};
    while (!pending.empty()) {
        const fs::path dir = pending.back();
        pending.pop_back();
        fs::directory_iterator it(dir, ec);
        for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
            std::error_code ignored;
            if (recursive && it->is_directory(ignored) && !it->is_symlink(ignored))
                pending.push_back(it->path());
            visit(*it);
        }
        if (ec)
            throw InputError(dir.string() + ": cannot be read (" + ec.message() + ")" +
                             (dir == fs::path(folder) ? "" : "; its files would be left out"));
        if (!recursive)
            break;
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> share;
    for (std::size_t i = shard.index; i < files.size(); i += shard.count)
        share.push_back(files[i]);
    if (skipped)
        *skipped = others;
    return share;
}

bool listedInCollection(const std::string& name, bool descriptorFiles) {
    const std::set<std::string>& wanted =
        descriptorFiles ? descriptorExtensions() : imageExtensions();
    return wanted.count(lowerExtension(fs::path(name))) > 0;
}

PipelineInput collectionInput(const std::string& option, const std::string& folder, bool recursive,
                              bool descriptorFiles, const Shard& shard,
                              const std::vector<std::string>& files) {
    PipelineInput in;
    in.option = option;
    in.folder = folder;
    in.recursive = recursive;
    in.files =
        shard.count > 1 ? listCollection(folder, recursive, descriptorFiles, Shard{}) : files;
    in.listed = [descriptorFiles](const std::string& name) {
        return listedInCollection(name, descriptorFiles);
    };
    return in;
}

namespace {

const EnumTable<BowWeighting>& bowWeightings() {
    static const EnumTable<BowWeighting> table("--normalize", "a normalisation",
                                               {{BowWeighting::None, "none"},
                                                {BowWeighting::L1, "l1"},
                                                {BowWeighting::L2, "l2"},
                                                {BowWeighting::TfIdf, "tfidf"}});
    return table;
}

} // namespace

BowWeighting parseBowWeighting(const std::string& name) {
    return bowWeightings().parse(name);
}

const char* bowWeightingName(BowWeighting value) {
    return bowWeightings().name(value);
}

std::vector<double> inverseDocumentFrequency(const WordTable& table) {
    std::vector<std::uint64_t> holding(table.k, 0);
    std::uint64_t images = 0;
    for (const ImageWords& image : table.images) {
        if (!image.error.empty())
            continue;
        ++images;
        for (std::size_t i = 0; i < table.k && i < image.counts.size(); ++i)
            holding[i] += image.counts[i] > 0;
    }
    std::vector<double> idf(table.k, 0.0);
    for (std::size_t i = 0; i < table.k; ++i)
        if (holding[i])
            idf[i] = std::log(double(images) / double(holding[i]));
    return idf;
}

std::vector<std::vector<double>> weightedHistograms(const WordTable& table,
                                                    BowWeighting weighting) {
    const std::vector<double> idf =
        weighting == BowWeighting::TfIdf ? inverseDocumentFrequency(table) : std::vector<double>();
    std::vector<std::vector<double>> out;
    out.reserve(table.images.size());
    for (const ImageWords& image : table.images) {
        std::vector<double>& w = out.emplace_back();
        if (!image.error.empty())
            continue;
        w.assign(image.counts.begin(), image.counts.end());
        double scale = 1;
        if (weighting == BowWeighting::L1 || weighting == BowWeighting::TfIdf)
            scale = image.descriptors ? 1.0 / double(image.descriptors) : 0.0;
        if (weighting == BowWeighting::L2) {
            double sum = 0;
            for (double v : w)
                sum += v * v;
            scale = sum > 0 ? 1.0 / std::sqrt(sum) : 0.0;
        }
        for (std::size_t i = 0; i < w.size(); ++i) {
            w[i] *= scale;
            if (weighting == BowWeighting::TfIdf)
                w[i] *= idf[i];
        }
    }
    return out;
}

std::string wordsCsv(const WordTable& table, BowWeighting weighting) {
    std::vector<std::string> columns(kWordColumns, kWordColumns + kWordColumnCount);
    // append, not "w" + ...: GCC 12 at -O3 warns wrongly (-Wrestrict) on the latter.
    for (std::size_t i = 0; i < table.k; ++i)
        columns.push_back(std::string("w").append(std::to_string(i)));
    Table t(columns);
    const auto weights = weightedHistograms(table, weighting);
    for (std::size_t r = 0; r < table.images.size(); ++r) {
        const ImageWords& image = table.images[r];
        t.row()
            .add(image.file)
            .add(std::uint64_t(image.descriptors))
            .add(image.error.empty() ? std::string("ok") : image.error)
            .add(bowWeightingName(weighting));
        for (double v : weights[r])
            t.add(v);
    }
    return t.csv();
}

namespace {

/// A words table's header: its K (InputError naming `source` for another header, or a K other
/// than `k` when k != 0).
std::size_t wordsHeader(const std::vector<std::string>* header, const std::string& source,
                        std::size_t k) {
    if (!header || header->size() < kWordColumnCount ||
        !std::equal(kWordColumns, kWordColumns + kWordColumnCount, header->begin()))
        throw InputError(source + ": not a table of bow histograms (its header should begin "
                                  "file,descriptors,status,weighting)");
    const std::size_t words = header->size() - kWordColumnCount;
    if (k && words != k)
        throw InputError(source + ": " + std::to_string(words) + " words, the first table " +
                         std::to_string(k));
    return words;
}

/// One row of a words table, checked, added to `t`.
void addWordsRow(WordTable& t, const std::vector<std::string>& row, const std::string& source,
                 std::size_t line) {
    const std::string where = source + ": line " + std::to_string(line) + ": ";
    if (row.size() < kWordColumnCount)
        throw InputError(where + "fewer than " + std::to_string(kWordColumnCount) + " fields");
    ImageWords image;
    image.file = row[0];
    const auto descriptors = parseCount(row[1]);
    if (!descriptors)
        throw InputError(where + "'" + row[1] + "' is not a descriptor count");
    image.descriptors = std::size_t(*descriptors);
    if (row[2] != "ok") {
        image.error = row[2];
        t.images.push_back(std::move(image));
        return;
    }
    if (row[3] != "none")
        throw InputError(where + "weighted by " + row[3] +
                         ": merging needs the raw counts (write the shards with "
                         "--normalize none)");
    if (row.size() != kWordColumnCount + t.k)
        throw InputError(where + std::to_string(row.size() - kWordColumnCount) +
                         " counts, the header names " + std::to_string(t.k));
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < t.k; ++i) {
        const auto c = parseCount(row[kWordColumnCount + i]);
        if (!c)
            throw InputError(where + "'" + row[kWordColumnCount + i] + "' is not a whole count");
        image.counts.push_back(*c);
        // Checked: counts that wrap past 2^64 - 1 could add up to any descriptor count.
        if (__builtin_add_overflow(sum, *c, &sum))
            throw InputError(where + "w" + std::to_string(i) + ": '" + row[kWordColumnCount + i] +
                             "' takes the sum of the counts past 2^64 - 1");
    }
    if (sum != image.descriptors)
        throw InputError(where + "the counts add up to " + std::to_string(sum) + ", not the " +
                         std::to_string(image.descriptors) + " descriptors");
    t.images.push_back(std::move(image));
}

} // namespace

WordTable parseWordsCsv(const std::string& text, const std::string& source, std::size_t k) {
    const auto rows = parseCsv(text, source);
    WordTable t;
    t.k = wordsHeader(rows.empty() ? nullptr : &rows[0], source, k);
    for (std::size_t r = 1; r < rows.size(); ++r)
        addWordsRow(t, rows[r], source, r + 1);
    return t;
}

WordTable readWordsCsv(const std::string& path, std::size_t k) {
    CsvReader in(path, kTextFileLimit, "a table");
    std::vector<std::string> row;
    WordTable t;
    const bool any = in.next(row);
    t.k = wordsHeader(any ? &row : nullptr, path, k);
    while (in.next(row))
        addWordsRow(t, row, path, in.line());
    return t;
}

WordTable mergeWordTables(const std::vector<WordTable>& shards,
                          const std::vector<std::string>& sources) {
    WordTable merged;
    std::vector<std::vector<ImageWords>> rows;
    for (std::size_t s = 0; s < shards.size(); ++s) {
        if (s == 0)
            merged.k = shards[s].k;
        else if (shards[s].k != merged.k)
            throw InputError(sources[s] + ": " + std::to_string(shards[s].k) + " words, " +
                             sources[0] + " " + std::to_string(merged.k));
        rows.push_back(shards[s].images);
    }
    merged.images = mergeShardRows(rows, sources, [](const ImageWords& w) { return w.file; });
    return merged;
}

double cosineSimilarity(const std::vector<double>& a, const std::vector<double>& b) {
    double dot = 0, na = 0, nb = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        dot += a[i] * b[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    return na > 0 && nb > 0 ? dot / (std::sqrt(na) * std::sqrt(nb)) : 0.0;
}

std::vector<std::vector<Neighbour>> nearestImages(const std::vector<std::vector<double>>& weights,
                                                  std::size_t n) {
    const std::size_t images = weights.size();
    std::vector<std::vector<Neighbour>> out(images);
    auto usable = [&](std::size_t i) {
        return std::any_of(weights[i].begin(), weights[i].end(), [](double v) { return v != 0; });
    };
    forEachShare(images, 16, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t q = lo; q < hi; ++q) {
            if (!usable(q))
                continue;
            std::vector<Neighbour> all;
            for (std::size_t j = 0; j < images; ++j)
                if (j != q && usable(j))
                    all.push_back({j, cosineSimilarity(weights[q], weights[j])});
            const std::size_t keep = std::min(n, all.size());
            std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(keep), all.end(),
                              [](const Neighbour& a, const Neighbour& b) {
                                  return a.similarity > b.similarity ||
                                         (a.similarity == b.similarity && a.image < b.image);
                              });
            all.resize(keep);
            out[q] = std::move(all);
        }
    });
    return out;
}

void checkSimilaritySize(std::size_t images) {
    if (images <= kSimilarityMaxImages)
        return;
    const double cells = double(images) * double(images);
    // About 18 bytes a cell: "0.12345678901234567," at worst.
    throw UsageError("--similarity",
                     std::to_string(images) + " images make a matrix of " + numberText(cells) +
                         " cells (about " + roundedByteSize(std::uint64_t(cells * 18)) +
                         " of text); it is written for at most " +
                         std::to_string(kSimilarityMaxImages) +
                         " images (--nearest N lists each image's most similar ones)");
}

void writeSimilarityCsv(std::ostream& out, const WordTable& table,
                        const std::vector<std::vector<double>>& weights) {
    checkSimilaritySize(table.images.size());
    out << "file";
    for (const ImageWords& image : table.images)
        out << ',' << csvField(image.file);
    out << '\n';
    std::string row;
    for (std::size_t q = 0; q < table.images.size(); ++q) {
        row = csvField(table.images[q].file);
        for (std::size_t j = 0; j < table.images.size(); ++j)
            row.append(",").append(numberText(cosineSimilarity(weights[q], weights[j])));
        row += '\n';
        out << row;
    }
}

std::string similarityCsv(const WordTable& table, const std::vector<std::vector<double>>& weights) {
    std::ostringstream out;
    writeSimilarityCsv(out, table, weights);
    return out.str();
}

} // namespace histlab
