#pragma once
// One table type for every result a pipeline reports: the rows its CSV holds (histlab-cli --csv,
// the window's Save CSV…), and what a generic view shows. Cells are text or numbers; numbers
// are written exactly (the shortest text that reads back as the same double, integers as
// integers), so no figure is rounded on its way to a file.
#include "report/files.h"

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

/// A CSV cell that is a finite number as numberText writes it (decimal or exponent notation,
/// nothing else in the cell); nullopt for text, "nan", "inf", a value beyond the range of a
/// double ("1e999") or anything after the number (the caller names the file and line).
std::optional<double> parseFiniteNumber(const std::string& text);

/// parseCsv's rules over a file read a block at a time and handed out a row at a time, so a
/// table of any length is never held whole (InputFile's checks and size cap first). A UTF-8
/// byte order mark at its start is skipped.
class CsvReader {
public:
    explicit CsvReader(const std::string& path, std::uint64_t limit = kTextFileLimit,
                       const std::string& what = "a table");
    /// The same rules over text already in memory; `source` names it in errors.
    struct Text {
        std::string text, source;
    };
    explicit CsvReader(Text text);
    /// The next row into `row`; false at the end. InputError for a quote never closed.
    bool next(std::vector<std::string>& row);
    /// The line the row last returned began on (1 for the first line).
    std::size_t line() const { return m_rowLine; }
    const std::string& path() const { return m_source; }

private:
    int get();                     // the next byte, -1 at the end
    std::optional<InputFile> m_in; // none: the text is all in m_block
    std::string m_source;
    std::string m_block;
    std::size_t m_at = 0, m_size = 0, m_line = 1, m_rowLine = 0;
    int m_back = -1; // a byte read ahead and given back
    bool m_started = false;
};

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
