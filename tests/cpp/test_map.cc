// SPDX-License-Identifier: Apache-2.0
// test_map.cc: Map layouts checked by an independent raw-memory reader, Map<K, V> operations,
// copy-on-write, traits and the ffi.Map* global functions.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "test_utils.h"

namespace {

using tvm_ffi_test::ErrorText;

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::Dict;
using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::Map;
using tvm::ffi::String;
using tvm::ffi::TypeTraits;

// ---- an independent reader of the map layouts, written from docs/abi.md, 'Maps and dicts' only

template <typename T>
T Load(const void* base, size_t offset) {
  T value;
  std::memcpy(&value, static_cast<const char*>(base) + offset, sizeof(T));
  return value;
}

/// Probe distance k: 0..15, T(6)..T(72), then T(n) for the sparse n that reference builds use
/// (the list in container/map_base.h, cross-checked by tests/python/test_container_compat.py).
uint64_t RefProbe(unsigned k) {
  if (k < 16) return k;
  constexpr unsigned kConsecutive = 16 + 67;
  uint64_t n =
      k < kConsecutive ? 6 + (k - 16) : tvm::ffi::details::kMapLargeProbeIndex[k - kConsecutive];
  return n * (n + 1) / 2;
}

/// ABI hash of an Int cell: StableHashCombine(1, value).
uint64_t RefIntHash(int64_t v) {
  uint64_t key = 1, value = static_cast<uint64_t>(v);
  return key ^ (value + 0x9e3779b9ULL + (key << 6) + (key >> 2));
}

struct RawEntry {
  TVMFFIAny key;
  TVMFFIAny value;
};

/// Entries in iteration order, read from raw memory.
std::vector<RawEntry> RawEntries(const void* handle) {
  const void* data = Load<const void*>(handle, 24);
  uint64_t size = Load<uint64_t>(handle, 32);
  uint64_t slots = Load<uint64_t>(handle, 40);
  std::vector<RawEntry> out;
  if (slots >> 63) {
    for (uint64_t i = 0; i < size; ++i) {
      out.push_back({Load<TVMFFIAny>(data, i * 32), Load<TVMFFIAny>(data, i * 32 + 16)});
    }
    return out;
  }
  for (uint64_t i = Load<uint64_t>(handle, 64); i != ~0ULL;) {
    size_t item = (i / 16) * (16 + 16 * 48) + 16 + (i % 16) * 48;
    out.push_back({Load<TVMFFIAny>(data, item), Load<TVMFFIAny>(data, item + 16)});
    i = Load<uint64_t>(data, item + 40);
  }
  return out;
}

/// Looks up an int key in a dense map by probing the chain as compiled C++ would.
bool RawDenseLookup(const void* handle, int64_t key, int64_t* value) {
  const unsigned char* data = Load<const unsigned char*>(handle, 24);
  uint64_t slots = Load<uint64_t>(handle, 40);
  uint32_t shift = Load<uint32_t>(handle, 56);
  uint64_t i = (11400714819323198485ULL * RefIntHash(key)) >> shift;
  auto meta = [&](uint64_t s) { return data[(s / 16) * 784 + s % 16]; };
  if (meta(i) & 0x80) return false;
  while (true) {
    size_t item = (i / 16) * 784 + 16 + (i % 16) * 48;
    TVMFFIAny k = Load<TVMFFIAny>(data, item);
    if (k.type_index == 1 && k.v_int64 == key) {
      *value = Load<TVMFFIAny>(data, item + 16).v_int64;
      return true;
    }
    unsigned jump = meta(i) & 0x7F;
    if (jump == 0) return false;
    i = (i + RefProbe(jump)) & (slots - 1);
  }
}

TEST(Map, NewMapIsSmallWithInlinePairs) {
  Map<int64_t, int64_t> m;
  const char* base = reinterpret_cast<const char*>(m.get());
  EXPECT_EQ(Load<int32_t>(base, 8), 72);
  EXPECT_EQ(Load<const char*>(base, 24), base + 56);
  EXPECT_EQ(Load<uint64_t>(base, 40), 2ULL | (1ULL << 63));
  m.Set(5, 50);
  m.Set(6, 60);
  m.Set(7, 70);
  base = reinterpret_cast<const char*>(m.get());
  EXPECT_EQ(Load<uint64_t>(base, 40), 4ULL | (1ULL << 63));
  std::vector<RawEntry> entries = RawEntries(base);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[2].key.v_int64, 7);
  EXPECT_EQ(entries[2].value.v_int64, 70);
  m.Set(8, 80);
  m.Set(9, 90);  // fifth entry: dense
  EXPECT_EQ(Load<uint64_t>(m.get(), 40) >> 63, 0u);
}

