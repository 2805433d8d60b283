#pragma once
// One table type for every result a pipeline reports: the rows its CSV holds (histlab-cli --csv,
// the window's Save CSV…), and what a generic view shows. Cells are text or numbers; numbers
// are written exactly (the shortest text that reads back as the same double, integers as
// integers), so no figure is rounded on its way to a file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// A CSV field: as it is, or quoted (with doubled quotes) when it holds a comma, quote or line
/// break.
std::string csvField(const std::string& text);

/// The rows of CSV text (RFC 4180: quoted fields with doubled quotes and line breaks inside,
/// CRLF or LF line ends); a final line break ends the last row, blank lines are no rows. Throws
/// InputError naming `source` for a quote that is never closed.
std::vector<std::vector<std::string>> parseCsv(const std::string& text, const std::string& source);

/// A CSV cell that is a count: a whole number of 0 or more, nothing else in the cell; nullopt
/// otherwise (the caller names the file and line).
std::optional<std::uint64_t> parseCount(const std::string& text);

/// A number as text: integers without a decimal point, other values in the shortest form that
/// reads back as the same double ("0.1", "1e-07"); "nan", "inf" and "-inf" as such.
std::string numberText(double value);

struct TableCell {
    std::string text;
    std::optional<double> number; ///< set when the cell is a number (text is its numberText)
};

class Table {
public:
    Table() = default;
    explicit Table(std::vector<std::string> columns);

    /// Starts a new row; the cells that follow fill it from the left.
    Table& row();
    Table& add(const std::string& text);
    Table& add(const char* text);
    Table& add(double value);
    Table& add(std::int64_t value);
    Table& add(std::uint64_t value);
    Table& add(int value) { return add(std::int64_t(value)); }
    Table& add(unsigned value) { return add(std::uint64_t(value)); }
    Table& add(unsigned long long value) { return add(std::uint64_t(value)); }
    Table& add(bool value);
    /// An empty cell (a value that does not apply to this row).
    Table& skip();

    const std::vector<std::string>& columns() const { return m_columns; }
    const std::vector<std::vector<TableCell>>& rows() const { return m_rows; }
    /// The index of a column, or -1.
    int column(const std::string& name) const;

    /// The header and every row, comma-separated, one line each ("\n"); short rows are padded
    /// with empty fields.
    std::string csv() const;

private:
    std::vector<std::string> m_columns;
    std::vector<std::vector<TableCell>> m_rows;
};

} // namespace histlab
