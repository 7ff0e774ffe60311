// SPDX-License-Identifier: Apache-2.0
// dtype_format.cc: parses and prints DLDataType names ("float32", "int8x4", "custom[x]16").
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "dtype_internal.h"
#include "text_internal.h"

namespace tvm {
namespace ffi {
namespace details {
namespace {

/// How a type name takes its bit width.
enum class BitsRule {
  kOptional,  ///< "int" or "int8": a default applies
  kRequired,  ///< shorthands: "i8"
  kImplicit,  ///< float8/6/4 variants: the width is part of the name
};

/// One spelling of a type name.
struct TypeName {
  std::string_view name;
  uint8_t code;
  uint8_t default_bits;
  BitsRule bits_rule;
};

// The first kNumTypeCodes entries are the canonical names, indexed by their type code.
constexpr TypeName kTypeNames[] = {
    {"int", kDLInt, 32, BitsRule::kOptional},
    {"uint", kDLUInt, 32, BitsRule::kOptional},
    {"float", kDLFloat, 32, BitsRule::kOptional},
    {"handle", kDLOpaqueHandle, 64, BitsRule::kOptional},
    {"bfloat", kDLBfloat, 16, BitsRule::kOptional},
    {"complex", kDLComplex, 64, BitsRule::kOptional},
    {"bool", kDLBool, 8, BitsRule::kOptional},
    {"float8_e3m4", kDLFloat8_e3m4, 8, BitsRule::kImplicit},
    {"float8_e4m3", kDLFloat8_e4m3, 8, BitsRule::kImplicit},
    {"float8_e4m3b11fnuz", kDLFloat8_e4m3b11fnuz, 8, BitsRule::kImplicit},
    {"float8_e4m3fn", kDLFloat8_e4m3fn, 8, BitsRule::kImplicit},
    {"float8_e4m3fnuz", kDLFloat8_e4m3fnuz, 8, BitsRule::kImplicit},
    {"float8_e5m2", kDLFloat8_e5m2, 8, BitsRule::kImplicit},
    {"float8_e5m2fnuz", kDLFloat8_e5m2fnuz, 8, BitsRule::kImplicit},
    {"float8_e8m0fnu", kDLFloat8_e8m0fnu, 8, BitsRule::kImplicit},
    {"float6_e2m3fn", kDLFloat6_e2m3fn, 6, BitsRule::kImplicit},
    {"float6_e3m2fn", kDLFloat6_e3m2fn, 6, BitsRule::kImplicit},
    {"float4_e2m1fn", kDLFloat4_e2m1fn, 4, BitsRule::kImplicit},
    {"i", kDLInt, 0, BitsRule::kRequired},
    {"u", kDLUInt, 0, BitsRule::kRequired},
    {"f", kDLFloat, 0, BitsRule::kRequired},
    {"bf", kDLBfloat, 0, BitsRule::kRequired},
};
constexpr size_t kNumTypeCodes = 18;
static_assert(kTypeNames[kNumTypeCodes - 1].code == kNumTypeCodes - 1, "table out of order");

constexpr uint32_t kMaxBits = 255;
constexpr uint32_t kMaxLanes = 65535;
constexpr uint32_t kMaxScalableLanes = 32768;  // -N must fit int16

bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

/// The message for a string that names no data type (upstream's wording).
std::string UnknownDtype(std::string_view text) {
  return "unknown dtype `" + std::string(text) + "`";
}

bool StartsWithDigit(std::string_view text) {
  return !text.empty() && text[0] >= '0' && text[0] <= '9';
}

/// Consumes leading decimal digits into *out; false when there are none or they exceed max.
bool ConsumeNumber(std::string_view* text, uint32_t max_value, uint32_t* out) {
  if (!StartsWithDigit(*text)) return false;
  uint32_t value = 0;
  size_t n = 0;
  for (; n < text->size() && StartsWithDigit(text->substr(n)); ++n) {
    value = value * 10 + static_cast<uint32_t>((*text)[n] - '0');
    if (value > max_value) return false;
  }
  text->remove_prefix(n);
  *out = value;
  return true;
}

/// The longest table spelling that prefixes `text`, or nullptr.
const TypeName* MatchTypeName(std::string_view text) {
  const TypeName* best = nullptr;
  for (const TypeName& entry : kTypeNames) {
    if (!StartsWith(text, entry.name)) continue;
    if (best == nullptr || entry.name.size() > best->name.size()) best = &entry;
  }
  return best;
}

/// Rewrites "fp8_<v>"/"f8_<v>" (and the 6- and 4-bit forms) to "float8_<v>" etc.; other text
/// is unchanged.
std::string ExpandShorthand(std::string_view text) {
  for (std::string_view prefix : {"fp8_", "fp6_", "fp4_"}) {
    if (StartsWith(text, prefix)) return "float" + std::string(text.substr(2));
  }
  for (std::string_view prefix : {"f8_", "f6_", "f4_"}) {
    if (StartsWith(text, prefix)) return "float" + std::string(text.substr(1));
  }
  return std::string(text);
}

bool ParseBits(std::string_view* rest, BitsRule rule, std::string_view original, DLDataType* dtype,
               std::string* error) {
  bool has_digits = StartsWithDigit(*rest);
  if (rule == BitsRule::kImplicit && has_digits) {
    return Fail(error, "data type " + Quoted(original) + " does not take a bits number");
  }
  if (!has_digits && rule == BitsRule::kRequired) {
    return Fail(error, "missing bits in data type string " + Quoted(original));
  }
  if (!has_digits) return true;
  uint32_t bits = 0;
  if (!ConsumeNumber(rest, kMaxBits, &bits) || bits == 0) {
    return Fail(error, "invalid bits in data type string " + Quoted(original) +
                           "; expected a number in 1..255");
  }
  dtype->bits = static_cast<uint8_t>(bits);
  return true;
}

bool ParseLanes(std::string_view* rest, std::string_view original, DLDataType* dtype,
                std::string* error) {
  if (rest->empty() || (*rest)[0] != 'x') return true;
  bool scalable = StartsWith(*rest, "xvscalex");
  rest->remove_prefix(scalable ? 8 : 1);
  uint32_t lanes = 0;
  if (!ConsumeNumber(rest, scalable ? kMaxScalableLanes : kMaxLanes, &lanes) || lanes == 0) {
    return Fail(error, "Invalid lanes specification in data type string " + Quoted(original));
  }
  int32_t stored = scalable ? -static_cast<int32_t>(lanes) : static_cast<int32_t>(lanes);
  dtype->lanes = static_cast<uint16_t>(stored);
  return true;
}

/// Parses "<bits>[x<lanes>|xvscalex<lanes>]" after a type name; nothing may remain.
bool ParseSuffix(std::string_view rest, BitsRule rule, std::string_view original, DLDataType* dtype,
                 std::string* error) {
  if (!ParseBits(&rest, rule, original, dtype, error)) return false;
  // Names without a bits number may separate the lanes with '_': "float4_e2m1fn_x2".
  if (rule == BitsRule::kImplicit && StartsWith(rest, "_x")) rest.remove_prefix(1);
  if (!ParseLanes(&rest, original, dtype, error)) return false;
  if (rest.empty()) return true;
  return Fail(error, UnknownDtype(original) + ": unexpected trailing characters " + Quoted(rest));
}

bool ParseCustom(std::string_view original, DLDataType* out, std::string* error,
                 CustomTypeCodeLookup lookup) {
  std::string_view rest = original.substr(std::string_view("custom[").size());
  size_t close = rest.find(']');
  if (close == std::string_view::npos) {
    return Fail(error, "missing ']' in data type string " + Quoted(original));
  }
  std::string_view name = rest.substr(0, close);
  if (name.empty()) return Fail(error, "empty custom type name in " + Quoted(original));
  DLDataType dtype{0, 32, 1};  // "custom[x]" alone is 32 bits wide
  if (lookup == nullptr || !lookup(name, &dtype.code)) {
    return Fail(error, "unknown custom type name " + Quoted(name) + " in data type string " +
                           Quoted(original));
  }
  if (!ParseSuffix(rest.substr(close + 1), BitsRule::kOptional, original, &dtype, error)) {
    return false;
  }
  *out = dtype;
  return true;
}

bool ParseNamed(std::string_view body, std::string_view original, DLDataType* out,
                std::string* error) {
  const TypeName* entry = MatchTypeName(body);
  if (entry == nullptr) return Fail(error, UnknownDtype(original));
  DLDataType dtype{entry->code, entry->default_bits, 1};
  if (!ParseSuffix(body.substr(entry->name.size()), entry->bits_rule, original, &dtype, error)) {
    return false;
  }
  *out = dtype;
  return true;
}

/// Whether the canonical name of `dtype` leaves out its bit width.
bool OmitsBits(const TypeName& entry, uint8_t bits) {
  return entry.bits_rule == BitsRule::kImplicit || (entry.code == kDLBool && bits == 8) ||
         (entry.code == kDLOpaqueHandle && bits == 64);
}

bool AppendCustomName(DLDataType dtype, std::string* text, std::string* error,
                      CustomTypeNameLookup lookup) {
  std::string name;
  if (lookup == nullptr || !lookup(dtype.code, &name)) {
    return Fail(error, "cannot format data type: custom type code " + std::to_string(dtype.code) +
                           " has no registered name");
  }
  *text += "custom[" + name + "]" + std::to_string(dtype.bits);
  return true;
}

bool AppendTypeName(DLDataType dtype, std::string* text, std::string* error,
                    CustomTypeNameLookup lookup) {
  if (dtype.code >= kCustomTypeCodeBegin) return AppendCustomName(dtype, text, error, lookup);
  if (dtype.code >= kNumTypeCodes) {
    return Fail(error, "cannot format data type: unknown type code " + std::to_string(dtype.code));
  }
  const TypeName& entry = kTypeNames[dtype.code];
  text->append(entry.name);
  if (!OmitsBits(entry, dtype.bits)) text->append(std::to_string(dtype.bits));
  return true;
}

void AppendLanes(uint16_t lanes, std::string* text) {
  int16_t signed_lanes = static_cast<int16_t>(lanes);
  if (lanes == 1) return;
  if (signed_lanes < 0) {
    *text += "xvscalex" + std::to_string(-static_cast<int32_t>(signed_lanes));
  } else {
    *text += "x" + std::to_string(lanes);
  }
}

}  // namespace

bool ParseDataType(std::string_view str, DLDataType* out, std::string* error,
                   CustomTypeCodeLookup lookup) {
  if (str.empty() || str == "void") {
    *out = DLDataType{kDLOpaqueHandle, 0, 0};
    return true;
  }
  if (StartsWith(str, "custom[")) return ParseCustom(str, out, error, lookup);
  return ParseNamed(ExpandShorthand(str), str, out, error);
}

bool FormatDataType(DLDataType dtype, std::string* out, std::string* error,
                    CustomTypeNameLookup lookup) {
  if (dtype.code == kDLOpaqueHandle && dtype.bits == 0 && dtype.lanes == 0) {
    out->clear();
    return true;
  }
  std::string text;
  if (!AppendTypeName(dtype, &text, error, lookup)) return false;
  AppendLanes(dtype.lanes, &text);
  *out = std::move(text);
  return true;
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
