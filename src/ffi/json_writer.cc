// SPDX-License-Identifier: Apache-2.0
// json_writer.cc: json::Stringify and the ffi.json.Stringify global.
//
// Writes None, bool, int, float, strings, Array/List (as arrays) and Map/Dict with string keys
// (as objects). Compact output uses "," and ":" alone; with indent N > 0 every element goes on
// its own line, N spaces deeper than its container, and members read "key": value (an empty
// container prints as "[" newline "]"). Indent 0 is compact; a negative indent breaks lines
// without indenting. Floats use the shortest digits that read back the same, in fixed notation
// with ".0" for whole numbers when 1e-4 <= |x| < 1e16 and d.ddde+XX otherwise; NaN, Infinity and
// -Infinity name the special values. Strings escape '"', '\', '/', control characters and DEL;
// other bytes (UTF-8 included) are copied. Containers are walked with an explicit stack, so any
// depth prints; a List or Dict that contains itself is an error. The line breaks and indentation
// of an indented output may take at most 1 GiB: a first walk adds them up without writing and
// raises ValueError past that. Both walks poll TVMFFIEnvCheckSignals every 64Ki elements.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace json {
namespace {

/// A finite double as its shortest round-tripping digits d1 d2 ... and the decimal exponent of
/// d1: value = (-1)^negative * d1.d2... * 10^exponent.
struct ShortestDecimal {
  bool negative;
  std::string digits;
  int exponent;
};

ShortestDecimal ToShortestDecimal(double value) {
  char buf[64];
  std::to_chars_result res =
      std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  std::string_view text(buf, static_cast<size_t>(res.ptr - buf));  // [-]d[.ddd]e[+-]dd
  size_t e_pos = text.find('e');
  ShortestDecimal decimal{text[0] == '-', "", 0};
  for (char ch : text.substr(0, e_pos)) {
    if (ch >= '0' && ch <= '9') decimal.digits += ch;
  }
  std::string_view exponent = text.substr(e_pos + 1);
  if (exponent[0] == '+') exponent.remove_prefix(1);
  std::from_chars(exponent.data(), exponent.data() + exponent.size(), decimal.exponent);
  return decimal;
}

/// Fixed notation, with ".0" for whole numbers: 100.0, 0.0001, 1.5.
std::string FixedNotation(const ShortestDecimal& decimal) {
  const std::string& digits = decimal.digits;
  std::string sign = decimal.negative ? "-" : "";
  if (decimal.exponent < 0)
    return sign + "0." + std::string(static_cast<size_t>(-decimal.exponent - 1), '0') + digits;
  size_t int_digits = static_cast<size_t>(decimal.exponent) + 1;
  if (digits.size() <= int_digits) {
    return sign + digits + std::string(int_digits - digits.size(), '0') + ".0";
  }
  return sign + digits.substr(0, int_digits) + "." + digits.substr(int_digits);
}

/// Scientific notation with a signed exponent of at least two digits: 1e+16, -2.5e-10.
std::string ScientificNotation(const ShortestDecimal& decimal) {
  std::string out = decimal.negative ? "-" : "";
  out += decimal.digits.substr(0, 1);
  if (decimal.digits.size() > 1) out += "." + decimal.digits.substr(1);
  std::string exponent = std::to_string(std::abs(decimal.exponent));
  if (exponent.size() < 2) exponent = "0" + exponent;
  return out + (decimal.exponent < 0 ? "e-" : "e+") + exponent;
}

/// The shortest round-tripping text of a double, laid out like Python's repr (fixed notation
/// for exponents -4 to 15); NaN, Infinity and -Infinity for the special values.
std::string FormatDouble(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  ShortestDecimal decimal = ToShortestDecimal(value);
  bool fixed = decimal.exponent >= -4 && decimal.exponent < 16;
  return fixed ? FixedNotation(decimal) : ScientificNotation(decimal);
}

/// Appends `text` as a JSON string literal.
void AppendQuoted(std::string_view text, std::string* out) {
  *out += '"';
  for (char ch : text) {
    unsigned char byte = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '/':
        *out += "\\/";
        break;
      case '\b':
        *out += "\\b";
        break;
      case '\f':
        *out += "\\f";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          const char* kHex = "0123456789abcdef";
          *out += "\\u00";
          *out += kHex[byte >> 4];
          *out += kHex[byte & 0xf];
        } else {
          *out += ch;
        }
    }
  }
  *out += '"';
}

