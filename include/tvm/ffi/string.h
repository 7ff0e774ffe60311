// SPDX-License-Identifier: Apache-2.0
// string.h: String and Bytes, 16-byte cells holding small text inline and longer text in objects.
#ifndef TVM_FFI_STRING_H_
#define TVM_FFI_STRING_H_

#include <tvm/ffi/base_details.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cstring>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/// Shared layout of string and bytes objects: header + TVMFFIByteArray (data, size).
class BytesObjBase : public Object, public TVMFFIByteArray {};

/// Heap string object (index 65, ffi.String); data[size] is always 0.
class StringObj : public BytesObjBase {
 public:
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIStr;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIStr, StringObj, Object);
};

/// Heap bytes object (index 66, ffi.Bytes); data[size] is always 0.
class BytesObj : public BytesObjBase {
 public:
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIBytes;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIBytes, BytesObj, Object);
};

namespace details {

/// Where Apache TVM FFI declares them (tvm::ffi::detail::StringObj), for code naming them so.
using StringObj = ::tvm::ffi::StringObj;
using BytesObj = ::tvm::ffi::BytesObj;

/// A string or bytes object that owns a std::string buffer.
template <typename Base>
class BytesObjFromStd : public Base {
 public:
  explicit BytesObjFromStd(std::string other) : buffer_(std::move(other)) {
    this->data = buffer_.data();
    this->size = buffer_.size();
  }

 private:
  std::string buffer_;
};

/// The 16-byte cell shared by String and Bytes; owns one reference when it holds an object.
template <int32_t kSmallIndex, typename ObjType>
class BytesCell {
 public:
  BytesCell() { ResetPODCell(&cell_, kSmallIndex); }
  BytesCell(const char* data, size_t size) { Init(data, size); }
  explicit BytesCell(std::string&& other) {
    if (other.size() <= kMaxSmallSize) {
      Init(other.data(), other.size());
    } else {
      StoreObject(make_object<BytesObjFromStd<ObjType>>(std::move(other)));
    }
  }
  BytesCell(const BytesCell& other) : cell_(other.cell_) { IncRefIfObject(); }
  BytesCell(BytesCell&& other) noexcept : cell_(other.cell_) {
    ResetPODCell(&other.cell_, kSmallIndex);
  }
  BytesCell& operator=(const BytesCell& other) {
    BytesCell(other).swap(*this);
    return *this;
  }
  BytesCell& operator=(BytesCell&& other) noexcept {
    BytesCell(std::move(other)).swap(*this);
    return *this;
  }
  ~BytesCell() {
    if (IsObject()) ObjectUnsafe::DecRefObjectHandle(cell_.v_obj);
  }
  void swap(BytesCell& other) noexcept { std::swap(cell_, other.cell_); }

  const char* data() const { return IsObject() ? Obj()->data : cell_.v_bytes; }
  size_t size() const { return IsObject() ? Obj()->size : cell_.small_str_len; }
  /// Adopts an owning cell of this kind (used by TypeTraits).
  static BytesCell FromCell(const TVMFFIAny& cell, bool add_ref) {
    BytesCell out;
    out.cell_ = cell;
    if (add_ref) out.IncRefIfObject();
    return out;
  }
  const TVMFFIAny& cell() const { return cell_; }
  TVMFFIAny ReleaseCell() {
    TVMFFIAny out = cell_;
    ResetPODCell(&cell_, kSmallIndex);
    return out;
  }

  static constexpr size_t kMaxSmallSize = 7;

 private:
  bool IsObject() const { return cell_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin; }
  const TVMFFIByteArray* Obj() const {
    return reinterpret_cast<const TVMFFIByteArray*>(reinterpret_cast<const char*>(cell_.v_obj) +
                                                    sizeof(TVMFFIObject));
  }
  void IncRefIfObject() {
    if (IsObject()) ObjectUnsafe::IncRefObjectHandle(cell_.v_obj);
  }
  void Init(const char* data, size_t size) {
    if (size <= kMaxSmallSize) {
      ResetPODCell(&cell_, kSmallIndex);
      cell_.small_str_len = static_cast<uint32_t>(size);
      if (size != 0) std::memcpy(cell_.v_bytes, data, size);
      return;
    }
    ObjectPtr<ObjType> ptr = make_inplace_array_object<ObjType, char>(size + 1);
    char* dest = reinterpret_cast<char*>(ptr.get()) + sizeof(ObjType);
    std::memcpy(dest, data, size);
    dest[size] = '\0';
    ptr->data = dest;
    ptr->size = size;
    StoreObject(std::move(ptr));
  }
  template <typename T>
  void StoreObject(ObjectPtr<T> ptr) {
    cell_.type_index = ObjType::_type_index;
    cell_.zero_padding = 0;
    cell_.v_obj = static_cast<TVMFFIObject*>(ObjectUnsafe::MoveObjectPtrToHandle(std::move(ptr)));
  }

