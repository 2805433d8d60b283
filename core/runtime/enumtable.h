#pragma once
// An enum's names written once: each value's name, each name's value, the list of choices and
// the message that refuses any other name all come from one table, so that they cannot drift
// apart (they once listed choices a parser did not take).
#include "runtime/errors.h"
#include "runtime/messagetext.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace histlab {

template <class E> class EnumTable {
public:
    struct Entry {
        E value;
        const char* name;
        bool alias = false; ///< accepted, but neither listed nor written ("private" for "cpu")
    };

    /// `option` is what a wrong name is refused under ("--border"), `what` what a name names,
    /// with its article ("a border mode"); `others`, names the option takes that its caller
    /// handles before parse() ("all"), are listed in the message after the table's.
    EnumTable(const char* option, const char* what, std::initializer_list<Entry> entries,
              std::initializer_list<const char*> others = {})
        : m_option(option)
        , m_what(what)
        , m_entries(entries)
        , m_others(others) {}

    /// The value's name ("?" for a value the table lacks).
    const char* name(E value) const {
        for (const Entry& e : m_entries)
            if (e.value == value && !e.alias)
                return e.name;
        return "?";
    }

    /// The value named `text`; UsageError(option): "'TEXT' is not WHAT (a, b or c)".
    E parse(const std::string& text) const {
        for (const Entry& e : m_entries)
            if (text == e.name)
                return e.value;
        std::vector<std::string> choices = names();
        choices.insert(choices.end(), m_others.begin(), m_others.end());
        throw UsageError(m_option, "'" + cappedText(printableText(text)) + "' is not " + m_what +
                                       " (" + choiceList(choices) + ")");
    }

    /// Every name but the aliases, in the table's order.
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const Entry& e : m_entries)
            if (!e.alias)
                out.emplace_back(e.name);
        return out;
    }

    /// Every value, once, in the table's order.
    std::vector<E> values() const {
        std::vector<E> out;
        for (const Entry& e : m_entries)
            if (!e.alias)
                out.push_back(e.value);
        return out;
    }

private:
    const char* m_option;
    const char* m_what;
    std::vector<Entry> m_entries;
    std::vector<const char*> m_others;
};

} // namespace histlab
