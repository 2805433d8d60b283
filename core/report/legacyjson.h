#pragma once
// The hand-written JSON value this project used before nlohmann-json (report/json.h). Being
// replaced: each pipeline moves to report/json.h, and this file goes when none uses it.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace histlab {

class JsonValue {
public:
    using Array = std::vector<JsonValue>;
    using Object = std::map<std::string, JsonValue>;

    JsonValue() = default; // null
    JsonValue(std::nullptr_t) {}
    JsonValue(bool b)
        : m_value(b) {}
    JsonValue(double d)
        : m_value(d) {}
    JsonValue(int i)
        : m_value(double(i)) {}
    JsonValue(std::int64_t i)
        : m_value(double(i)) {}
    JsonValue(std::uint64_t i)
        : m_value(double(i)) {}
    JsonValue(const char* s)
        : m_value(std::string(s)) {}
    JsonValue(std::string s)
        : m_value(std::move(s)) {}
    JsonValue(Array a)
        : m_value(std::move(a)) {}
    JsonValue(Object o)
        : m_value(std::move(o)) {}

    bool isNull() const { return std::holds_alternative<std::monostate>(m_value); }
    bool isBool() const { return std::holds_alternative<bool>(m_value); }
    bool isNumber() const { return std::holds_alternative<double>(m_value); }
    bool isString() const { return std::holds_alternative<std::string>(m_value); }
    bool isArray() const { return std::holds_alternative<Array>(m_value); }
    bool isObject() const { return std::holds_alternative<Object>(m_value); }

    /// The value as that type; throws InputError("expected a number ...") when it is not.
    bool asBool() const;
    double asNumber() const;
    const std::string& asString() const;
    const Array& asArray() const;
    const Object& asObject() const;

    /// Member `key` of an object; throws InputError naming the key when it is missing.
    const JsonValue& at(const std::string& key) const;
    /// Member `key`, or nullptr when missing (or when this is not an object).
    const JsonValue* find(const std::string& key) const;

    /// Compact text (objects' keys sorted), numbers with up to 17 significant digits.
    std::string dump() const;

private:
    std::variant<std::monostate, bool, double, std::string, Array, Object> m_value;
};

/// Parses a whole document; throws InputError("JSON: <what> at line L, column C").
JsonValue parseJson(const std::string& text);

} // namespace histlab
