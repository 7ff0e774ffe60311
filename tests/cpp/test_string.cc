// SPDX-License-Identifier: Apache-2.0
// test_string.cc: String and Bytes cells, comparisons, helpers and the ABI string hash.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Bytes;
using tvm::ffi::String;

TVMFFIAny CellOf(const String& str) { return AnyView(str).CopyToTVMFFIAny(); }
TVMFFIAny CellOf(const Bytes& bytes) { return AnyView(bytes).CopyToTVMFFIAny(); }

/// The payload of a heap string or bytes object (handle + 24).
const TVMFFIByteArray* HeapPayload(const TVMFFIAny& cell) {
  return reinterpret_cast<const TVMFFIByteArray*>(reinterpret_cast<const char*>(cell.v_obj) +
                                                  sizeof(TVMFFIObject));
}

/// Reference StableHashBytes (docs/abi.md, 'Equality and hashing'), written apart from the headers.
uint64_t RefHashBytes(std::string_view text) {
  uint64_t hash = 0;
  for (size_t pos = 0; pos < text.size(); pos += 8) {
    unsigned char chunk_bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::memcpy(chunk_bytes, text.data() + pos, std::min<size_t>(8, text.size() - pos));
    uint64_t chunk = 0;
    for (int i = 7; i >= 0; --i) chunk = (chunk << 8) | chunk_bytes[i];
    hash = (hash * 1099511628211ULL + chunk) % 2147483647ULL;
  }
  return hash;
}

uint64_t RefHashCombine(uint64_t key, uint64_t value) {
  return key ^ (value + 0x9e3779b9ULL + (key << 6) + (key >> 2));
}

uint64_t HashOf(const TVMFFIAny& cell) { return tvm::ffi::details::AnyHashCell(&cell); }

/// A Str object (index 65) holding text even when it is short, like TVMFFIDataTypeToString.
Any HeapStringCell(const std::string& text) {
  using tvm::ffi::details::ObjectUnsafe;
  auto obj = tvm::ffi::make_object<tvm::ffi::details::BytesObjFromStd<tvm::ffi::StringObj>>(text);
  TVMFFIAny cell;
  cell.type_index = kTVMFFIStr;
  cell.zero_padding = 0;
  cell.v_obj = static_cast<TVMFFIObject*>(ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj)));
  return tvm::ffi::details::AnyUnsafe::MoveTVMFFIAnyToAny(&cell);
}

static_assert(!std::is_constructible_v<String, std::nullptr_t>, "String(nullptr) is deleted");
static_assert(sizeof(String) == 16 && sizeof(Bytes) == 16, "String and Bytes are one cell");

TEST(String, SmallIsInline) {
  String str("abc");
  TVMFFIAny cell = CellOf(str);
  EXPECT_EQ(cell.type_index, kTVMFFISmallStr);
  EXPECT_EQ(cell.type_index, 11);
  EXPECT_EQ(cell.small_str_len, 3u);
  EXPECT_EQ(std::string(cell.v_bytes, 3), "abc");
  for (int i = 3; i < 8; ++i) EXPECT_EQ(cell.v_bytes[i], 0) << i;
}

TEST(String, SevenBytesStayInline) {
  TVMFFIAny cell = CellOf(String("1234567"));
  EXPECT_EQ(cell.type_index, kTVMFFISmallStr);
  EXPECT_EQ(cell.small_str_len, 7u);
  EXPECT_EQ(cell.v_bytes[7], 0);
}

TEST(String, EightBytesGoToHeap) {
  String str("12345678");
  TVMFFIAny cell = CellOf(str);
  EXPECT_EQ(cell.type_index, kTVMFFIStr);
  EXPECT_EQ(cell.type_index, 65);
  EXPECT_EQ(cell.zero_padding, 0u);
  EXPECT_EQ(cell.v_obj->type_index, 65);
  const TVMFFIByteArray* payload = HeapPayload(cell);
  EXPECT_EQ(payload->size, 8u);
  EXPECT_EQ(payload->data, str.data());
  EXPECT_EQ(payload->data[8], '\0');
}

TEST(String, EmptyIsAllZeroSmallStr) {
  TVMFFIAny cell = CellOf(String());
  EXPECT_EQ(cell.type_index, kTVMFFISmallStr);
  EXPECT_EQ(cell.small_str_len, 0u);
  EXPECT_EQ(cell.v_uint64, 0u);
  EXPECT_TRUE(String().empty());
  EXPECT_EQ(String("").size(), 0u);
  EXPECT_EQ(CellOf(String("")).v_uint64, 0u);
}

