#include "report/table.h"

#include "runtime/errors.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace histlab {

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string q = "\"";
    for (char c : text)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::vector<std::vector<std::string>> parseCsv(const std::string& text, const std::string& source) {
    CsvReader reader(CsvReader::Text{text, source});
    std::vector<std::vector<std::string>> rows;
    for (std::vector<std::string> row; reader.next(row);)
        rows.push_back(std::move(row));
    return rows;
}

std::string numberText(double value) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0) // 2^53
        return std::to_string(static_cast<long long>(value));
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    if (ec != std::errc())
        throw std::logic_error("numberText: no room for a double");
    return std::string(buffer, end);
}

Table::Table(std::vector<std::string> columns)
    : m_columns(std::move(columns)) {}

Table& Table::row() {
    m_rows.emplace_back();
    return *this;
}

Table& Table::add(const std::string& text) {
    if (m_rows.empty())
        row();
    m_rows.back().push_back({text, std::nullopt});
    return *this;
}

Table& Table::add(const char* text) {
    return add(std::string(text));
}

Table& Table::add(double value) {
    add(numberText(value));
    m_rows.back().back().number = value;
    return *this;
}

Table& Table::add(std::int64_t value) {
    add(std::to_string(value));
    m_rows.back().back().number = double(value);
    return *this;
}

Table& Table::add(std::uint64_t value) {
    add(std::to_string(value));
    m_rows.back().back().number = double(value);
    return *this;
}

Table& Table::add(bool value) {
    return add(value ? "true" : "false");
}

Table& Table::skip() {
    return add(std::string());
}

int Table::column(const std::string& name) const {
    for (std::size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i] == name)
            return int(i);
    return -1;
}

std::string Table::csv() const {
    std::string out;
    auto line = [&](const auto& cells, auto text) {
        const std::size_t n = std::max(cells.size(), m_columns.size());
        for (std::size_t i = 0; i < n; ++i) {
            if (i)
                out += ',';
            if (i < cells.size())
                out += csvField(text(cells[i]));
        }
        out += '\n';
    };
    line(m_columns, [](const std::string& c) { return c; });
    for (const auto& r : m_rows)
        line(r, [](const TableCell& c) { return c.text; });
    return out;
}

std::optional<std::uint64_t> parseCount(const std::string& text) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

std::optional<double> parseFiniteNumber(const std::string& text) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

CsvReader::CsvReader(const std::string& path, std::uint64_t limit, const std::string& what)
    : m_in(std::in_place, path, limit, what)
    , m_source(path)
    , m_block(std::size_t(1) << 16, '\0') {}

CsvReader::CsvReader(Text text)
    : m_source(std::move(text.source))
    , m_block(std::move(text.text))
    , m_size(m_block.size()) {
    // A UTF-8 byte order mark (Windows editors write one) is no part of the first field.
    if (m_block.compare(0, 3, "\xEF\xBB\xBF") == 0)
        m_at = 3;
    m_started = true;
}

int CsvReader::get() {
    if (m_back >= 0) {
        const int c = m_back;
        m_back = -1;
        return c;
    }
    if (m_at == m_size) {
        if (!m_in)
            return -1;
        m_size = m_in->read(m_block.data(), m_block.size());
        m_at = 0;
        // A UTF-8 byte order mark at the start (as parseCsv skips it).
        if (!m_started && m_block.compare(0, 3, "\xEF\xBB\xBF") == 0 && m_size >= 3)
            m_at = 3;
        m_started = true;
        if (m_at == m_size)
            return -1;
    }
    return static_cast<unsigned char>(m_block[m_at++]);
}

bool CsvReader::next(std::vector<std::string>& row) {
    row.clear();
    std::string field;
    bool quoted = false, any = false;
    int c = get();
    m_rowLine = m_line;
    for (; c >= 0; c = get()) {
        if (quoted) {
            if (c == '"') {
                const int n = get();
                if (n == '"') {
                    field += '"';
                    continue;
                }
                quoted = false;
                if (n < 0)
                    break;
                c = n; // the byte after the closing quote, read below as unquoted
            } else {
                m_line += c == '\n';
                field += char(c);
                continue;
            }
        }
        if (c == '"') {
            quoted = any = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
            any = true;
        } else if (c == '\n') {
            ++m_line;
            if (any || !row.empty()) {
                row.push_back(std::move(field));
                return true;
            }
            m_rowLine = m_line; // a blank line is no row
        } else if (c == '\r') {
            // CRLF ends a line as LF does; a lone CR is text, as parseCsv keeps it.
            const int n = get();
            if (n != '\n') {
                field += '\r';
                any = true;
            }
            m_back = n;
        } else {
            field += char(c);
            any = true;
        }
    }
    if (quoted)
        throw InputError(path() + ": line " + std::to_string(m_line) +
                         ": a quoted field is never closed");
    if (any || !row.empty()) {
        row.push_back(std::move(field));
        return true;
    }
    return false;
}

} // namespace histlab
