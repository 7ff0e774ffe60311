// SPDX-License-Identifier: Apache-2.0
// test_json.cc: json::Parse, json::Stringify and the ffi.json.Parse / ffi.json.Stringify globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_json_test {

using namespace tvm::ffi;  // NOLINT(*)
using tvm_ffi_test::ErrorText;

/// The message Parse stores for `text`, checking that it returned None.
std::string ParseErrorOf(const std::string& text) {
  String error;
  json::Value value = json::Parse(String(text), &error);
  EXPECT_EQ(value.type_index(), TypeIndex::kTVMFFINone) << text;
  return std::string(error);
}

std::string Write(const json::Value& value, Optional<int> indent = std::nullopt) {
  return std::string(json::Stringify(value, indent));
}

std::string ParsedString(const std::string& text) {
  return std::string(json::Parse(String(text)).cast<String>());
}

/// The bit pattern of a double, so that -0.0 and NaN compare exactly.
uint64_t BitsOf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

// ---------------------------------------------------------------------------------------------
// Parse: scalars and numbers

TEST(JsonParse, Literals) {
  EXPECT_EQ(json::Parse("null").type_index(), TypeIndex::kTVMFFINone);
  json::Value yes = json::Parse("true");
  EXPECT_EQ(yes.type_index(), TypeIndex::kTVMFFIBool);
  EXPECT_TRUE(yes.cast<bool>());
  json::Value no = json::Parse("false");
  EXPECT_EQ(no.type_index(), TypeIndex::kTVMFFIBool);
  EXPECT_FALSE(no.cast<bool>());
}