TEST(String, CStrIsNulTerminated) {
  String small("hi");
  String big("a longer string");
  EXPECT_EQ(small.c_str()[2], '\0');
  EXPECT_EQ(big.c_str()[big.size()], '\0');
  EXPECT_STREQ(big.c_str(), "a longer string");
}

TEST(String, FromPointerAndLengthKeepsEmbeddedNul) {
  const char raw[] = "ab\0cd\0efgh";
  String small(raw, 5);
  String big(raw, 10);
  EXPECT_EQ(small.size(), 5u);
  EXPECT_EQ(std::string(small), std::string(raw, 5));
  EXPECT_EQ(big.size(), 10u);
  EXPECT_EQ(std::string(big), std::string(raw, 10));
  EXPECT_EQ(CellOf(big).type_index, kTVMFFIStr);
}

TEST(String, FromStdStringLvalue) {
  std::string text = "a std::string source";
  String str(text);
  EXPECT_EQ(str, text);
  EXPECT_EQ(text, "a std::string source");
  EXPECT_NE(str.data(), text.data());
}

TEST(String, FromStdStringRvalue) {
  std::string small = "tiny";
  std::string big = "long enough to live on the heap";
  String a(std::move(small));
  String b(std::move(big));
  EXPECT_EQ(a, "tiny");
  EXPECT_EQ(b, "long enough to live on the heap");
  // Apache adopts a moved std::string's buffer in a heap object whatever its size.
  EXPECT_EQ(CellOf(a).type_index, kTVMFFIStr);
  EXPECT_EQ(CellOf(b).type_index, kTVMFFIStr);
  EXPECT_EQ(a.data()[a.size()], '\0');
  EXPECT_EQ(b.data()[b.size()], '\0');
}

TEST(String, FromByteArray) {
  TVMFFIByteArray arr{"hello world", 5};
  String str(arr);
  EXPECT_EQ(str, "hello");
  EXPECT_EQ(str.size(), 5u);
}

TEST(String, CompareWithEveryKind) {
  String str("bbb");
  EXPECT_EQ(str.compare(String("bbb")), 0);
  EXPECT_LT(str.compare(std::string("bbc")), 0);
  EXPECT_GT(str.compare("bba"), 0);
  EXPECT_GT(str.compare("bb"), 0);
  EXPECT_LT(str.compare("bbbb"), 0);
  TVMFFIByteArray arr{"bbb", 3};
  EXPECT_EQ(str.compare(arr), 0);
}

TEST(String, CompareIsSign) {
  String str("hello");
  EXPECT_EQ(str.compare("hello"), 0);
  EXPECT_EQ(str.compare("hallo"), 1);
  EXPECT_EQ(str.compare(String("hzllo")), -1);
  EXPECT_EQ(str.compare(std::string("hell")), 1);
  EXPECT_EQ(str.compare(TVMFFIByteArray{"hello world", 11}), -1);
  EXPECT_EQ(Bytes::memncmp("abc", "abz", 3, 3), -1);
  EXPECT_EQ(Bytes::memncmp("abz", "abc", 3, 3), 1);
}

TEST(String, CompareSeesBytesAfterNul) {
  std::string lhs("aaa\0one", 7);
  std::string rhs("aaa\0two", 7);
  String a(lhs);
  EXPECT_EQ(a.size(), 7u);
  EXPECT_EQ(a.compare(lhs), 0);
  EXPECT_EQ(a.compare(String(rhs)), -1);
  EXPECT_EQ(String(rhs).compare(a), 1);
}

TEST(String, CompareUsesPlainChar) {
  // Apache compares `char`s, so bytes >= 0x80 order by the platform's char signedness.
  String high("\x80");
  int expected = std::is_signed_v<char> ? -1 : 1;
  EXPECT_EQ(high.compare("\x01"), expected);
  EXPECT_EQ(String("\x01").compare(high), -expected);
}

TEST(String, WhichConstructorsAreInline) {
  std::string text = "ab";
  EXPECT_EQ(CellOf(String(text)).type_index, kTVMFFISmallStr);
  EXPECT_EQ(CellOf(String("ab")).type_index, kTVMFFISmallStr);
  EXPECT_EQ(CellOf(String(std::string(text))).type_index, kTVMFFIStr);
  String assigned;
  assigned = std::string("ab");
  EXPECT_EQ(CellOf(assigned).type_index, kTVMFFIStr);
  assigned = text;
  EXPECT_EQ(CellOf(assigned).type_index, kTVMFFISmallStr);
  EXPECT_EQ(CellOf(String("a") + String("b")).type_index, kTVMFFISmallStr);
  EXPECT_EQ(CellOf(String("a") + std::string("b")).type_index, kTVMFFISmallStr);
  EXPECT_EQ(CellOf(std::string("a") + String("b")).type_index, kTVMFFISmallStr);
  EXPECT_EQ(CellOf("a" + String("b")).type_index, kTVMFFISmallStr);
  String joined = String("abcd") + "efgh";
  EXPECT_EQ(CellOf(joined).type_index, kTVMFFIStr);
  EXPECT_EQ(joined, "abcdefgh");
  EXPECT_EQ(joined.data()[joined.size()], '\0');
}

