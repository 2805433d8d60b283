#pragma once
// Numbers in the text reports people read (histlab-cli's stdout): fixed digits, so that the
// columns of a table line up. Files use report/table.h's exact numbers instead.
#include "runtime/messagetext.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace histlab {

/// `value` with `digits` digits after the point ("12.3457").
std::string fixedText(double value, int digits);

/// GB/s with as many digits as it deserves: "4370", "12.5", "0.31".
std::string gbpsText(double gbps);

/// Counts as a row of 64 block characters, enough to recognise a histogram in a terminal (the
/// eighths U+2581 ... U+2588, a space for none): `counts` grouped into 64 columns of equal
/// width (fewer counts: each its own column).
std::string sparkline(const std::uint64_t* counts, std::size_t n);

/// A table for people to read: each column as wide as its widest cell, columns two spaces
/// apart, so a number of any size never runs into its neighbour (a noisy 0.0006 ms copy kernel
/// once made "% copy" eight digits wide). Text columns align left, numbers right; the last
/// column (status and reason) is never padded.
class TextTable {
public:
    enum class Align { Left, Right };
    struct Column {
        std::string header;
        Align align = Align::Right;
    };
    explicit TextTable(std::vector<Column> columns, std::string indent = "");
    /// One row; missing cells at the end are empty. `note`, when given, is a line of its own
    /// under the row, indented by four spaces.
    void add(std::vector<std::string> cells, std::string note = "");
    /// A row whose first cells are `cells` and whose rest is `text`, running free of the columns
    /// (a row that did not run: its reason instead of its figures).
    void addSpan(std::vector<std::string> cells, std::string text);
    std::string text() const;

private:
    struct Row {
        std::vector<std::string> cells;
        std::string span; ///< after `cells` instead of the remaining columns
        std::string note;
        bool spans = false;
    };
    std::vector<Column> m_columns;
    std::string m_indent;
    std::vector<Row> m_rows;
};

} // namespace histlab