  TVMFFIAny cell_;
};

/// Content comparison used by String and Bytes.
inline int BytesCompare(const char* lhs, size_t lhs_size, const char* rhs, size_t rhs_size) {
  size_t n = lhs_size < rhs_size ? lhs_size : rhs_size;
  int result = n == 0 ? 0 : std::memcmp(lhs, rhs, n);
  if (result != 0) return result;
  if (lhs_size == rhs_size) return 0;
  return lhs_size < rhs_size ? -1 : 1;
}

}  // namespace details

template <typename T, int32_t kSmallIndex, int32_t kObjectIndex>
struct BytesLikeTypeTraits;

/// Immutable bytes: inline up to 7 bytes, otherwise a Bytes object.
class Bytes {
 public:
  Bytes() = default;
  Bytes(const char* data, size_t size) : cell_(data, size) {}
  explicit Bytes(TVMFFIByteArray arr) : cell_(arr.data, arr.size) {}
  Bytes(const std::string& other) : cell_(other.data(), other.size()) {}  // NOLINT(*)
  Bytes(std::string&& other) : cell_(std::move(other)) {}                 // NOLINT(*)
  template <typename T, typename = std::enable_if_t<std::is_convertible_v<T, std::string>>>
  Bytes& operator=(T&& other) {
    *this = Bytes(std::string(std::forward<T>(other)));
    return *this;
  }
  Bytes(const Bytes&) = default;
  Bytes(Bytes&&) = default;
  Bytes& operator=(const Bytes&) = default;
  Bytes& operator=(Bytes&&) = default;

  const char* data() const { return cell_.data(); }
  size_t size() const { return cell_.size(); }
  operator std::string() const { return std::string(data(), size()); }  // NOLINT(*)
  /// Three-way comparison of raw memory of possibly different lengths.
  static int memncmp(const char* lhs, const char* rhs, size_t lhs_count, size_t rhs_count) {
    return details::BytesCompare(lhs, lhs_count, rhs, rhs_count);
  }
  /// Whether two runs of bytes are equal.
  static bool memequal(const void* lhs, const void* rhs, size_t lhs_count, size_t rhs_count) {
    return lhs_count == rhs_count && (lhs_count == 0 || std::memcmp(lhs, rhs, lhs_count) == 0);
  }

 private:
  using Cell = details::BytesCell<TypeIndex::kTVMFFISmallBytes, BytesObj>;
  explicit Bytes(Cell cell) : cell_(std::move(cell)) {}
  Cell cell_;
  friend struct TypeTraits<Bytes>;
  template <typename, int32_t, int32_t>
  friend struct BytesLikeTypeTraits;
};

/// Immutable string: inline up to 7 bytes, otherwise a String object; NUL-terminated.
class String {
 public:
  static constexpr size_t npos = std::string::npos;

  String() = default;
  String(std::nullptr_t) = delete;                                 // NOLINT(*)
  String(const char* other) : cell_(other, std::strlen(other)) {}  // NOLINT(*)
  String(const char* data, size_t size) : cell_(data, size) {}
  String(const std::string& other) : cell_(other.data(), other.size()) {}  // NOLINT(*)
  String(std::string&& other) : cell_(std::move(other)) {}                 // NOLINT(*)
  String(std::string_view other) : cell_(other.data(), other.size()) {}    // NOLINT(*)
  explicit String(TVMFFIByteArray arr) : cell_(arr.data, arr.size) {}
  String(const String&) = default;
  String(String&&) = default;
  String& operator=(const String&) = default;
  String& operator=(String&&) = default;
  String& operator=(const std::string& other) { return *this = String(other); }
  String& operator=(const char* other) { return *this = String(other); }

  const char* data() const { return cell_.data(); }
  const char* c_str() const { return cell_.data(); }
  size_t size() const { return cell_.size(); }
  size_t length() const { return size(); }
  bool empty() const { return size() == 0; }
  /// The character at pos; throws std::out_of_range past the end.
  char at(size_t pos) const {
    if (pos >= size()) throw std::out_of_range("tvm::ffi::String index out of bounds");
    return data()[pos];
  }
  int compare(const String& other) const { return compare(other.data(), other.size()); }
  int compare(const std::string& other) const { return compare(other.data(), other.size()); }
  int compare(const char* other) const { return compare(other, std::strlen(other)); }
  int compare(const TVMFFIByteArray& other) const { return compare(other.data, other.size); }
  operator std::string() const { return std::string(data(), size()); }  // NOLINT(*)
  std::string_view view() const { return std::string_view(data(), size()); }
  void swap(String& other) noexcept { cell_.swap(other.cell_); }