/// The characters of a string value, or nullopt when `value` is not a string.
std::optional<std::string_view> StringViewOf(const Any& value) {
  const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
  if (cell->type_index == TypeIndex::kTVMFFISmallStr) {
    return std::string_view(cell->v_bytes, cell->small_str_len);
  }
  if (cell->type_index == TypeIndex::kTVMFFIStr) {
    const StringObj* str = value.as<StringObj>();
    return std::string_view(str->data, str->size);
  }
  return std::nullopt;
}

/// A container whose elements are being written: `next` is the next element's index (arrays)
/// or map iterator position (objects).
struct OpenWrittenContainer {
  const ffi::Object* obj;
  bool is_object;
  uint64_t next;
  bool first = true;
};

/// Most bytes of line breaks and indentation an indented output may hold (1 GiB).
constexpr uint64_t kMaxLayoutBytes = uint64_t{1} << 30;

/// Writes one value, keeping the open containers on an explicit stack. A layout-only writer
/// walks the same way but writes nothing: it adds up the line breaks and indentation and throws
/// once they would pass kMaxLayoutBytes.
class JSONWriter {
 public:
  JSONWriter(const Optional<int>& indent, bool layout_only)
      : pretty_(indent.has_value() && *indent != 0),
        indent_(indent.has_value() && *indent > 0 ? *indent : 0),
        layout_only_(layout_only) {}

  std::string Write(const Any& root) {
    WriteValue(root);
    while (!stack_.empty()) WriteNextOrClose();
    return std::move(out_);
  }

 private:
  void WriteValue(const Any& value) {
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
    switch (cell->type_index) {
      case TypeIndex::kTVMFFIArray:
      case TypeIndex::kTVMFFIList:
        return Open(value, false, '[');
      case TypeIndex::kTVMFFIMap:
      case TypeIndex::kTVMFFIDict:
        return Open(value, true, '{');
      case TypeIndex::kTVMFFINone:
      case TypeIndex::kTVMFFIBool:
      case TypeIndex::kTVMFFIInt:
      case TypeIndex::kTVMFFIFloat:
      case TypeIndex::kTVMFFISmallStr:
      case TypeIndex::kTVMFFIStr:
        if (!layout_only_) WriteScalar(*cell, value);
        return;
      default:
        TVM_FFI_THROW(ValueError) << "Unsupported type: `" << value.GetTypeKey() << "`";
    }
  }

  void WriteScalar(const TVMFFIAny& cell, const Any& value) {
    switch (cell.type_index) {
      case TypeIndex::kTVMFFINone:
        out_ += "null";
        return;
      case TypeIndex::kTVMFFIBool:
        out_ += cell.v_int64 != 0 ? "true" : "false";
        return;
      case TypeIndex::kTVMFFIInt:
        out_ += std::to_string(cell.v_int64);
        return;
      case TypeIndex::kTVMFFIFloat:
        out_ += FormatDouble(cell.v_float64);
        return;
      default:
        AppendQuoted(*StringViewOf(value), &out_);
    }
  }

  void Open(const Any& value, bool is_object, char bracket) {
    const ffi::Object* obj = value.as<ffi::Object>();
    if (!active_.insert(obj).second) {
      TVM_FFI_THROW(ValueError) << "json.Stringify: cannot write a cyclic value; a `"
                                << value.GetTypeKey() << "` contains itself";
    }
    uint64_t begin = is_object ? static_cast<const MapBaseObj*>(obj)->IterBegin() : 0;
    stack_.push_back(OpenWrittenContainer{obj, is_object, begin});
    Put(bracket);
  }