TEST(Map, DenseLayoutMatchesIndependentReader) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 1000; ++i) m.Set(i * 7919, i);
  const void* handle = m.get();
  uint64_t slots = Load<uint64_t>(handle, 40);
  ASSERT_EQ(slots >> 63, 0u);
  EXPECT_EQ(slots & (slots - 1), 0u);
  EXPECT_EQ(Load<uint32_t>(handle, 56), 64 - __builtin_ctzll(slots));
  std::vector<RawEntry> entries = RawEntries(handle);
  ASSERT_EQ(entries.size(), 1000u);
  for (int64_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(entries[static_cast<size_t>(i)].key.v_int64, i * 7919);
    int64_t value = -1;
    ASSERT_TRUE(RawDenseLookup(handle, i * 7919, &value));
    EXPECT_EQ(value, i);
  }
  int64_t unused;
  EXPECT_FALSE(RawDenseLookup(handle, 3, &unused));
}

TEST(Map, LargeMapEraseAndReinsert) {
  Map<int64_t, int64_t> m;
  const int64_t n = 100000;
  for (int64_t i = 0; i < n; ++i) m.Set(i, i);
  for (int64_t i = 0; i < n; i += 3) m.erase(i);
  for (int64_t i = 0; i < n; i += 6) m.Set(i, -i);
  EXPECT_EQ(m.size(), static_cast<size_t>(n - (n + 2) / 3 + (n + 5) / 6));
  for (int64_t i = 0; i < n; ++i) {
    bool present = i % 3 != 0 || i % 6 == 0;
    ASSERT_EQ(m.count(i), present ? 1u : 0u) << i;
    int64_t value;
    ASSERT_EQ(RawDenseLookup(m.get(), i, &value), present) << i;
    if (present) {
      EXPECT_EQ(value, i % 6 == 0 ? -i : i);
    }
  }
  EXPECT_EQ(RawEntries(m.get()).size(), m.size());
  for (int64_t i = 0; i < n; ++i) m.erase(i);
  EXPECT_TRUE(m.empty());
  EXPECT_TRUE(RawEntries(m.get()).empty());
}

