#include "report/legacyjson.h"

#include "report/report.h"
#include "runtime/errors.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace histlab {

namespace {

const char* typeName(const JsonValue& v) {
    if (v.isNull())
        return "null";
    if (v.isBool())
        return "a boolean";
    if (v.isNumber())
        return "a number";
    if (v.isString())
        return "a string";
    if (v.isArray())
        return "an array";
    return "an object";
}

[[noreturn]] void wrongType(const JsonValue& v, const char* wanted) {
    throw InputError(std::string("JSON: expected ") + wanted + ", found " + typeName(v));
}

class Parser {
public:
    explicit Parser(const std::string& text)
        : m_text(text) {}

    JsonValue document() {
        JsonValue v = value(0);
        skipSpace();
        if (m_pos != m_text.size())
            fail("unexpected text after the document");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < m_pos && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw InputError("JSON: " + what + " at line " + std::to_string(line) + ", column " +
                         std::to_string(column));
    }

    void skipSpace() {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' ||
                                         m_text[m_pos] == '\r' || m_text[m_pos] == '\t'))
            ++m_pos;
    }

    bool take(const char* word) {
        const std::string w(word);
        if (m_text.compare(m_pos, w.size(), w) != 0)
            return false;
        m_pos += w.size();
        return true;
    }

    JsonValue value(int depth) {
        if (depth > 200)
            fail("nesting too deep");
        skipSpace();
        if (m_pos >= m_text.size())
            fail("unexpected end of the document");
        const char c = m_text[m_pos];
        if (c == '{')
            return object(depth);
        if (c == '[')
            return array(depth);
        if (c == '"')
            return JsonValue(string());
        if (take("true"))
            return JsonValue(true);
        if (take("false"))
            return JsonValue(false);
        if (take("null"))
            return JsonValue();
        if (c == '-' || (c >= '0' && c <= '9'))
            return JsonValue(number());
        fail(std::string("unexpected character '") + c + "'");
    }

    JsonValue object(int depth) {
        ++m_pos; // {
        JsonValue::Object members;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return JsonValue(std::move(members));
        }
        for (;;) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                fail("expected a member name");
            std::string key = string();
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':')
                fail("expected ':' after \"" + key + "\"");
            ++m_pos;
            members[key] = value(depth + 1);
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                ++m_pos;
                return JsonValue(std::move(members));
            }
            fail("expected ',' or '}' in an object");
        }
    }

    JsonValue array(int depth) {
        ++m_pos; // [
        JsonValue::Array items;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return JsonValue(std::move(items));
        }
        for (;;) {
            items.push_back(value(depth + 1));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                ++m_pos;
                return JsonValue(std::move(items));
            }
            fail("expected ',' or ']' in an array");
        }
    }

    static void appendUtf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }

    std::string string() {
        ++m_pos; // "
        std::string out;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size())
                break;
            const char e = m_text[m_pos++];
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out += e;
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                if (m_pos + 4 > m_text.size())
                    fail("short \\u escape");
                char* end = nullptr;
                const std::string hex = m_text.substr(m_pos, 4);
                const unsigned long cp = std::strtoul(hex.c_str(), &end, 16);
                if (end != hex.c_str() + 4)
                    fail("bad \\u escape");
                m_pos += 4;
                appendUtf8(out, unsigned(cp));
                break;
            }
            default:
                fail(std::string("bad escape '\\") + e + "'");
            }
        }
        fail("unterminated string");
    }

    double number() {
        const std::size_t start = m_pos;
        if (m_text[m_pos] == '-')
            ++m_pos;
        auto digits = [&] {
            const std::size_t from = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
                ++m_pos;
            return m_pos > from;
        };
        if (!digits())
            fail("bad number");
        if (m_pos < m_text.size() && m_text[m_pos] == '.') {
            ++m_pos;
            if (!digits())
                fail("bad number");
        }
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-'))
                ++m_pos;
            if (!digits())
                fail("bad number");
        }
        return std::strtod(m_text.substr(start, m_pos - start).c_str(), nullptr);
    }

    const std::string& m_text;
    std::size_t m_pos = 0;
};

} // namespace

bool JsonValue::asBool() const {
    if (!isBool())
        wrongType(*this, "a boolean");
    return std::get<bool>(m_value);
}

double JsonValue::asNumber() const {
    if (!isNumber())
        wrongType(*this, "a number");
    return std::get<double>(m_value);
}

const std::string& JsonValue::asString() const {
    if (!isString())
        wrongType(*this, "a string");
    return std::get<std::string>(m_value);
}

const JsonValue::Array& JsonValue::asArray() const {
    if (!isArray())
        wrongType(*this, "an array");
    return std::get<Array>(m_value);
}

const JsonValue::Object& JsonValue::asObject() const {
    if (!isObject())
        wrongType(*this, "an object");
    return std::get<Object>(m_value);
}

const JsonValue* JsonValue::find(const std::string& key) const {
    if (!isObject())
        return nullptr;
    const Object& o = std::get<Object>(m_value);
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &it->second;
}

const JsonValue& JsonValue::at(const std::string& key) const {
    const Object& o = asObject();
    const auto it = o.find(key);
    if (it == o.end())
        throw InputError("JSON: missing \"" + key + "\"");
    return it->second;
}

std::string JsonValue::dump() const {
    if (isNull())
        return "null";
    if (isBool())
        return asBool() ? "true" : "false";
    if (isNumber()) {
        const double d = asNumber();
        if (!std::isfinite(d))
            return "null";
        char buf[32];
        // Whole numbers below 2^53 (exact in a double) as integers: 1310720, not 1.31072e+06.
        if (d == std::floor(d) && std::fabs(d) < 9007199254740992.0) {
            std::snprintf(buf, sizeof buf, "%.0f", d);
            return buf;
        }
        std::snprintf(buf, sizeof buf, "%.17g", d);
        // The shortest text that reads back the same.
        for (int precision = 1; precision <= 17; ++precision) {
            char shorter[32];
            std::snprintf(shorter, sizeof shorter, "%.*g", precision, d);
            if (std::strtod(shorter, nullptr) == d)
                return shorter;
        }
        return buf;
    }
    if (isString())
        return jsonString(asString());
    std::string out;
    if (isArray()) {
        out = "[";
        for (const JsonValue& v : asArray()) {
            if (out.size() > 1)
                out += ',';
            out += v.dump();
        }
        return out + "]";
    }
    out = "{";
    for (const auto& [k, v] : asObject()) {
        if (out.size() > 1)
            out += ',';
        out += jsonString(k) + ":" + v.dump();
    }
    return out + "}";
}

JsonValue parseJson(const std::string& text) {
    return Parser(text).document();
}

} // namespace histlab