  size_t find(std::string_view needle, size_t pos = 0) const { return view().find(needle, pos); }
  size_t find(char ch, size_t pos = 0) const { return view().find(ch, pos); }
  String substr(size_t pos = 0, size_t count = npos) const {
    if (pos > size()) throw std::out_of_range("tvm::ffi::String::substr out of range");
    return String(view().substr(pos, count));
  }
  bool starts_with(std::string_view prefix) const {
    return view().substr(0, prefix.size()) == prefix;
  }
  bool starts_with(const char* prefix, size_t n) const {
    return starts_with(std::string_view(prefix, n));
  }
  bool ends_with(std::string_view suffix) const {
    return size() >= suffix.size() && view().substr(size() - suffix.size()) == suffix;
  }
  bool ends_with(const char* suffix, size_t n) const {
    return ends_with(std::string_view(suffix, n));
  }
  /// Splits on delim; the views borrow this string.
  std::vector<std::string_view> Split(char delim) const {
    std::vector<std::string_view> parts;
    std::string_view rest = view();
    for (size_t cut = rest.find(delim); cut != npos; cut = rest.find(delim)) {
      parts.push_back(rest.substr(0, cut));
      rest = rest.substr(cut + 1);
    }
    parts.push_back(rest);
    return parts;
  }

 private:
  using Cell = details::BytesCell<TypeIndex::kTVMFFISmallStr, StringObj>;
  explicit String(Cell cell) : cell_(std::move(cell)) {}
  int compare(const char* other, size_t n) const {
    return details::BytesCompare(data(), size(), other, n);
  }
  Cell cell_;
  friend struct TypeTraits<String>;
  template <typename, int32_t, int32_t>
  friend struct BytesLikeTypeTraits;
};

inline String operator+(const String& lhs, const String& rhs) {
  return String(std::string(lhs) + std::string(rhs));
}
inline String operator+(const String& lhs, const std::string& rhs) {
  return String(std::string(lhs) + rhs);
}
inline String operator+(const std::string& lhs, const String& rhs) {
  return String(lhs + std::string(rhs));
}
inline String operator+(const String& lhs, const char* rhs) {
  return String(std::string(lhs) + rhs);
}
inline String operator+(const char* lhs, const String& rhs) {
  return String(lhs + std::string(rhs));
}

// Op is an operator token.  NOLINTBEGIN(bugprone-macro-parentheses)
#define TVM_FFI_STRING_COMPARE_OP_(Op)                                                            \
  inline bool operator Op(const String& lhs, const String& rhs) { return lhs.compare(rhs) Op 0; } \
  inline bool operator Op(const String& lhs, const std::string& rhs) {                            \
    return lhs.compare(rhs) Op 0;                                                                 \
  }                                                                                               \
  inline bool operator Op(const std::string& lhs, const String& rhs) {                            \
    return 0 Op rhs.compare(lhs);                                                                 \
  }                                                                                               \
  inline bool operator Op(const String& lhs, const char* rhs) { return lhs.compare(rhs) Op 0; }   \
  inline bool operator Op(const char* lhs, const String& rhs) { return 0 Op rhs.compare(lhs); }
// NOLINTEND(bugprone-macro-parentheses)
TVM_FFI_STRING_COMPARE_OP_(==)
TVM_FFI_STRING_COMPARE_OP_(!=)
TVM_FFI_STRING_COMPARE_OP_(<)
TVM_FFI_STRING_COMPARE_OP_(>)
TVM_FFI_STRING_COMPARE_OP_(<=)
TVM_FFI_STRING_COMPARE_OP_(>=)
#undef TVM_FFI_STRING_COMPARE_OP_
bool operator==(const String&, std::nullptr_t) = delete;
bool operator!=(const String&, std::nullptr_t) = delete;

inline std::ostream& operator<<(std::ostream& os, const String& str) {
  return os.write(str.data(), static_cast<std::streamsize>(str.size()));
}

/// The string as a string_view of a TVMFFIByteArray.
inline std::string_view ToStringView(TVMFFIByteArray arr) {
  return std::string_view(arr.data, arr.size);
}

/// Escapes a string as a JSON string literal (with quotes).
inline String EscapeStringJSON(const String& value) {
  std::string out = "\"";
  for (char ch : value.view()) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(ch));
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return String(std::move(out));
}
/// Deprecated spelling of EscapeStringJSON.
inline String EscapeString(const String& value) { return EscapeStringJSON(value); }