TEST(Bytes, WhichConstructorsAreInline) {
  std::string text = "ab";
  EXPECT_EQ(CellOf(Bytes(text)).type_index, kTVMFFISmallBytes);
  EXPECT_EQ(CellOf(Bytes(std::string(text))).type_index, kTVMFFIBytes);
  Bytes assigned;
  assigned = text;
  EXPECT_EQ(CellOf(assigned).type_index, kTVMFFISmallBytes);
  assigned = std::string("xy");
  EXPECT_EQ(CellOf(assigned).type_index, kTVMFFIBytes);
  EXPECT_EQ(std::string(assigned), "xy");
}

TEST(String, RelationalOperators) {
  String a("apple");
  String b("banana");
  std::string std_b = "banana";
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(b > a);
  EXPECT_TRUE(a <= a);
  EXPECT_TRUE(b >= a);
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(b == std_b);
  EXPECT_TRUE(std_b == b);
  EXPECT_TRUE("apple" == a);
  EXPECT_TRUE(a == "apple");
  EXPECT_TRUE("apple" < b);
  EXPECT_TRUE(std_b > a);
  EXPECT_FALSE(a == "apples");
}

TEST(String, ComparesEmbeddedNulByLength) {
  String with_nul("a\0b", 3);
  String prefix("a");
  EXPECT_NE(with_nul, prefix);
  EXPECT_GT(with_nul, prefix);
}

TEST(String, Concatenation) {
  String a("abc");
  EXPECT_EQ(a + String("def"), "abcdef");
  EXPECT_EQ(a + std::string("defghijk"), "abcdefghijk");
  EXPECT_EQ(std::string("x") + a, "xabc");
  EXPECT_EQ(a + "!", "abc!");
  EXPECT_EQ("<" + a, "<abc");
}

TEST(String, AtChecksBounds) {
  String str("xyz");
  EXPECT_EQ(str.at(0), 'x');
  EXPECT_EQ(str.at(2), 'z');
  EXPECT_THROW(str.at(3), std::out_of_range);
}

TEST(String, FindAndSubstr) {
  String str("hello world, hello");
  EXPECT_EQ(str.find("world"), 6u);
  EXPECT_EQ(str.find("hello", 1), 13u);
  EXPECT_EQ(str.find("absent"), String::npos);
  EXPECT_EQ(str.substr(6, 5), "world");
  EXPECT_EQ(str.substr(13), "hello");
  EXPECT_THROW(str.substr(100), std::out_of_range);
}

TEST(String, StartsWithEndsWith) {
  String str("prefix.body.suffix");
  EXPECT_TRUE(str.starts_with("prefix"));
  EXPECT_TRUE(str.starts_with(std::string_view("pre")));
  EXPECT_TRUE(str.starts_with("prefab", 3));
  EXPECT_FALSE(str.starts_with("body"));
  EXPECT_TRUE(str.ends_with("suffix"));
  EXPECT_TRUE(str.ends_with("fixx", 3));
  EXPECT_FALSE(str.ends_with("a much longer suffix than the string"));
}

TEST(String, SplitKeepsEmptyParts) {
  String str("a,,bc,");
  std::vector<std::string_view> parts = str.Split(',');
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0], "a");
  EXPECT_EQ(parts[1], "");
  EXPECT_EQ(parts[2], "bc");
  EXPECT_EQ(parts[3], "");
}

TEST(String, ConvertsToStdString) {
  String str("convert me please");
  std::string out = str;
  EXPECT_EQ(out, "convert me please");
  std::ostringstream os;
  os << str;
  EXPECT_EQ(os.str(), "convert me please");
}

TEST(String, CopySharesHeapObject) {
  String a("shared heap string");
  TVMFFIObject* obj = CellOf(a).v_obj;
  {
    String b = a;
    EXPECT_EQ(CellOf(b).v_obj, obj);
    EXPECT_EQ(b.data(), a.data());
    EXPECT_EQ(Any(a).as<tvm::ffi::Object>()->use_count(), 3u);
  }
  EXPECT_EQ(Any(a).as<tvm::ffi::Object>()->use_count(), 2u);
}

