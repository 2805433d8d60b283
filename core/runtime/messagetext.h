#pragma once
// A value echoed in a message, made safe to print: one line, of a readable length, whatever a
// file name or an option held. Below report/ because every floor writes messages.
#include <cstddef>
#include <string>
#include <vector>

namespace histlab {

/// `text` with its control characters written as escapes ("\\n", "\\t", "\\r", "\\x1b"),
/// so that a file name holding a newline cannot split a message into two lines.
std::string printableText(const std::string& text);

/// `text` cut to about `most` bytes (at a UTF-8 character's start) with "..." where it is
/// longer: a value echoed in a message stays one readable line whatever was given.
std::string cappedText(const std::string& text, std::size_t most = 80);

/// Names as a message lists the choices: "a, b or c" ("a" alone, "" for none).
std::string choiceList(const std::vector<std::string>& names);

} // namespace histlab
