#include "report/text.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <utility>

namespace histlab {

std::string fixedText(double value, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << value;
    return s.str();
}

std::string gbpsText(double gbps) {
    return fixedText(gbps, gbps >= 100 ? 0 : gbps >= 10 ? 1 : 2);
}

std::string sparkline(const std::uint64_t* counts, std::size_t n) {
    static const char* blocks[] = {" ",      "\u2581", "\u2582", "\u2583", "\u2584",
                                   "\u2585", "\u2586", "\u2587", "\u2588"};
    const std::size_t columns = std::min<std::size_t>(64, n);
    std::vector<std::uint64_t> cols(columns, 0);
    for (std::size_t b = 0; b < n; ++b)
        cols[b * columns / n] += counts[b];
    const std::uint64_t top = cols.empty() ? 0 : *std::max_element(cols.begin(), cols.end());
    std::string s;
    for (std::uint64_t c : cols)
        s += blocks[top ? (c == 0 ? 0 : 1 + (c * 7) / top) : 0];
    return s;
}

TextTable::TextTable(std::vector<Column> columns, std::string indent)
    : m_columns(std::move(columns))
    , m_indent(std::move(indent)) {}

void TextTable::add(std::vector<std::string> cells, std::string note) {
    cells.resize(m_columns.size());
    m_rows.push_back({std::move(cells), "", std::move(note), false});
}

void TextTable::addSpan(std::vector<std::string> cells, std::string text) {
    if (cells.size() > m_columns.size())
        cells.resize(m_columns.size());
    m_rows.push_back({std::move(cells), std::move(text), "", true});
}

std::string TextTable::text() const {
    std::vector<std::size_t> widths;
    for (const Column& c : m_columns)
        widths.push_back(c.header.size());
    for (const Row& row : m_rows)
        for (std::size_t i = 0; i < row.cells.size(); ++i)
            widths[i] = std::max(widths[i], row.cells[i].size());
    std::string out;
    auto line = [&](const std::vector<std::string>& cells, const std::string* span) {
        std::string text = m_indent;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string& cell = cells[i];
            const std::size_t pad = widths[i] - cell.size();
            const bool last = i + 1 == m_columns.size();
            if (i > 0)
                text += "  ";
            if (m_columns[i].align == Align::Right)
                text.append(pad, ' ');
            text += cell;
            if (m_columns[i].align == Align::Left && !last)
                text.append(pad, ' ');
        }
        if (span) {
            while (!text.empty() && text.back() == ' ')
                text.pop_back();
            text += "  ";
            text += *span;
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out += text;
        out += '\n';
    };
    std::vector<std::string> headers;
    for (const Column& c : m_columns)
        headers.push_back(c.header);
    line(headers, nullptr);
    for (const Row& row : m_rows) {
        line(row.cells, row.spans ? &row.span : nullptr);
        if (!row.note.empty()) {
            out += m_indent;
            out += "    ";
            out += row.note;
            out += '\n';
        }
    }
    return out;
}

} // namespace histlab