/// A small-layout map written byte by byte, read through Map<String, int64_t>.
TEST(Map, HandBuiltSmallMapReadsThroughMap) {
  const size_t cap = 3;
  char* block = static_cast<char*>(std::calloc(1, 56 + cap * 32));
  TVMFFIObject* header = reinterpret_cast<TVMFFIObject*>(block);
  header->combined_ref_count = (1ULL << 32) | 1ULL;
  header->type_index = 72;
  header->deleter = [](void* self, int flags) {
    if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
  };
  void* data = block + 56;
  uint64_t size = 2, slots = cap | (1ULL << 63);
  std::memcpy(block + 24, &data, 8);
  std::memcpy(block + 32, &size, 8);
  std::memcpy(block + 40, &slots, 8);
  TVMFFIAny* cells = reinterpret_cast<TVMFFIAny*>(data);
  cells[0].type_index = 11;  // SmallStr "ab"
  cells[0].small_str_len = 2;
  std::memcpy(cells[0].v_bytes, "ab", 2);
  cells[1].type_index = 1;
  cells[1].v_int64 = 42;
  cells[2].type_index = 11;
  cells[2].small_str_len = 1;
  cells[2].v_bytes[0] = 'z';
  cells[3].type_index = 1;
  cells[3].v_int64 = 7;
  TVMFFIAny cell{};
  cell.type_index = 72;
  cell.v_obj = header;
  Map<String, int64_t> m = tvm::ffi::AnyView::CopyFromTVMFFIAny(cell).cast<Map<String, int64_t>>();
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.at("ab"), 42);
  EXPECT_EQ(m.at(String(std::string("z"))), 7);
  EXPECT_EQ(m.count("zz"), 0u);
  std::vector<std::string> keys;
  for (const auto& kv : m) keys.push_back(kv.first);
  EXPECT_EQ(keys, (std::vector<std::string>{"ab", "z"}));
  m.Set("q", 1);  // shared with `header`'s own reference: copies
  EXPECT_EQ(Load<uint64_t>(header, 32), 2u);
  EXPECT_EQ(m.size(), 3u);
  TVMFFIObjectDecRef(header);
}

TEST(Map, StringKeysMatchByContent) {
  Map<String, int> m;
  m.Set(String(std::string("a long string key")), 1);
  m.Set("short", 2);
  EXPECT_EQ(m.at("a long string key"), 1);
  EXPECT_EQ(m.count(String("short")), 1u);
  Map<Any, int> anys;
  anys.Set(Any(String("k")), 3);
  EXPECT_EQ(anys.count(Any("k")), 1u);
  EXPECT_EQ(anys.count(Any(tvm::ffi::Bytes("k"))), 0u);
}

TEST(Map, OperationsAndErrors) {
  Map<String, int> m{{"a", 1}, {"b", 2}, {"c", 3}};
  EXPECT_EQ(m.at("b"), 2);
  EXPECT_EQ(m["c"], 3);
  EXPECT_EQ(ErrorText([&] { (void)m.at("z"); }), "KeyError: key is not in Map");
  EXPECT_EQ(m.Get("a"), std::optional<int>(1));
  EXPECT_FALSE(m.Get("z").has_value());
  EXPECT_EQ((*m.find("c")).second, 3);
  EXPECT_EQ(m.find("z"), m.end());
  m.erase("a");
  m.erase("zzz");
  std::vector<std::string> order;
  for (auto kv : m) order.push_back(kv.first);
  EXPECT_EQ(order, (std::vector<std::string>{"b", "c"}));
  m.clear();
  EXPECT_TRUE(m.empty());
  std::unordered_map<String, int> src{{"x", 9}};
  EXPECT_EQ((Map<String, int>(src).at("x")), 9);
  Map<String, int> merged = tvm::ffi::Merge(Map<String, int>{{"x", 1}}, Map<String, int>{{"x", 2}});
  EXPECT_EQ(merged.at("x"), 2);
}

TEST(Map, CopyOnWrite) {
  Map<int, int> a{{1, 1}};
  Map<int, int> b = a;
  EXPECT_TRUE(a.same_as(b));
  b.Set(2, 2);
  EXPECT_FALSE(a.same_as(b));
  EXPECT_EQ(a.size(), 1u);
  Map<int, int> big;
  for (int i = 0; i < 50; ++i) big.Set(i, i);
  Map<int, int> big2 = big;
  big2.erase(10);
  EXPECT_EQ(big.size(), 50u);
  EXPECT_EQ(big2.size(), 49u);
  EXPECT_EQ(big.at(10), 10);
}