/// Traits shared by String and Bytes.
template <typename T, int32_t kSmallIndex, int32_t kObjectIndex>
struct BytesLikeTypeTraits : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = kObjectIndex;
  static void CopyToAnyView(const T& src, TVMFFIAny* result) { *result = src.cell_.cell(); }
  static void MoveToAny(T src, TVMFFIAny* result) { *result = src.cell_.ReleaseCell(); }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kSmallIndex || src->type_index == kObjectIndex;
  }
  static T CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return T(T::Cell::FromCell(*src, true));
  }
  static T MoveFromAnyAfterCheck(TVMFFIAny* src) {
    T out(T::Cell::FromCell(*src, false));
    details::ResetPODCell(src, TypeIndex::kTVMFFINone);
    return out;
  }
};

template <>
struct TypeTraits<String>
    : public BytesLikeTypeTraits<String, TypeIndex::kTVMFFISmallStr, TypeIndex::kTVMFFIStr> {
  static std::optional<String> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == TypeIndex::kTVMFFIRawStr) return String(src->v_c_str);
    return std::nullopt;
  }
  static std::string TypeStr() { return "str"; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIStr); }
};

template <>
struct TypeTraits<Bytes>
    : public BytesLikeTypeTraits<Bytes, TypeIndex::kTVMFFISmallBytes, TypeIndex::kTVMFFIBytes> {
  static std::optional<Bytes> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == TypeIndex::kTVMFFIByteArrayPtr) {
      return Bytes(*static_cast<const TVMFFIByteArray*>(src->v_ptr));
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "bytes"; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIBytes); }
};

/// Traits of raw C strings: a borrowed RawStr view, a String when owned.
struct RawStrTypeTraitsBase : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIRawStr;
  static void CopyToAnyView(const char* src, TVMFFIAny* result) {
    TVM_FFI_ICHECK(src != nullptr) << "Cannot pass a null const char* as a string";
    details::ResetPODCell(result, TypeIndex::kTVMFFIRawStr);
    result->v_c_str = src;
  }
  static void MoveToAny(const char* src, TVMFFIAny* result) {
    TVM_FFI_ICHECK(src != nullptr) << "Cannot pass a null const char* as a string";
    TypeTraits<String>::MoveToAny(String(src), result);
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIRawStr; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIStr); }
};

template <>
struct TypeTraits<const char*> : public RawStrTypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIRawStr;
  }
  static const char* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return src->v_c_str; }
  static std::optional<const char*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return src->v_c_str;
    return std::nullopt;
  }
};

template <>
struct TypeTraits<char*> : public TypeTraits<const char*> {};

template <size_t N>
struct TypeTraits<char[N]> : public RawStrTypeTraitsBase {
  static constexpr bool storage_enabled = false;
};

/// std::string: a RawStr view of c_str(); accepts every string and bytes cell.
template <>
struct TypeTraits<std::string> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static void CopyToAnyView(const std::string& src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIRawStr);
    result->v_c_str = src.c_str();
  }
  static void MoveToAny(std::string src, TVMFFIAny* result) {
    TypeTraits<String>::MoveToAny(String(std::move(src)), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return TypeTraits<String>::CheckAnyStrict(src);
  }
  static std::string CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return *TryCastFromAnyView(src);
  }
  static std::optional<std::string> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<TVMFFIByteArray> view = details::StringLikeView(src, true);
    if (!view.has_value()) return std::nullopt;
    return std::string(view->data, view->size);
  }
  static std::string TypeStr() { return "std::string"; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIStr); }
};

/// TVMFFIByteArray*: a borrowed ByteArrayPtr view; Bytes when owned.
template <>
struct TypeTraits<TVMFFIByteArray*> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIByteArrayPtr;
  static void CopyToAnyView(TVMFFIByteArray* src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIByteArrayPtr);
    result->v_ptr = src;
  }
  static void MoveToAny(TVMFFIByteArray* src, TVMFFIAny* result) {
    TypeTraits<Bytes>::MoveToAny(Bytes(*src), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIByteArrayPtr;
  }
  static TVMFFIByteArray* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<TVMFFIByteArray*>(src->v_ptr);
  }
  static std::optional<TVMFFIByteArray*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIByteArrayPtr; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIBytes); }
};

}  // namespace ffi
}  // namespace tvm

namespace std {
template <>
struct hash<::tvm::ffi::String> {
  size_t operator()(const ::tvm::ffi::String& str) const {
    return static_cast<size_t>(::tvm::ffi::details::StableHashBytes(str.data(), str.size()));
  }
};
template <>
struct hash<::tvm::ffi::Bytes> {
  size_t operator()(const ::tvm::ffi::Bytes& bytes) const {
    return static_cast<size_t>(::tvm::ffi::details::StableHashBytes(bytes.data(), bytes.size()));
  }
};
}  // namespace std
#endif  // TVM_FFI_STRING_H_
