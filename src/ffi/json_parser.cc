// SPDX-License-Identifier: Apache-2.0
// json_parser.cc: json::Parse and the ffi.json.Parse global.
//
// Objects become Map<Any, Any> with String keys (a repeated key keeps its first position and its
// last value), arrays Array<Any>, integers that fit int64 int64, other numbers double (an integer
// past the double range is an error naming it), and true/false/null bool and None. Beyond
// RFC 8259 it accepts NaN, Infinity and -Infinity, and the lenient number forms +1, 01, .5 and 1.
// (decimal, never hex). String bytes other than escapes and control characters are copied as
// they are (no UTF-8 validation); \u escapes must pair surrogates. Whitespace is space, tab, CR
// and LF. Nesting is walked with an explicit stack, so any depth parses. Errors read "<what>:
// line L column C (char P)", P being the byte offset. Every 64Ki values the parser polls
// TVMFFIEnvCheckSignals, so Ctrl-C stops a long parse.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace json {
namespace {

/// The first error met while parsing: what went wrong and the byte offset where.
struct ParseError {
  const char* what = nullptr;
  size_t pos = 0;
};

/// A container whose elements are still being read.
struct OpenParsedContainer {
  bool is_object;
  std::vector<Any> items;  // array elements, or object keys and values alternating
};

bool IsJSONSpace(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

bool IsNumberChar(char ch) {
  return (ch >= '0' && ch <= '9') || ch == '+' || ch == '-' || ch == '.' || ch == 'e' || ch == 'E';
}

int HexDigitValue(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

void AppendUTF8(uint32_t code, std::string* out) {
  if (code < 0x80) {
    *out += static_cast<char>(code);
  } else if (code < 0x800) {
    *out += static_cast<char>(0xC0 | (code >> 6));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    *out += static_cast<char>(0xE0 | (code >> 12));
    *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (code >> 18));
    *out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

/// Whether `run` (sign, digits, '.', exponent) is a whole decimal number: [+-]? mantissa with
/// at least one digit and at most one '.', then optionally [eE][+-]?digits.
bool IsDecimalNumber(std::string_view run) {
  size_t i = 0;
  auto skip_digits = [&]() {
    size_t start = i;
    while (i < run.size() && run[i] >= '0' && run[i] <= '9') ++i;
    return i - start;
  };
  if (i < run.size() && (run[i] == '+' || run[i] == '-')) ++i;
  size_t mantissa_digits = skip_digits();
  if (i < run.size() && run[i] == '.') {
    ++i;
    mantissa_digits += skip_digits();
  }
  if (mantissa_digits == 0) return false;
  if (i < run.size() && (run[i] == 'e' || run[i] == 'E')) {
    ++i;
    if (i < run.size() && (run[i] == '+' || run[i] == '-')) ++i;
    if (skip_digits() == 0) return false;
  }
  return i == run.size();
}

/// A recursive-descent reader over one text, turned into a loop over an explicit stack.
class JSONParser {
 public:
  explicit JSONParser(std::string_view text) : text_(text) {}

  /// Parses the whole text into *out; false (see ErrorMessage()) when it is malformed.
  bool Parse(Any* out) {
    if (!ParseNested(out)) return false;
    SkipSpace();
    if (pos_ != text_.size()) return Fail("Extra data", pos_);
    return true;
  }

  /// The error as "<what>: line L column C (char P)".
  std::string ErrorMessage() const {
    size_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < error_.pos && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return std::string(error_.what) + ": line " + std::to_string(line) + " column " +
           std::to_string(error_.pos - line_start + 1) + " (char " + std::to_string(error_.pos) +
           ")";
  }

 private:
  bool Fail(const char* what, size_t pos) {
    error_ = ParseError{what, pos};
    return false;
  }

  void SkipSpace() {
    while (pos_ < text_.size() && IsJSONSpace(text_[pos_])) ++pos_;
  }

  bool AtEnd() const { return pos_ >= text_.size(); }

  /// Lets the frontend handle pending signals (Ctrl-C) once every kSignalPollInterval values;
  /// a handler's error ends the parse.
  void PollSignals() {
    if (++values_since_poll_ < kSignalPollInterval) return;
    values_since_poll_ = 0;
    if (TVMFFIEnvCheckSignals() != 0) throw EnvErrorAlreadySet();
  }

  /// Parses one value with any nesting. Each open container waits on `stack`; a finished value
  /// is handed to the innermost one, which then reads a separator or its closing bracket.
  bool ParseNested(Any* out) {
    std::vector<OpenParsedContainer> stack;
    Any value;
    while (true) {
      PollSignals();
      if (!ParseValueOrOpen(&stack, &value)) return false;
      // `value` is complete: give it to the open containers until one wants another element.
      while (true) {
        if (stack.empty()) {
          *out = std::move(value);
          return true;
        }
        bool wants_more = false;
        if (!AddToContainer(&stack.back(), std::move(value), &wants_more)) return false;
        if (wants_more) break;
        value = CloseContainer(&stack.back());
        stack.pop_back();
      }
    }
  }

  /// Reads a scalar into *value, or opens containers until one is empty (then *value is it) or
  /// a scalar is read. Leaves the text positioned after the value.
  bool ParseValueOrOpen(std::vector<OpenParsedContainer>* stack, Any* value) {
    while (true) {
      SkipSpace();
      if (AtEnd()) return Fail("Expecting value", pos_);
      char ch = text_[pos_];
      if (ch == '[') {
        ++pos_;
        stack->push_back(OpenParsedContainer{false, {}});
        SkipSpace();
        if (!AtEnd() && text_[pos_] == ']') {
          ++pos_;
          *value = CloseContainer(&stack->back());
          stack->pop_back();
          return true;
        }
      } else if (ch == '{') {
        ++pos_;
        stack->push_back(OpenParsedContainer{true, {}});
        SkipSpace();
        if (!AtEnd() && text_[pos_] == '}') {
          ++pos_;
          *value = CloseContainer(&stack->back());
          stack->pop_back();
          return true;
        }
        if (!ParseKey(&stack->back())) return false;
      } else {
        return ParseScalar(value);
      }
    }
  }

  /// Reads `"key" :` of an object member.
  bool ParseKey(OpenParsedContainer* object) {
    SkipSpace();
    if (AtEnd() || text_[pos_] != '"') {
      return Fail("Expecting property name enclosed in double quotes", pos_);
    }
    String key;
    if (!ParseString(&key)) return false;
    object->items.emplace_back(std::move(key));
    SkipSpace();
    if (AtEnd() || text_[pos_] != ':') return Fail("Expecting ':' delimiter", pos_);
    ++pos_;
    return true;
  }

  /// Stores a finished element, then reads ',' (*wants_more, after the next key for objects)
  /// or the closing bracket.
  bool AddToContainer(OpenParsedContainer* container, Any value, bool* wants_more) {
    container->items.push_back(std::move(value));
    SkipSpace();
    char close = container->is_object ? '}' : ']';
    if (!AtEnd() && text_[pos_] == close) {
      ++pos_;
      *wants_more = false;
      return true;
    }
    if (AtEnd() || text_[pos_] != ',') return Fail("Expecting ',' delimiter", pos_);
    ++pos_;
    SkipSpace();
    if (AtEnd()) return Fail("Syntax error near", pos_);
    *wants_more = true;
    return container->is_object ? ParseKey(container) : true;
  }

  static Any CloseContainer(OpenParsedContainer* container) {
    const std::vector<Any>& items = container->items;
    if (!container->is_object) return json::Array(items.begin(), items.end());
    json::Object object;
    for (size_t i = 0; i + 1 < items.size(); i += 2) object.Set(items[i], items[i + 1]);
    return object;
  }

  bool ParseScalar(Any* value) {
    char ch = text_[pos_];
    if (ch == '"') {
      String str;
      if (!ParseString(&str)) return false;
      *value = std::move(str);
      return true;
    }
    if (ConsumeWord("true")) return SetValue(value, true);
    if (ConsumeWord("false")) return SetValue(value, false);
    if (ConsumeWord("null")) return SetValue(value, nullptr);
    if (ConsumeWord("NaN")) return SetValue(value, std::numeric_limits<double>::quiet_NaN());
    if (ConsumeWord("Infinity")) return SetValue(value, std::numeric_limits<double>::infinity());
    if (ConsumeWord("-Infinity")) {
      return SetValue(value, -std::numeric_limits<double>::infinity());
    }
    return ParseNumber(value);
  }

  template <typename T>
  static bool SetValue(Any* value, T v) {
    *value = v;
    return true;
  }

  bool ConsumeWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  /// Reads the longest run of number characters; it must be one whole number. Integers that
  /// fit int64 stay integers, larger ones become the nearest double (as Apache's parser does)
  /// and are an error past the double range; other numbers must be finite, nonzero unless
  /// written as zero.
  bool ParseNumber(Any* value) {
    size_t start = pos_;
    size_t end = start;
    while (end < text_.size() && IsNumberChar(text_[end])) ++end;
    std::string_view run = text_.substr(start, end - start);
    if (!IsDecimalNumber(run)) return Fail("Expecting value", start);
    // from_chars takes neither a leading '+' nor (for integers) anything after the digits.
    std::string_view unsigned_run = run[0] == '+' ? run.substr(1) : run;
    const char* first = unsigned_run.data();
    const char* last = first + unsigned_run.size();
    bool is_integer = unsigned_run.find_first_of(".eE") == std::string_view::npos;
    if (is_integer) {
      int64_t int_value = 0;
      std::from_chars_result res = std::from_chars(first, last, int_value);
      if (res.ec == std::errc() && res.ptr == last) {
        pos_ = end;
        *value = int_value;
        return true;
      }
    }
    double double_value = 0;
    std::from_chars_result res = std::from_chars(first, last, double_value);
    if (res.ec == std::errc::result_out_of_range && is_integer) {
      return Fail("Integer out of range (beyond int64 and the double range)", start);
    }
    if (res.ec != std::errc() || res.ptr != last) return Fail("Expecting value", start);
    pos_ = end;
    *value = double_value;
    return true;
  }

  /// Reads a string literal starting at its opening quote.
  bool ParseString(String* out) {
    size_t open_quote = pos_++;
    std::string buffer;
    while (true) {
      size_t run_start = pos_;
      while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\' &&
             static_cast<unsigned char>(text_[pos_]) >= 0x20) {
        ++pos_;
      }
      buffer.append(text_.data() + run_start, pos_ - run_start);
      if (AtEnd()) return Fail("Unterminated string starting at", open_quote);
      char ch = text_[pos_];
      if (ch == '"') break;
      if (ch != '\\') return Fail("Invalid control character at", pos_);
      ++pos_;
      if (!ParseEscape(&buffer)) return false;
    }
    ++pos_;
    *out = String(buffer.data(), buffer.size());  // a short one stays inline, as Apache's
    return true;
  }

  /// Reads the escape after a backslash (pos_ at its letter).
  bool ParseEscape(std::string* buffer) {
    if (AtEnd()) return Fail("Invalid \\escape", pos_);
    char ch = text_[pos_];
    const char* kSimple = "\"\\/bfnrt";
    const char* kDecoded = "\"\\/\b\f\n\r\t";
    for (int i = 0; kSimple[i] != '\0'; ++i) {
      if (ch == kSimple[i]) {
        *buffer += kDecoded[i];
        ++pos_;
        return true;
      }
    }
    if (ch != 'u') return Fail("Invalid \\escape", pos_);
    return ParseUnicodeEscape(buffer);
  }

  /// Reads \uXXXX (pos_ at the 'u'), or a \uXXXX\uXXXX surrogate pair.
  bool ParseUnicodeEscape(std::string* buffer) {
    size_t first_u = pos_;
    int32_t code = ReadHex4(first_u + 1);
    if (code < 0) return Fail("Invalid \\uXXXX escape", first_u);
    pos_ = first_u + 5;
    if (code >= 0xDC00 && code <= 0xDFFF) {
      return Fail("Invalid surrogate pair of \\uXXXX escapes", first_u);
    }
    if (code >= 0xD800 && code <= 0xDBFF) {
      if (text_.substr(pos_, 2) != std::string_view("\\u")) {
        return Fail("Invalid surrogate pair of \\uXXXX escapes", first_u);
      }
      size_t low_digits = pos_ + 2;
      int32_t low = ReadHex4(low_digits);
      if (low < 0) return Fail("Invalid \\uXXXX escape", low_digits);
      if (low < 0xDC00 || low > 0xDFFF) {
        return Fail("Invalid surrogate pair of \\uXXXX escapes", low_digits);
      }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
      pos_ = low_digits + 4;
    }
    AppendUTF8(static_cast<uint32_t>(code), buffer);
    return true;
  }

  /// The value of four hex digits at `at`, or -1.
  int32_t ReadHex4(size_t at) const {
    if (at + 4 > text_.size()) return -1;
    int32_t code = 0;
    for (size_t i = at; i < at + 4; ++i) {
      int digit = HexDigitValue(text_[i]);
      if (digit < 0) return -1;
      code = code * 16 + digit;
    }
    return code;
  }

  static constexpr size_t kSignalPollInterval = size_t{1} << 16;

  std::string_view text_;
  size_t pos_ = 0;
  size_t values_since_poll_ = 0;
  ParseError error_;
};

}  // namespace

json::Value Parse(const String& json_str, String* error_msg) {
  JSONParser parser(std::string_view(json_str.data(), json_str.size()));
  Any result;
  if (parser.Parse(&result)) {
    if (error_msg != nullptr) *error_msg = String();
    return result;
  }
  if (error_msg == nullptr) TVM_FFI_THROW(ValueError) << parser.ErrorMessage();
  *error_msg = String(parser.ErrorMessage());
  return json::Value();
}

}  // namespace json

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def(
      "ffi.json.Parse", [](const String& json_str) { return json::Parse(json_str); },
      "Parses JSON text into FFI values; ValueError (with line and column) on malformed text");
}

}  // namespace ffi
}  // namespace tvm