TEST(Map, TraitsAndMismatch) {
  EXPECT_EQ((TypeTraits<Map<String, int>>::TypeStr()), "Map<str, int>");
  EXPECT_EQ((TypeTraits<Map<String, int>>::TypeSchema()),
            "{\"type\":\"ffi.Map\",\"args\":[{\"type\":\"ffi.String\"},{\"type\":\"int\"}]}");
  Any value = Map<Any, Any>{{String("a"), 1.5}};
  const TVMFFIAny* cell = tvm::ffi::details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
  EXPECT_EQ((TypeTraits<Map<String, int>>::GetMismatchTypeInfo(cell)),
            "Map[K, some value is float]");
  EXPECT_EQ((TypeTraits<Map<int, double>>::GetMismatchTypeInfo(cell)),
            "Map[some key is ffi.SmallStr, V]");
  Map<String, double> converted = value.cast<Map<String, double>>();
  EXPECT_EQ(converted.at("a"), 1.5);
  Any dict = Dict<String, int>{{"d", 4}};
  EXPECT_EQ((dict.cast<Map<String, int>>().at("d")), 4);
  EXPECT_FALSE((Any(nullptr).try_cast<Map<int, int>>().has_value()));
}

TEST(Map, ConversionMismatchNamesTheEntry) {
  Any map = Map<Any, Any>{{11, 1.5}};
  EXPECT_EQ(ErrorText([&] { map.cast<Map<int64_t, int64_t>>(); }),
            "TypeError: Cannot convert from type `Map[K, some value is float]` to `Map<int, int>`");
  EXPECT_EQ(ErrorText([&] { map.cast<Map<String, double>>(); }),
            "TypeError: Cannot convert from type `Map[some key is int, V]` to `Map<str, float>`");
  // Named after the target type, whichever map kind the source is.
  EXPECT_EQ(ErrorText([&] { map.cast<Dict<int64_t, String>>(); }),
            "TypeError: Cannot convert from type `Dict[K, some value is float]` to "
            "`Dict<int, str>`");
  Any dict = Dict<Any, Any>{{String("k"), 1}};
  EXPECT_EQ(ErrorText([&] { dict.cast<Map<int64_t, int64_t>>(); }),
            "TypeError: Cannot convert from type `Map[some key is ffi.SmallStr, V]` to "
            "`Map<int, int>`");
}

TEST(Map, GlobalFunctions) {
  auto global = [](const char* name) { return Function::GetGlobalRequired(name); };
  Any m = global("ffi.Map")("a", 1, "b", 2, "a", 3);
  EXPECT_EQ(m.type_index(), 72);
  EXPECT_EQ(global("ffi.MapSize")(m).cast<int64_t>(), 2);
  EXPECT_EQ(global("ffi.MapGetItem")(m, "a").cast<int64_t>(), 3);
  EXPECT_EQ(ErrorText([&] { global("ffi.MapGetItem")(m, "z"); }), "KeyError: key is not in Map");
  EXPECT_EQ(global("ffi.MapCount")(m, "b").cast<int64_t>(), 1);
  Any missing = global("ffi.MapGetItemOrMissing")(m, "z");
  Any invalid = global("ffi.GetInvalidObject")();
  EXPECT_TRUE(missing.same_as(invalid.cast<tvm::ffi::ObjectRef>()));
  EXPECT_EQ(invalid.type_index(), 64);
  EXPECT_TRUE(global("ffi.GetInvalidObject")().same_as(invalid));
  EXPECT_FALSE(global("ffi.GetKwargsObject")().same_as(invalid));
  EXPECT_EQ(global("ffi.MapGetItemOrMissing")(m, "b").cast<int64_t>(), 2);
  Function it = global("ffi.MapForwardIterFunctor")(m).cast<Function>();
  EXPECT_TRUE(it(3).cast<bool>());
  EXPECT_EQ(it(0).cast<String>(), "a");
  EXPECT_EQ(it(1).cast<int64_t>(), 3);
  EXPECT_TRUE(it(2).cast<bool>());
  EXPECT_EQ(it(0).cast<String>(), "b");
  EXPECT_FALSE(it(2).cast<bool>());
  EXPECT_FALSE(it(3).cast<bool>());
  EXPECT_EQ(ErrorText([&] { global("ffi.Map")(1); }),
            "ValueError: ffi.Map(): expected key/value pairs, got 1 arguments");
  Array<String> keys = global("ffi.GetRegisteredTypeKeys")().cast<Array<String>>();
  bool found = false;
  for (String key : keys) found = found || key == "ffi.Map";
  EXPECT_TRUE(found);
}