TEST(String, MoveTransfersObject) {
  String a("moved heap string");
  const char* data = a.data();
  String b(std::move(a));
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(Any(b).as<tvm::ffi::Object>()->use_count(), 2u);
}

TEST(String, AssignFromStdStringAndCStr) {
  String str;
  str = std::string("assigned from std::string");
  EXPECT_EQ(str, "assigned from std::string");
  str = "cstr";
  EXPECT_EQ(str, "cstr");
  EXPECT_EQ(CellOf(str).type_index, kTVMFFISmallStr);
}

TEST(Bytes, SmallIsInline) {
  Bytes bytes("a\0c", 3);
  TVMFFIAny cell = CellOf(bytes);
  EXPECT_EQ(cell.type_index, kTVMFFISmallBytes);
  EXPECT_EQ(cell.type_index, 12);
  EXPECT_EQ(cell.small_str_len, 3u);
  EXPECT_EQ(std::string(cell.v_bytes, 3), std::string("a\0c", 3));
  for (int i = 3; i < 8; ++i) EXPECT_EQ(cell.v_bytes[i], 0) << i;
}

TEST(Bytes, LongIsHeapObject) {
  Bytes bytes(std::string("0123456789abcdef"));
  TVMFFIAny cell = CellOf(bytes);
  EXPECT_EQ(cell.type_index, kTVMFFIBytes);
  EXPECT_EQ(cell.type_index, 66);
  EXPECT_EQ(cell.v_obj->type_index, 66);
  EXPECT_EQ(HeapPayload(cell)->size, 16u);
  EXPECT_EQ(HeapPayload(cell)->data[16], '\0');
}

TEST(Bytes, DefaultIsEmptySmallBytes) {
  TVMFFIAny cell = CellOf(Bytes());
  EXPECT_EQ(cell.type_index, kTVMFFISmallBytes);
  EXPECT_EQ(cell.small_str_len, 0u);
  EXPECT_EQ(cell.v_uint64, 0u);
}

TEST(Bytes, ConstructorsAgree) {
  std::string text("bytes from std::string");
  TVMFFIByteArray arr{text.data(), text.size()};
  EXPECT_EQ(std::string(Bytes(text)), text);
  EXPECT_EQ(std::string(Bytes(arr)), text);
  EXPECT_EQ(std::string(Bytes(text.data(), 5)), "bytes");
  EXPECT_EQ(std::string(Bytes(std::string(text))), text);
}

TEST(Bytes, AssignFromString) {
  Bytes bytes;
  bytes = std::string("assigned bytes value");
  EXPECT_EQ(std::string(bytes), "assigned bytes value");
}

TEST(Bytes, CopySharesHeapObject) {
  Bytes a(std::string("shared heap bytes"));
  Bytes b = a;
  EXPECT_EQ(CellOf(a).v_obj, CellOf(b).v_obj);
  EXPECT_EQ(Any(a).as<tvm::ffi::Object>()->use_count(), 3u);
}

TEST(Bytes, MemncmpAndMemequal) {
  EXPECT_EQ(Bytes::memncmp("abc", "abc", 3, 3), 0);
  EXPECT_LT(Bytes::memncmp("abc", "abd", 3, 3), 0);
  EXPECT_LT(Bytes::memncmp("ab", "abc", 2, 3), 0);
  EXPECT_GT(Bytes::memncmp("abc", "ab", 3, 2), 0);
  EXPECT_TRUE(Bytes::memequal("xy", "xy", 2, 2));
  EXPECT_FALSE(Bytes::memequal("xy", "xy", 2, 1));
  EXPECT_TRUE(Bytes::memequal(nullptr, nullptr, 0, 0));
}

TEST(StringHash, SmallStrMatchesReference) {
  TVMFFIAny cell = CellOf(String("abc"));
  uint64_t expected = RefHashCombine(65, RefHashBytes("abc"));
  EXPECT_EQ(HashOf(cell), expected);
  EXPECT_EQ(HashOf(cell), RefHashCombine(65, cell.v_uint64 % 2147483647ULL));
}

TEST(StringHash, HeapStrMatchesReference) {
  std::string text = "a string spanning several eight byte chunks!";
  EXPECT_EQ(HashOf(CellOf(String(text))), RefHashCombine(65, RefHashBytes(text)));
}