  /// Writes the innermost open container's next element, or closes it.
  void WriteNextOrClose() {
    PollSignals();
    OpenWrittenContainer& top = stack_.back();
    const Any* next = top.is_object ? NextMember(&top) : NextElement(&top);
    if (next == nullptr) {
      NewLine(stack_.size() - 1);
      Put(top.is_object ? '}' : ']');
      active_.erase(top.obj);
      stack_.pop_back();
      return;
    }
    WriteValue(*next);  // may grow stack_ and invalidate `top`
  }

  /// Writes the separator for the next array element and returns it, or nullptr at the end.
  const Any* NextElement(OpenWrittenContainer* top) {
    const SeqBaseObj* seq = static_cast<const SeqBaseObj*>(top->obj);
    if (top->next >= seq->size()) return nullptr;
    StartItem(top);
    return &seq->begin()[top->next++];
  }

  /// Writes the separator and `"key":` of the next member and returns its value, or nullptr.
  const Any* NextMember(OpenWrittenContainer* top) {
    const MapBaseObj* map = static_cast<const MapBaseObj*>(top->obj);
    if (top->next == map->IterEnd()) return nullptr;
    uint64_t at = top->next;
    const Any& key = map->KeyAt(at);
    std::optional<std::string_view> key_text = StringViewOf(key);
    if (!key_text.has_value()) {
      TVM_FFI_THROW(ValueError) << "Expect key to be string, got `" << key.GetTypeKey() << "`";
    }
    StartItem(top);
    if (!layout_only_) {
      AppendQuoted(*key_text, &out_);
      out_ += pretty_ ? ": " : ":";
    }
    top->next = map->IterNext(at);
    return &map->ValueAt(at);
  }

  void StartItem(OpenWrittenContainer* top) {
    if (!top->first) Put(',');
    top->first = false;
    NewLine(stack_.size());
  }

  void Put(char ch) {
    if (!layout_only_) out_ += ch;
  }

  void NewLine(size_t depth) {
    if (!pretty_) return;
    uint64_t width = depth * static_cast<uint64_t>(indent_);
    if (layout_only_) return CountLayout(1 + width);
    out_ += '\n';
    out_.append(width, ' ');
  }

  void CountLayout(uint64_t bytes) {
    if (bytes > kMaxLayoutBytes - layout_bytes_) {
      TVM_FFI_THROW(ValueError) << "json.Stringify: indenting by " << indent_
                                << " would add more than " << kMaxLayoutBytes
                                << " bytes of line breaks and indentation";
    }
    layout_bytes_ += bytes;
  }

  /// Lets the frontend handle pending signals (Ctrl-C) once every 64Ki elements.
  void PollSignals() {
    if ((++steps_ & 0xFFFF) != 0) return;
    if (TVMFFIEnvCheckSignals() != 0) throw EnvErrorAlreadySet();
  }

  bool pretty_;
  int indent_;
  bool layout_only_;
  uint64_t layout_bytes_ = 0;
  uint64_t steps_ = 0;
  std::string out_;
  std::vector<OpenWrittenContainer> stack_;
  std::unordered_set<const ffi::Object*> active_;
};

}  // namespace

String Stringify(const json::Value& value, const Optional<int>& indent) {
  // An indented output can be far larger than its value (depth times indent per line): its
  // layout is measured, without writing, before anything is allocated for it.
  if (indent.has_value() && *indent != 0) JSONWriter(indent, true).Write(value);
  return String(JSONWriter(indent, false).Write(value));
}

}  // namespace json

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def(
      "ffi.json.Stringify",
      [](const json::Value& value, Optional<int> indent) { return json::Stringify(value, indent); },
      "Writes a JSON value as text, compact or indented by `indent` spaces per level (a "
      "negative indent breaks lines without indenting); ValueError when the line breaks and "
      "indentation would take more than 1 GiB (2^30 bytes), raised before writing");
}

}  // namespace ffi
}  // namespace tvm