// ---- keys whose type registers __any_hash__ / __any_equal__: equal payload = same key

/// A key object compared by payload through OpaquePtr type attrs (C++ function pointers).
class PtrKeyObj : public tvm::ffi::Object {
 public:
  explicit PtrKeyObj(int64_t payload) : payload(payload) {}
  int64_t payload;
  TVM_FFI_DECLARE_OBJECT_INFO("test_map.PtrKey", PtrKeyObj, tvm::ffi::Object);
};

/// The same, but through Function type attrs.
class FuncKeyObj : public tvm::ffi::Object {
 public:
  explicit FuncKeyObj(int64_t payload) : payload(payload) {}
  int64_t payload;
  TVM_FFI_DECLARE_OBJECT_INFO("test_map.FuncKey", FuncKeyObj, tvm::ffi::Object);
};

/// Payload hash with a poor spread (payload / 4) so dense chains hold several keys. Native
/// hooks return their result (or an Error) in an owned cell, as Apache 0.1.15's headers call them.
TVMFFIAny PtrKeyHash(const Any& key) noexcept {
  int64_t payload = key.as<PtrKeyObj>()->payload;
  if (payload < 0) {
    Any error = tvm::ffi::Error("ValueError", "negative key", "");
    return tvm::ffi::details::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(error));
  }
  return tvm::ffi::AnyView(payload / 4).CopyToTVMFFIAny();
}
TVMFFIAny PtrKeyEqual(const Any& lhs, const Any& rhs) noexcept {
  bool equal = lhs.as<PtrKeyObj>()->payload == rhs.as<PtrKeyObj>()->payload;
  return tvm::ffi::AnyView(equal).CopyToTVMFFIAny();
}

void RegisterAttr(int32_t type_index, const char* name, TVMFFIAny value) {
  TVMFFIByteArray key{name, std::strlen(name)};
  ASSERT_EQ(TVMFFITypeRegisterAttr(type_index, &key, &value), 0);
}

void RegisterKeyAttrsOnce() {
  static bool done = false;
  if (done) return;
  done = true;
  TVMFFIAny hash_ptr{};
  hash_ptr.type_index = tvm::ffi::TypeIndex::kTVMFFIOpaquePtr;
  hash_ptr.v_ptr = reinterpret_cast<void*>(&PtrKeyHash);
  TVMFFIAny equal_ptr{};
  equal_ptr.type_index = tvm::ffi::TypeIndex::kTVMFFIOpaquePtr;
  equal_ptr.v_ptr = reinterpret_cast<void*>(&PtrKeyEqual);
  RegisterAttr(PtrKeyObj::RuntimeTypeIndex(), "__any_hash__", hash_ptr);
  RegisterAttr(PtrKeyObj::RuntimeTypeIndex(), "__any_equal__", equal_ptr);
  // The registry keeps its own reference to the functions (the cells are borrowed here).
  Function hash_fn =
      Function::FromTyped([](Any key) -> int64_t { return key.as<FuncKeyObj>()->payload / 4; });
  Function equal_fn = Function::FromTyped([](Any lhs, Any rhs) -> bool {
    return lhs.as<FuncKeyObj>()->payload == rhs.as<FuncKeyObj>()->payload;
  });
  RegisterAttr(FuncKeyObj::RuntimeTypeIndex(), "__any_hash__",
               tvm::ffi::AnyView(hash_fn).CopyToTVMFFIAny());
  RegisterAttr(FuncKeyObj::RuntimeTypeIndex(), "__any_equal__",
               tvm::ffi::AnyView(equal_fn).CopyToTVMFFIAny());
}