TEST(JsonParse, IntegersThatFitInt64StayIntegers) {
  std::vector<std::pair<std::string, int64_t>> cases = {
      {"0", 0},
      {"-0", 0},
      {"42", 42},
      {"-17", -17},
      {"9223372036854775807", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
  };
  for (const auto& [text, expected] : cases) {
    json::Value value = json::Parse(String(text));
    EXPECT_EQ(value.type_index(), TypeIndex::kTVMFFIInt) << text;
    EXPECT_EQ(value.cast<int64_t>(), expected) << text;
  }
}

TEST(JsonParse, IntegersBeyondInt64BecomeDoubles) {
  std::vector<std::pair<std::string, double>> cases = {
      {"9223372036854775808", 9223372036854775808.0},
      {"-9223372036854775809", -9223372036854775809.0},
      {"18446744073709551615", 18446744073709551615.0},
      {"123456789012345678901234567890", 1.2345678901234568e29},
  };
  for (const auto& [text, expected] : cases) {
    json::Value value = json::Parse(String(text));
    EXPECT_EQ(value.type_index(), TypeIndex::kTVMFFIFloat) << text;
    EXPECT_EQ(value.cast<double>(), expected) << text;
  }
}

TEST(JsonParse, FractionsAndExponentsAreDoubles) {
  std::vector<std::pair<std::string, double>> cases = {
      {"1.0", 1.0},
      {"1.5", 1.5},
      {"-2.5e3", -2500.0},
      {"1e5", 1e5},
      {"1E+2", 100.0},
      {"1e-2", 0.01},
      {"12e-1", 1.2},
      {"0.1", 0.1},
      {"1.7976931348623157e308", 1.7976931348623157e308},
      {"2.2250738585072014e-308", 2.2250738585072014e-308},
      {"4.9406564584124654e-324", 4.9406564584124654e-324},  // subnormals are kept
  };
  for (const auto& [text, expected] : cases) {
    json::Value value = json::Parse(String(text));
    EXPECT_EQ(value.type_index(), TypeIndex::kTVMFFIFloat) << text;
    EXPECT_EQ(BitsOf(value.cast<double>()), BitsOf(expected)) << text;
  }
}

TEST(JsonParse, NegativeZeroDoubleKeepsItsSign) {
  json::Value value = json::Parse("-0.0");
  EXPECT_EQ(value.type_index(), TypeIndex::kTVMFFIFloat);
  EXPECT_TRUE(std::signbit(value.cast<double>()));
  EXPECT_TRUE(std::signbit(json::Parse("-0e0").cast<double>()));
}

TEST(JsonParse, LenientNumberForms) {
  EXPECT_EQ(json::Parse("+1").cast<int64_t>(), 1);
  EXPECT_EQ(json::Parse("01").cast<int64_t>(), 1);
  EXPECT_EQ(json::Parse("-01").cast<int64_t>(), -1);
  EXPECT_EQ(json::Parse(".5").cast<double>(), 0.5);
  EXPECT_EQ(json::Parse("-.5").cast<double>(), -0.5);
  EXPECT_EQ(json::Parse("1.").cast<double>(), 1.0);
  EXPECT_EQ(json::Parse("1.e5").cast<double>(), 1e5);
}

TEST(JsonParse, NaNAndInfinityLiterals) {
  EXPECT_TRUE(std::isnan(json::Parse("NaN").cast<double>()));
  EXPECT_EQ(json::Parse("Infinity").cast<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(json::Parse("-Infinity").cast<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(json::Parse("[NaN,Infinity]").cast<json::Array>().size(), 2);
  for (const char* text : {"nan", "inf", "-NaN", "+Infinity", "Infinit", "True", "nul"}) {
    EXPECT_EQ(ParseErrorOf(text), "Expecting value: line 1 column 1 (char 0)") << text;
  }
}

TEST(JsonParse, MalformedNumbers) {
  for (const char* text : {"-", "+", ".", "1e", "1e+", "--1", "+-1", "1.5.3", "1e5e5", "1+2", "e5",
                           ".e1", "1e400", "-1e400", "1e-400"}) {
    EXPECT_EQ(ParseErrorOf(text), "Expecting value: line 1 column 1 (char 0)") << text;
  }
  EXPECT_EQ(ParseErrorOf("0x10"), "Extra data: line 1 column 2 (char 1)");
  EXPECT_EQ(ParseErrorOf("[1, 2e]"), "Expecting value: line 1 column 5 (char 4)");
}

// ---------------------------------------------------------------------------------------------
// Parse: strings

TEST(JsonParse, SimpleEscapes) {
  EXPECT_EQ(ParsedString(R"("\"\\\/\b\f\n\r\t")"), "\"\\/\b\f\n\r\t");
  EXPECT_EQ(ParsedString(R"("")"), "");
  EXPECT_EQ(ParsedString(R"("plain text")"), "plain text");
}

TEST(JsonParse, UnicodeEscapesBecomeUTF8) {
  EXPECT_EQ(ParsedString(R"("\u0041\u00e9\u00E9")"), "A\xc3\xa9\xc3\xa9");
  EXPECT_EQ(ParsedString(R"("\u20ac")"), "\xe2\x82\xac");
  EXPECT_EQ(ParsedString(R"("\ud83d\ude00")"), "\xf0\x9f\x98\x80");  // U+1F600
  EXPECT_EQ(ParsedString(R"("\udbff\udfff")"), "\xf4\x8f\xbf\xbf");  // U+10FFFF
  EXPECT_EQ(ParsedString(R"("\ud800\udc00")"), "\xf0\x90\x80\x80");  // U+10000
  std::string with_nul = ParsedString(R"("a\u0000b")");
  EXPECT_EQ(with_nul, std::string("a\0b", 3));
}

TEST(JsonParse, RawBytesAreCopiedAsTheyAre) {
  EXPECT_EQ(ParsedString("\"\xc3\xa9\xf0\x9f\x98\x80\""), "\xc3\xa9\xf0\x9f\x98\x80");
  // Like the reference runtime, bytes are not checked to be UTF-8.
  EXPECT_EQ(ParsedString("\"\xff\xc3\""), "\xff\xc3");
  EXPECT_EQ(ParsedString("\"\x7f\""), "\x7f");
}

TEST(JsonParse, BadStrings) {
  EXPECT_EQ(ParseErrorOf(R"("abc)"), "Unterminated string starting at: line 1 column 1 (char 0)");
  EXPECT_EQ(ParseErrorOf(R"(["ok", "abc)"),
            "Unterminated string starting at: line 1 column 8 (char 7)");
  EXPECT_EQ(ParseErrorOf("\"a\nb\""), "Invalid control character at: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf("\"a\tb\""), "Invalid control character at: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(std::string("\"a\0b\"", 5)),
            "Invalid control character at: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(R"("\x")"), "Invalid \\escape: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(R"("\)"), "Invalid \\escape: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(R"("\u12")"), "Invalid \\uXXXX escape: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(R"("\uZZZZ")"), "Invalid \\uXXXX escape: line 1 column 3 (char 2)");
}

TEST(JsonParse, SurrogatesMustPair) {
  const std::string bad_pair = "Invalid surrogate pair of \\uXXXX escapes";
  EXPECT_EQ(ParseErrorOf(R"("\ud83d")"), bad_pair + ": line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(R"("\ude00")"), bad_pair + ": line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(R"("\ud83dx")"), bad_pair + ": line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(R"("\ud83d\n")"), bad_pair + ": line 1 column 3 (char 2)");
  EXPECT_EQ(ParseErrorOf(R"("\ud83d\u0041")"), bad_pair + ": line 1 column 10 (char 9)");
  EXPECT_EQ(ParseErrorOf(R"("\ud83d\ud83d")"), bad_pair + ": line 1 column 10 (char 9)");
  EXPECT_EQ(ParseErrorOf(R"("\ud83d\ude0")"), "Invalid \\uXXXX escape: line 1 column 10 (char 9)");
}

// ---------------------------------------------------------------------------------------------
// Parse: containers and structure

TEST(JsonParse, NestedContainers) {
  json::Value value = json::Parse(R"( {"a": [1, 2.5, "x", null, true], "b": {"c": {}}, "d": []} )");
  json::Object object = value.cast<json::Object>();
  ASSERT_EQ(object.size(), 3);
  json::Array a = object["a"].cast<json::Array>();
  ASSERT_EQ(a.size(), 5);
  EXPECT_EQ(a[0].cast<int64_t>(), 1);
  EXPECT_EQ(a[1].cast<double>(), 2.5);
  EXPECT_EQ(a[2].cast<String>(), "x");
  EXPECT_EQ(a[3].type_index(), TypeIndex::kTVMFFINone);
  EXPECT_TRUE(a[4].cast<bool>());
  json::Object b = object["b"].cast<json::Object>();
  EXPECT_EQ(b["c"].cast<json::Object>().size(), 0);
  EXPECT_EQ(object["d"].cast<json::Array>().size(), 0);
  EXPECT_EQ(object["d"].type_index(), TypeIndex::kTVMFFIArray);
  EXPECT_EQ(value.type_index(), TypeIndex::kTVMFFIMap);
}

TEST(JsonParse, KeysAreStringsInTextOrder) {
  json::Object object = json::Parse(R"({"z": 1, "a": 2, "m": 3, "": 4})").cast<json::Object>();
  std::vector<std::string> keys;
  for (const auto& [key, value] : object) keys.push_back(std::string(key.cast<String>()));
  EXPECT_EQ(keys, (std::vector<std::string>{"z", "a", "m", ""}));
}

TEST(JsonParse, RepeatedKeyKeepsFirstPlaceAndLastValue) {
  json::Value value = json::Parse(R"({"a": 1, "b": 2, "a": 3})");
  EXPECT_EQ(Write(value), R"({"a":3,"b":2})");
}

TEST(JsonParse, WhitespaceIsSpaceTabCRAndLF) {
  EXPECT_EQ(json::Parse(" \t\r\n[ 1 ,\n\t2 ] \r\n").cast<json::Array>().size(), 2);
  EXPECT_EQ(ParseErrorOf("[1]\f"), "Extra data: line 1 column 4 (char 3)");
  EXPECT_EQ(ParseErrorOf("\v1"), "Expecting value: line 1 column 1 (char 0)");
  EXPECT_EQ(ParseErrorOf("\xc2\xa0"
                         "1"),
            "Expecting value: line 1 column 1 (char 0)");
  EXPECT_EQ(ParseErrorOf("\xef\xbb\xbf[1]"), "Expecting value: line 1 column 1 (char 0)");
}

TEST(JsonParse, StructuralErrorsNameThePosition) {
  std::vector<std::pair<std::string, std::string>> cases = {
      {"", "Expecting value: line 1 column 1 (char 0)"},
      {"  ", "Expecting value: line 1 column 3 (char 2)"},
      {"[", "Expecting value: line 1 column 2 (char 1)"},
      {"[[[", "Expecting value: line 1 column 4 (char 3)"},
      {"[1,]", "Expecting value: line 1 column 4 (char 3)"},
      {"[1,  ]", "Expecting value: line 1 column 6 (char 5)"},
      {"[1,", "Syntax error near: line 1 column 4 (char 3)"},
      {"[1, ", "Syntax error near: line 1 column 5 (char 4)"},
      {"{\"a\":1, ", "Syntax error near: line 1 column 9 (char 8)"},
      {"[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"},
      {"[1", "Expecting ',' delimiter: line 1 column 3 (char 2)"},
      {"{\"a\":1", "Expecting ',' delimiter: line 1 column 7 (char 6)"},
      {"{\"a\":1 ", "Expecting ',' delimiter: line 1 column 8 (char 7)"},
      {"{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
      {"{ ", "Expecting property name enclosed in double quotes: line 1 column 3 (char 2)"},
      {"{1:2}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
      {"{\"a\":1,}", "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"},
      {"{\"a\" 1}", "Expecting ':' delimiter: line 1 column 6 (char 5)"},
      {"{\"a\"", "Expecting ':' delimiter: line 1 column 5 (char 4)"},
      {"{\"a\":", "Expecting value: line 1 column 6 (char 5)"},
      {"[1] x", "Extra data: line 1 column 5 (char 4)"},
      {"truex", "Extra data: line 1 column 5 (char 4)"},
      {"[] []", "Extra data: line 1 column 4 (char 3)"},
      {"{\"a\":1}}", "Extra data: line 1 column 8 (char 7)"},
      {std::string("[1]\0", 4), "Extra data: line 1 column 4 (char 3)"},
  };
  for (const auto& [text, expected] : cases) EXPECT_EQ(ParseErrorOf(text), expected) << text;
}

TEST(JsonParse, LinesAndColumnsCountFromTheLastNewline) {
  EXPECT_EQ(ParseErrorOf("[1,\n 2,\n x]"), "Expecting value: line 3 column 2 (char 9)");
  EXPECT_EQ(ParseErrorOf("\t[1,\r\n2]\f"), "Extra data: line 2 column 3 (char 8)");
  // Offsets and columns count bytes.
  EXPECT_EQ(ParseErrorOf("[\"\xc3\xa9\", x]"), "Expecting value: line 1 column 8 (char 7)");
}

TEST(JsonParse, ErrorMessageIsClearedOnSuccess) {
  String error("left over");
  EXPECT_EQ(json::Parse("[1]", &error).cast<json::Array>().size(), 1);
  EXPECT_EQ(error, "");
}

TEST(JsonParse, ThrowsValueErrorWithoutErrorSlot) {
  EXPECT_EQ(ErrorText([] { json::Parse("[1, 2"); }),
            "ValueError: Expecting ',' delimiter: line 1 column 6 (char 5)");
  EXPECT_EQ(ErrorText([] { json::Parse("{\n  \"a\": tru\n}"); }),
            "ValueError: Expecting value: line 2 column 8 (char 9)");
  EXPECT_EQ(ErrorText([] { json::Parse(R"("\ud83d")"); }),
            "ValueError: Invalid surrogate pair of \\uXXXX escapes: line 1 column 3 (char 2)");
}

TEST(JsonParse, DeepNestingNeedsNoDeepStack) {
  const int depth = 200000;
  std::string text = std::string(depth, '[') + "7" + std::string(depth, ']');
  json::Value value = json::Parse(String(text));
  int seen = 0;
  while (value.type_index() == TypeIndex::kTVMFFIArray) {
    json::Array array = value.cast<json::Array>();
    ASSERT_EQ(array.size(), 1);
    value = array[0];
    ++seen;
  }
  EXPECT_EQ(seen, depth);
  EXPECT_EQ(value.cast<int64_t>(), 7);

  std::string objects;
  for (int i = 0; i < depth; ++i) objects += "{\"k\":";
  objects += "null" + std::string(depth, '}');
  EXPECT_EQ(json::Parse(String(objects)).type_index(), TypeIndex::kTVMFFIMap);
  // Unfinished deep text fails cleanly at its end.
  EXPECT_EQ(ParseErrorOf(std::string(depth, '[')),
            "Expecting value: line 1 column 200001 (char 200000)");
}

// ---------------------------------------------------------------------------------------------
// Stringify

TEST(JsonStringify, Scalars) {
  EXPECT_EQ(Write(Any(nullptr)), "null");
  EXPECT_EQ(Write(Any(true)), "true");
  EXPECT_EQ(Write(Any(false)), "false");
  EXPECT_EQ(Write(Any(0)), "0");
  EXPECT_EQ(Write(Any(std::numeric_limits<int64_t>::max())), "9223372036854775807");
  EXPECT_EQ(Write(Any(std::numeric_limits<int64_t>::min())), "-9223372036854775808");
}

TEST(JsonStringify, DoublesInShortestRoundTrippingForm) {
  std::vector<std::pair<double, std::string>> cases = {
      {1.0, "1.0"},
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {100.0, "100.0"},
      {1.5, "1.5"},
      {0.1, "0.1"},
      {1.0 / 3, "0.3333333333333333"},
      {0.0001, "0.0001"},
      {1e-5, "1e-05"},
      {-2.5e-10, "-2.5e-10"},
      {123456789.0, "123456789.0"},
      {1e15, "1000000000000000.0"},
      {1e16, "1e+16"},
      {12345678901234568.0, "1.2345678901234568e+16"},
      {1e20, "1e+20"},
      {1e100, "1e+100"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {4.9406564584124654e-324, "5e-324"},
      {std::numeric_limits<double>::quiet_NaN(), "NaN"},
      {std::numeric_limits<double>::infinity(), "Infinity"},
      {-std::numeric_limits<double>::infinity(), "-Infinity"},
  };
  for (const auto& [value, expected] : cases) EXPECT_EQ(Write(Any(value)), expected) << expected;
}

TEST(JsonStringify, DoublesReadBackBitForBit) {
  std::vector<double> values = {0.1,
                                -0.0,
                                1e16,
                                9007199254740993.0,
                                2.2250738585072014e-308,
                                5e-324,
                                1e-300,
                                1e300,
                                3.141592653589793,
                                -123.456e-78,
                                1e21,
                                0.30000000000000004};
  for (double value : values) {
    json::Value back = json::Parse(json::Stringify(Any(value)));
    ASSERT_EQ(back.type_index(), TypeIndex::kTVMFFIFloat) << value;
    EXPECT_EQ(BitsOf(back.cast<double>()), BitsOf(value)) << value;
  }
  EXPECT_TRUE(std::isnan(json::Parse(json::Stringify(Any(std::nan("")))).cast<double>()));
}

TEST(JsonStringify, StringEscapes) {
  EXPECT_EQ(Write(String("a\"b\\c/d")), R"("a\"b\\c\/d")");
  EXPECT_EQ(Write(String("\b\f\n\r\t")), R"("\b\f\n\r\t")");
  EXPECT_EQ(Write(String(std::string("\x01\x1b\x1f\x7f\0", 5))),
            R"("\u0001\u001b\u001f\u007f\u0000")");
  EXPECT_EQ(Write(String("")), R"("")");
  // Non-ASCII text (and any other byte from 0x80) is written as it is.
  EXPECT_EQ(Write(String("\xc3\xa9\xf0\x9f\x98\x80\xe2\x80\xa8")),
            "\"\xc3\xa9\xf0\x9f\x98\x80\xe2\x80\xa8\"");
  EXPECT_EQ(Write(String("\xff\xfe")), "\"\xff\xfe\"");
  std::string long_text(100, 'x');
  EXPECT_EQ(Write(String(long_text)), "\"" + long_text + "\"");
}

TEST(JsonStringify, StringsRoundTrip) {
  std::vector<std::string> texts = {
      "plain", "quote\" backslash\\ slash/", std::string("ctrl\x01\x02\n\0end", 11),
      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf", std::string(300, 'y')};
  for (const std::string& text : texts) {
    json::Value back = json::Parse(json::Stringify(String(text)));
    EXPECT_EQ(std::string(back.cast<String>()), text);
  }
  EXPECT_EQ(ParsedString(std::string(json::Stringify(ParsedString(R"("\ud83d\ude00")")))),
            "\xf0\x9f\x98\x80");
}

TEST(JsonStringify, CompactSeparators) {
  json::Object object{{String("b"), 1},
                      {String("a"), json::Array{1, 2.5, String("x"), nullptr, true}},
                      {String("c"), json::Object()},
                      {String("d"), json::Array()}};
  EXPECT_EQ(Write(object), R"({"b":1,"a":[1,2.5,"x",null,true],"c":{},"d":[]})");
  EXPECT_EQ(Write(object, 0), Write(object));
}

TEST(JsonStringify, IndentedLayout) {
  json::Object object{{String("b"), 1},
                      {String("a"), json::Array{1, 2}},
                      {String("c"), json::Object()},
                      {String("d"), json::Array()},
                      {String("e"), json::Object{{String("x"), nullptr}}}};
  EXPECT_EQ(Write(object, 2),
            "{\n"
            "  \"b\": 1,\n"
            "  \"a\": [\n"
            "    1,\n"
            "    2\n"
            "  ],\n"
            "  \"c\": {\n"
            "  },\n"
            "  \"d\": [\n"
            "  ],\n"
            "  \"e\": {\n"
            "    \"x\": null\n"
            "  }\n"
            "}");
  json::Array nested{1, json::Array{2, json::Object{{String("a"), json::Array()}}}};
  EXPECT_EQ(Write(nested, 4),
            "[\n"
            "    1,\n"
            "    [\n"
            "        2,\n"
            "        {\n"
            "            \"a\": [\n"
            "            ]\n"
            "        }\n"
            "    ]\n"
            "]");
  EXPECT_EQ(Write(json::Array(), 2), "[\n]");
  EXPECT_EQ(Write(json::Object(), 2), "{\n}");
  EXPECT_EQ(Write(Any(1), 2), "1");
  EXPECT_EQ(Write(String("s"), 3), "\"s\"");
  // A negative indent breaks lines without indenting.
  EXPECT_EQ(Write(json::Array{1, 2}, -1), "[\n1,\n2\n]");
}

TEST(JsonStringify, IndentedOutputParsesBack) {
  std::string text = R"({"a":[1,{"b":[true,false,null]},"s\n"],"c":{"d":-0.5}})";
  json::Value value = json::Parse(String(text));
  EXPECT_EQ(Write(json::Parse(json::Stringify(value, 3))), text);
}

TEST(JsonStringify, ListAndDictAreWrittenLikeArrayAndMap) {
  List<Any> list{1, String("x")};
  Dict<Any, Any> dict;
  dict.Set(String("k"), list);
  EXPECT_EQ(Write(dict), R"({"k":[1,"x"]})");
  EXPECT_EQ(Write(json::Array{dict, list}, 1),
            "[\n {\n  \"k\": [\n   1,\n   \"x\"\n  ]\n },\n [\n  1,\n  \"x\"\n ]\n]");
}

TEST(JsonStringify, KeysMustBeStrings) {
  EXPECT_EQ(ErrorText([] { json::Stringify(json::Object{{Any(1), Any(2)}}); }),
            "ValueError: Expect key to be string, got `int`");
  EXPECT_EQ(ErrorText([] { json::Stringify(json::Object{{Any(nullptr), Any(2)}}); }),
            "ValueError: Expect key to be string, got `None`");
  json::Array nested{json::Object{{String("a"), json::Object{{Any(1.5), Any(2)}}}}};
  EXPECT_EQ(ErrorText([&] { json::Stringify(nested, 2); }),
            "ValueError: Expect key to be string, got `float`");
}

TEST(JsonStringify, NonJSONValuesNameTheirType) {
  EXPECT_EQ(ErrorText([] { json::Stringify(Shape({1, 2})); }),
            "ValueError: Unsupported type: `ffi.Shape`");
  EXPECT_EQ(ErrorText([] { json::Stringify(json::Array{1, Bytes(std::string(100, 'b'))}); }),
            "ValueError: Unsupported type: `ffi.Bytes`");
  EXPECT_EQ(ErrorText([] { json::Stringify(Bytes("b", 1)); }),
            "ValueError: Unsupported type: `ffi.SmallBytes`");
  EXPECT_EQ(
      ErrorText([] {
        json::Stringify(json::Object{{String("f"), Function::GetGlobalRequired("ffi.json.Parse")}});
      }),
      "ValueError: Unsupported type: `ffi.Function`");
  int x = 0;
  EXPECT_EQ(ErrorText([&] { json::Stringify(Any(static_cast<void*>(&x))); }),
            "ValueError: Unsupported type: `void*`");
  EXPECT_EQ(ErrorText([] { json::Stringify(Any(DLDataType{kDLFloat, 32, 1})); }),
            "ValueError: Unsupported type: `DataType`");
  EXPECT_EQ(ErrorText([] { json::Stringify(Any(DLDevice{kDLCPU, 0})); }),
            "ValueError: Unsupported type: `Device`");
}

TEST(JsonStringify, SelfContainingListIsAnErrorNotAHang) {
  List<Any> list{1};
  list.push_back(list);
  EXPECT_EQ(
      ErrorText([&] { json::Stringify(list); }),
      "ValueError: json.Stringify: cannot write a cyclic value; a `ffi.List` contains itself");
  Dict<Any, Any> dict;
  dict.Set(String("self"), json::Array{dict});
  EXPECT_EQ(
      ErrorText([&] { json::Stringify(dict); }),
      "ValueError: json.Stringify: cannot write a cyclic value; a `ffi.Dict` contains itself");
  list.clear();
  dict.clear();
}

TEST(JsonStringify, SharedValuesAreWrittenEachTime) {
  json::Array inner{1};
  EXPECT_EQ(Write(json::Array{inner, inner, json::Object{{String("i"), inner}}}),
            R"([[1],[1],{"i":[1]}])");
}

TEST(JsonStringify, DeepNestingNeedsNoDeepStack) {
  const int depth = 200000;
  json::Value value = json::Array{String("leaf")};
  for (int i = 1; i < depth; ++i) value = json::Array{value};
  std::string text = Write(value);
  EXPECT_EQ(text, std::string(depth, '[') + "\"leaf\"" + std::string(depth, ']'));
  EXPECT_EQ(Write(json::Parse(String(text))), text);
  // Indented text grows with the square of the depth: check a smaller tower.
  const int pretty_depth = 2000;
  json::Value tower = json::Array();
  for (int i = 1; i < pretty_depth; ++i) tower = json::Array{tower};
  std::string pretty = Write(tower, 1);
  EXPECT_EQ(pretty.substr(0, 8), "[\n [\n  [");
  EXPECT_EQ(pretty.size(), static_cast<size_t>(pretty_depth) * (pretty_depth + 3) - 1);
  EXPECT_EQ(Write(json::Parse(String(pretty))),
            std::string(pretty_depth, '[') + std::string(pretty_depth, ']'));
}

// ---------------------------------------------------------------------------------------------
// Globals

TEST(JsonGlobal, ParseTakesTextAndReturnsTheValue) {
  Function parse = Function::GetGlobalRequired("ffi.json.Parse");
  json::Value value = parse(String(R"({"a": [1, 2.5]})"));
  EXPECT_EQ(Write(value), R"({"a":[1,2.5]})");
  EXPECT_EQ(parse(String("\"\\u00e9\"")).cast<String>(), "\xc3\xa9");
  EXPECT_EQ(ErrorText([&] { parse(String("[1,")); }),
            "ValueError: Syntax error near: line 1 column 4 (char 3)");
  EXPECT_EQ(ErrorText([&] { parse(String("")); }),
            "ValueError: Expecting value: line 1 column 1 (char 0)");
  EXPECT_EQ(ErrorText([&] { parse(1); }),
            "TypeError: Mismatched type on argument #0 when calling: "
            "`ffi.json.Parse(0: str) -> Any`. Expected `str` but got `int`");
}

TEST(JsonGlobal, StringifyTakesValueAndOptionalIndent) {
  Function stringify = Function::GetGlobalRequired("ffi.json.Stringify");
  json::Array value{1, json::Object{{String("k"), String("v")}}};
  EXPECT_EQ(stringify(value, nullptr).cast<String>(), R"([1,{"k":"v"}])");
  EXPECT_EQ(stringify(value, 2).cast<String>(), "[\n  1,\n  {\n    \"k\": \"v\"\n  }\n]");
  EXPECT_EQ(ErrorText([&] { stringify(json::Object{{Any(3), Any(4)}}, nullptr); }),
            "ValueError: Expect key to be string, got `int`");
  // Like the reference runtime's, the indent argument is required (None for compact).
  EXPECT_EQ(
      ErrorText([&] { stringify(value); }),
      "TypeError: Mismatched number of arguments when calling: "
      "`ffi.json.Stringify(0: Any, 1: Optional<int>) -> str`. Expected 2 but got 1 arguments");
  EXPECT_EQ(
      ErrorText([&] { stringify(value, String("2")); }),
      "TypeError: Mismatched type on argument #1 when calling: "
      "`ffi.json.Stringify(0: Any, 1: Optional<int>) -> str`. Expected `Optional<int>` but got "
      "`ffi.SmallStr`");
}

TEST(JsonGlobal, GlobalsRoundTrip) {
  Function parse = Function::GetGlobalRequired("ffi.json.Parse");
  Function stringify = Function::GetGlobalRequired("ffi.json.Stringify");
  std::string text = R"({"n":[-9223372036854775808,1e+300,-0.0,NaN],"s":"\ud83d\ude00\t"})";
  String once = stringify(parse(String(text)), nullptr).cast<String>();
  EXPECT_EQ(once, "{\"n\":[-9223372036854775808,1e+300,-0.0,NaN],\"s\":\"\xf0\x9f\x98\x80\\t\"}");
  EXPECT_EQ(stringify(parse(once), nullptr).cast<String>(), once);
}

}  // namespace tvm_ffi_json_test