TEST(StringHash, SmallAndHeapFormsOfSameTextAgree) {
  for (std::string text : {"", "a", "abcdefg"}) {
    Any heap = HeapStringCell(text);
    TVMFFIAny heap_cell = AnyView(heap).CopyToTVMFFIAny();
    TVMFFIAny small_cell = CellOf(String(text));
    ASSERT_EQ(heap_cell.type_index, kTVMFFIStr);
    ASSERT_EQ(small_cell.type_index, kTVMFFISmallStr);
    EXPECT_EQ(HashOf(heap_cell), HashOf(small_cell)) << text;
    EXPECT_EQ(HashOf(heap_cell), RefHashCombine(65, RefHashBytes(text))) << text;
  }
}

TEST(StringHash, BytesUseIndex66) {
  std::string small("bin\x01", 4);
  std::string big("binary payload \xff\xfe", 17);
  EXPECT_EQ(HashOf(CellOf(Bytes(small))), RefHashCombine(66, RefHashBytes(small)));
  EXPECT_EQ(HashOf(CellOf(Bytes(big))), RefHashCombine(66, RefHashBytes(big)));
}

TEST(StringHash, StdHashIsStableHashBytes) {
  std::string text = "std::hash of a tvm::ffi::String";
  EXPECT_EQ(std::hash<String>()(String(text)), static_cast<size_t>(RefHashBytes(text)));
  EXPECT_EQ(std::hash<String>()(String("short")), static_cast<size_t>(RefHashBytes("short")));
  EXPECT_EQ(std::hash<Bytes>()(Bytes(text)), static_cast<size_t>(RefHashBytes(text)));
}

TEST(StringHash, WrapAroundMatters) {
  // 16 bytes of 0xff force the multiplication in the second round to overflow uint64.
  std::string text(16, '\xff');
  uint64_t first = 0xffffffffffffffffULL % 2147483647ULL;
  uint64_t expected = (first * 1099511628211ULL + 0xffffffffffffffffULL) % 2147483647ULL;
  EXPECT_EQ(RefHashBytes(text), expected);
  EXPECT_EQ(tvm::ffi::details::StableHashBytes(text.data(), text.size()), expected);
}

TEST(StringCApi, StringFromByteArraySizeRule) {
  TVMFFIByteArray small{"1234567", 7};
  TVMFFIByteArray big{"12345678", 8};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIStringFromByteArray(&small, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFISmallStr);
  EXPECT_EQ(out.small_str_len, 7u);
  ASSERT_EQ(TVMFFIStringFromByteArray(&big, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFIStr);
  Any owned = tvm::ffi::details::AnyUnsafe::MoveTVMFFIAnyToAny(&out);
  EXPECT_EQ(owned.cast<String>(), "12345678");
}

TEST(StringCApi, BytesFromByteArraySizeRule) {
  TVMFFIByteArray small{"\0\1\2", 3};
  TVMFFIByteArray big{"0123456789", 10};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIBytesFromByteArray(&small, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFISmallBytes);
  EXPECT_EQ(out.small_str_len, 3u);
  ASSERT_EQ(TVMFFIBytesFromByteArray(&big, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFIBytes);
  Any owned = tvm::ffi::details::AnyUnsafe::MoveTVMFFIAnyToAny(&out);
  EXPECT_EQ(std::string(owned.cast<Bytes>()), "0123456789");
}

TEST(StringCApi, DataTypeToStringReturnsHeapStr) {
  DLDataType dtype{kDLInt, 8, 1};
  TVMFFIAny out;
  out.type_index = kTVMFFINone;
  out.zero_padding = 0;
  out.v_int64 = 0;
  ASSERT_EQ(TVMFFIDataTypeToString(&dtype, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFIStr);
  Any owned = tvm::ffi::details::AnyUnsafe::MoveTVMFFIAnyToAny(&out);
  EXPECT_EQ(owned.cast<String>(), "int8");
  EXPECT_EQ(HashOf(AnyView(owned).CopyToTVMFFIAny()), HashOf(CellOf(String("int8"))));
}

TEST(StringJSON, EscapesSpecialCharacters) {
  EXPECT_EQ(tvm::ffi::EscapeStringJSON("plain"), "\"plain\"");
  EXPECT_EQ(tvm::ffi::EscapeStringJSON("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(tvm::ffi::EscapeStringJSON("\n\t\r"), "\"\\n\\t\\r\"");
  EXPECT_EQ(tvm::ffi::EscapeStringJSON(String("\x01", 1)), "\"\\u0001\"");
  EXPECT_EQ(tvm::ffi::EscapeStringJSON(""), "\"\"");
}

}  // namespace