template <typename KeyObj>
Any NewKey(int64_t payload) {
  return Any(tvm::ffi::ObjectRef(tvm::ffi::make_object<KeyObj>(payload)));
}

/// Set/Find/count on Map and Dict with n distinct payloads (small for n <= 4, dense above),
/// always probing with fresh objects that are distinct from the stored ones.
template <typename KeyObj, typename TMap>
void CheckPayloadKeys(int64_t n) {
  RegisterKeyAttrsOnce();
  TMap m;
  for (int64_t i = 0; i < n; ++i) m.Set(NewKey<KeyObj>(i), Any(i));
  ASSERT_EQ(m.size(), static_cast<size_t>(n));
  EXPECT_EQ(m->IsSmall(), n <= 4) << "n=" << n;
  Any first = NewKey<KeyObj>(0);
  Any again = NewKey<KeyObj>(0);
  EXPECT_FALSE(first.same_as(again));
  for (int64_t i = 0; i < n; ++i) {
    Any probe = NewKey<KeyObj>(i);
    EXPECT_EQ(m.count(probe), 1u) << "n=" << n << " i=" << i;
    auto it = m.find(probe);
    ASSERT_NE(it, m.end()) << "n=" << n << " i=" << i;
    EXPECT_EQ((*it).second.template cast<int64_t>(), i);
    EXPECT_EQ(m.at(probe).template cast<int64_t>(), i);
  }
  EXPECT_EQ(m.count(NewKey<KeyObj>(n)), 0u);
  EXPECT_EQ(m.count(Any(int64_t{0})), 0u);  // other types never match through the attrs
  // Setting an equal but distinct key overwrites in place: same size, same order.
  for (int64_t i = 0; i < n; ++i) m.Set(NewKey<KeyObj>(i), Any(i + 100));
  ASSERT_EQ(m.size(), static_cast<size_t>(n));
  int64_t expect = 0;
  for (auto kv : m) {
    EXPECT_EQ(kv.first.template as<KeyObj>()->payload, expect);
    EXPECT_EQ(kv.second.template cast<int64_t>(), expect + 100);
    ++expect;
  }
  EXPECT_EQ(expect, n);
  m.erase(NewKey<KeyObj>(0));
  EXPECT_EQ(m.count(NewKey<KeyObj>(0)), 0u);
  EXPECT_EQ(m.size(), static_cast<size_t>(n - 1));
}

TEST(Map, TypeAttrKeysOpaquePtrSmallAndDense) {
  for (int64_t n : {1, 3, 4, 5, 9, 40}) {
    CheckPayloadKeys<PtrKeyObj, Map<Any, Any>>(n);
    CheckPayloadKeys<PtrKeyObj, Dict<Any, Any>>(n);
  }
}

TEST(Map, TypeAttrKeyHookErrorIsThrown) {
  RegisterKeyAttrsOnce();
  Dict<Any, Any> dict;
  for (int64_t i = 0; i < 8; ++i) dict.Set(NewKey<PtrKeyObj>(i), Any(i));
  try {
    dict.Set(NewKey<PtrKeyObj>(-1), Any(0));
    FAIL() << "expected the hook's ValueError";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), "ValueError");
    EXPECT_EQ(err.message(), "negative key");
  }
  EXPECT_EQ(dict.size(), 8u);
}

TEST(Map, TypeAttrKeysFunctionSmallAndDense) {
  for (int64_t n : {1, 3, 4, 5, 9, 40}) {
    CheckPayloadKeys<FuncKeyObj, Map<Any, Any>>(n);
    CheckPayloadKeys<FuncKeyObj, Dict<Any, Any>>(n);
  }
}

/// Presized construction through ffi.Map / ffi.Dict: later duplicates (equal payload,
/// distinct object) still win and the first insertion fixes the order.
template <typename TMap>
void CheckGlobalConstructor(const char* name) {
  RegisterKeyAttrsOnce();
  Function make = Function::GetGlobalRequired(name);
  TMap small = make(NewKey<PtrKeyObj>(1), 1, NewKey<PtrKeyObj>(1), 2).template cast<TMap>();
  EXPECT_EQ(small.size(), 1u);
  EXPECT_EQ(small.at(NewKey<PtrKeyObj>(1)).template cast<int64_t>(), 2);
  std::vector<Any> holders;
  for (int64_t i = 0; i < 12; ++i) {
    holders.push_back(NewKey<FuncKeyObj>(i % 6));
    holders.emplace_back(i);
  }
  std::vector<tvm::ffi::AnyView> args(holders.begin(), holders.end());
  Any out;
  make.CallPacked(args.data(), static_cast<int32_t>(args.size()), &out);
  TMap d = out.cast<TMap>();
  ASSERT_EQ(d.size(), 6u);
  EXPECT_FALSE(d->IsSmall());
  int64_t expect = 0;
  for (auto kv : d) {
    EXPECT_EQ(kv.first.template as<FuncKeyObj>()->payload, expect);
    EXPECT_EQ(kv.second.template cast<int64_t>(), expect + 6);
    ++expect;
  }
}

TEST(Map, TypeAttrKeysThroughGlobalConstructor) {
  CheckGlobalConstructor<Map<Any, Any>>("ffi.Map");
  CheckGlobalConstructor<Dict<Any, Any>>("ffi.Dict");
}

}  // namespace

TEST(MapLayout, ProbeTableMatchesReferenceDistances) {
  EXPECT_EQ(tvm::ffi::details::kMapProbeTable.dist[0], 0u);
  EXPECT_EQ(tvm::ffi::details::kMapProbeTable.dist[16], 21u);
  EXPECT_EQ(tvm::ffi::details::kMapProbeTable.dist[82], 2628u);
  EXPECT_EQ(tvm::ffi::details::kMapProbeTable.dist[83], 8515u);
  EXPECT_EQ(tvm::ffi::details::kMapProbeTable.dist[84], 19110u);
  for (unsigned k = 0; k < 126; ++k)
    EXPECT_EQ(tvm::ffi::details::kMapProbeTable.dist[k], RefProbe(k));
}

// ---- freeing nested containers

TEST(MapLifetime, MillionDeepNestingIsFreedWithoutRecursion) {
  Any chain = Map<Any, Any>();
  for (int i = 0; i < 1000000; ++i) {
    switch (i % 4) {
      case 0:  // small layout, nested as a value
        chain = Map<Any, Any>{{String("next"), std::move(chain)}};
        break;
      case 1:  // dense layout (more than 4 entries)
        chain = Dict<Any, Any>{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, std::move(chain)}};
        break;
      case 2:  // nested as a key
        chain = Map<Any, Any>{{std::move(chain), 0}};
        break;
      default:
        chain = Array<Any>{std::move(chain)};
    }
  }
  chain = nullptr;  // one recursion level per nesting would overflow the stack here
  EXPECT_EQ(chain.type_index(), kTVMFFINone);
}

TEST(MapLifetime, NestedMapsReleaseWhatTheyHoldOnce) {
  Function payload = Function::FromTyped([]() { return 1; });
  Map<Any, Any> shared{{String("p"), payload}};
  {
    Dict<Any, Any> outer{{String("a"), Map<Any, Any>{{payload, shared}}},
                         {String("b"), shared},
                         {String("c"), Array<Any>{Dict<Any, Any>{{1, payload}}}}};
    EXPECT_EQ(payload.use_count(), 4);
    EXPECT_EQ(shared.use_count(), 3);
  }
  EXPECT_EQ(shared.use_count(), 1);  // shared elsewhere: released, not emptied
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_TRUE(shared[String("p")].cast<Function>().same_as(payload));
  EXPECT_EQ(payload.use_count(), 2);  // payload and shared["p"]
}
