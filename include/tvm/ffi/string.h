// SPDX-License-Identifier: Apache-2.0
// string.h: String and Bytes, 16-byte cells holding small text inline and longer text in objects.
#ifndef TVM_FFI_STRING_H_
#define TVM_FFI_STRING_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
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
using BytesObjBase = ::tvm::ffi::BytesObjBase;
using StringObj = ::tvm::ffi::StringObj;
using BytesObj = ::tvm::ffi::BytesObj;

/// A string or bytes object that owns a std::string buffer.
template <typename Base>
class BytesObjStdImpl : public Base {
 public:
  explicit BytesObjStdImpl(std::string other) : buffer_(std::move(other)) {
    this->data = buffer_.data();
    this->size = buffer_.size();
  }

 private:
  std::string buffer_;
};
/// Former name of BytesObjStdImpl.
template <typename Base>
using BytesObjFromStd = BytesObjStdImpl<Base>;

/// A 16-byte cell holding a string or bytes value, small (inline, up to 7 bytes) or an object,
/// or None; owns one reference when it holds an object.
class BytesBaseCell {
 public:
  /// None.
  BytesBaseCell() { ResetPODCell(&data_, TypeIndex::kTVMFFINone); }
  explicit BytesBaseCell(std::nullopt_t) : BytesBaseCell() {}
  BytesBaseCell(const BytesBaseCell& other) : data_(other.data_) { IncRefIfObject(); }
  /// Leaves other None.
  BytesBaseCell(BytesBaseCell&& other) noexcept : data_(other.data_) {
    ResetPODCell(&other.data_, TypeIndex::kTVMFFINone);
  }
  BytesBaseCell& operator=(const BytesBaseCell& other) {
    BytesBaseCell(other).swap(*this);
    return *this;
  }
  BytesBaseCell& operator=(BytesBaseCell&& other) noexcept {
    BytesBaseCell(std::move(other)).swap(*this);
    return *this;
  }
  ~BytesBaseCell() { Release(); }

  bool operator==(std::nullopt_t) const { return data_.type_index == TypeIndex::kTVMFFINone; }
  bool operator!=(std::nullopt_t) const { return data_.type_index != TypeIndex::kTVMFFINone; }
  void swap(BytesBaseCell& other) noexcept { std::swap(data_, other.data_); }

  /// The bytes (the inline payload unless the cell holds an object).
  const char* data() const noexcept { return IsObject() ? ObjectBytes()->data : data_.v_bytes; }
  size_t size() const noexcept {
    return IsObject() ? ObjectBytes()->size : static_cast<size_t>(data_.small_str_len);
  }

  /// Holds a LargeObj (cell type index large_type_index) that takes over the buffer of other.
  template <typename LargeObj>
  void InitFromStd(std::string&& other, int32_t large_type_index) {
    Release();
    ObjectPtr<LargeObj> ptr = make_object<BytesObjStdImpl<LargeObj>>(std::move(other));
    SetObject(ObjectUnsafe::MoveObjectPtrToHandle(std::move(ptr)), large_type_index);
  }
  /// Makes room for size bytes, inline (type index small_type_index) when they fit, else in a
  /// new LargeObj (large_type_index) whose data is NUL-terminated. Returns where to write them.
  template <typename LargeObj>
  char* InitSpaceForSize(size_t size, int32_t small_type_index, int32_t large_type_index) {
    Release();
    ResetPODCell(&data_, small_type_index);
    if (size <= kMaxSmallSize) {
      data_.small_str_len = static_cast<uint32_t>(size);
      return data_.v_bytes;
    }
    ObjectPtr<LargeObj> ptr = make_inplace_array_object<LargeObj, char>(size + 1);
    char* dest = reinterpret_cast<char*>(ptr.get()) + sizeof(LargeObj);
    dest[size] = '\0';
    ptr->data = dest;
    ptr->size = size;
    SetObject(ObjectUnsafe::MoveObjectPtrToHandle(std::move(ptr)), large_type_index);
    return dest;
  }
  /// Sets the type index of the cell (for an empty small value: kTVMFFISmallStr/SmallBytes).
  void InitTypeIndex(int32_t type_index) { data_.type_index = type_index; }
  /// Moves the cell into *result (owning); this becomes None.
  void MoveToAny(TVMFFIAny* result) {
    *result = data_;
    ResetPODCell(&data_, TypeIndex::kTVMFFINone);
  }
  /// The cell, not owning.
  TVMFFIAny CopyToTVMFFIAny() const { return data_; }
  /// A new reference to the value of the string or bytes cell *src.
  static BytesBaseCell CopyFromAnyView(const TVMFFIAny* src) {
    BytesBaseCell result(*src);
    result.IncRefIfObject();
    return result;
  }
  /// Takes the value of the owning string or bytes cell *src, which becomes None.
  static BytesBaseCell MoveFromAny(TVMFFIAny* src) {
    BytesBaseCell result(*src);
    ResetPODCell(src, TypeIndex::kTVMFFINone);
    return result;
  }

  static constexpr size_t kMaxSmallSize = 7;

 protected:
  explicit BytesBaseCell(TVMFFIAny data) : data_(data) {}
  bool IsObject() const { return data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin; }
  void IncRefIfObject() {
    if (IsObject()) ObjectUnsafe::IncRefObjectHandle(data_.v_obj);
  }
  /// Drops the reference held (the cell keeps its stale bits until it is overwritten).
  void Release() {
    if (IsObject()) ObjectUnsafe::DecRefObjectHandle(data_.v_obj);
  }

  TVMFFIAny data_;

 private:
  const TVMFFIByteArray* ObjectBytes() const {
    return reinterpret_cast<const TVMFFIByteArray*>(reinterpret_cast<const char*>(data_.v_obj) +
                                                    sizeof(TVMFFIObject));
  }
  void SetObject(TVMFFIObjectHandle handle, int32_t type_index) {
    data_.type_index = type_index;
    data_.zero_padding = 0;
    TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(&data_);
    data_.v_obj = static_cast<TVMFFIObject*>(handle);
  }
};

/// The cell of String (kSmallIndex kTVMFFISmallStr, objects StringObj) or Bytes: never None, an
/// empty value being the empty small form (which is also what a move leaves behind).
template <int32_t kSmallIndex, typename ObjType>
class BytesCell : public BytesBaseCell {
 public:
  BytesCell() { InitTypeIndex(kSmallIndex); }
  BytesCell(const char* data, size_t size) { Init(data, size); }
  /// Adopts the buffer of other in a heap object, whatever its size (as Apache's headers do).
  explicit BytesCell(std::string&& other) {
    InitTypeIndex(kSmallIndex);
    InitFromStd<ObjType>(std::move(other), ObjType::_type_index);
  }
  /// Holds lhs followed by rhs, inline when the result fits.
  static BytesCell Concat(const char* lhs, size_t lhs_size, const char* rhs, size_t rhs_size) {
    BytesCell out;
    char* dest =
        out.InitSpaceForSize<ObjType>(lhs_size + rhs_size, kSmallIndex, ObjType::_type_index);
    if (lhs_size != 0) std::memcpy(dest, lhs, lhs_size);
    if (rhs_size != 0) std::memcpy(dest + lhs_size, rhs, rhs_size);
    return out;
  }
  BytesCell(const BytesCell& other) = default;
  BytesCell(BytesCell&& other) noexcept : BytesBaseCell(std::move(other)) {
    // The base's move leaves other's cell to be reset here, as an empty small value.
    other.InitTypeIndex(kSmallIndex);  // NOLINT(bugprone-use-after-move)
  }
  BytesCell& operator=(const BytesCell& other) = default;
  BytesCell& operator=(BytesCell&& other) noexcept {
    BytesCell(std::move(other)).swap(*this);
    return *this;
  }

  /// Adopts an owning cell of this kind (used by TypeTraits).
  static BytesCell FromCell(const TVMFFIAny& cell, bool add_ref) {
    BytesCell out;
    out.data_ = cell;
    if (add_ref) out.IncRefIfObject();
    return out;
  }
  const TVMFFIAny& cell() const { return data_; }
  TVMFFIAny ReleaseCell() {
    TVMFFIAny out = data_;
    ResetPODCell(&data_, kSmallIndex);
    return out;
  }

 private:
  void Init(const char* data, size_t size) {
    char* dest = InitSpaceForSize<ObjType>(size, kSmallIndex, ObjType::_type_index);
    if (size != 0) std::memcpy(dest, data, size);
  }
};

/// Content comparison used by String and Bytes: -1, 0 or 1, comparing `char`s (signed where the
/// platform's char is) and then lengths, as Apache's Bytes::memncmp does.
inline int BytesCompare(const char* lhs, size_t lhs_size, const char* rhs, size_t rhs_size) {
  size_t n = lhs_size < rhs_size ? lhs_size : rhs_size;
  for (size_t i = 0; i < n; ++i) {
    if (lhs[i] != rhs[i]) return lhs[i] < rhs[i] ? -1 : 1;
  }
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
  /*! \brief Construct from size bytes at data. */
  Bytes(const char* data, size_t size) : cell_(data, size) {}
  /*! \brief Construct from a byte array view, copying its bytes. */
  Bytes(TVMFFIByteArray arr) : cell_(arr.data, arr.size) {}               // NOLINT(*)
  Bytes(const std::string& other) : cell_(other.data(), other.size()) {}  // NOLINT(*)
  Bytes(std::string&& other) : cell_(std::move(other)) {}                 // NOLINT(*)
  template <typename T, typename = std::enable_if_t<std::is_convertible_v<T, std::string>>>
  Bytes& operator=(T&& other) {
    Bytes(std::forward<T>(other)).swap(*this);
    return *this;
  }
  Bytes(const Bytes&) = default;
  Bytes(Bytes&&) = default;
  Bytes& operator=(const Bytes&) = default;
  Bytes& operator=(Bytes&&) = default;

  /*! \brief Return a pointer to the bytes. */
  const char* data() const { return cell_.data(); }
  /*! \brief Return the number of bytes. */
  size_t size() const { return cell_.size(); }
  /*! \brief Exchange contents with other. */
  void swap(Bytes& other) noexcept { cell_.swap(other.cell_); }
  /*! \brief Copy the bytes into a std::string. */
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
  /*! \brief The value find returns when nothing matches. */
  static constexpr size_t npos = std::string::npos;

  String() = default;
  String(std::nullptr_t) = delete;                                 // NOLINT(*)
  String(const char* other) : cell_(other, std::strlen(other)) {}  // NOLINT(*)
  /*! \brief Construct from size characters at data. */
  String(const char* data, size_t size) : cell_(data, size) {}
  /*! \brief Construct from a std::string, copying it. */
  String(const std::string& other) : cell_(other.data(), other.size()) {}  // NOLINT(*)
  String(std::string&& other) : cell_(std::move(other)) {}                 // NOLINT(*)
  /*! \brief Construct from a string view, copying it. */
  explicit String(std::string_view other) : cell_(other.data(), other.size()) {}
  /*! \brief Construct from a byte array view, copying its bytes. */
  explicit String(TVMFFIByteArray arr) : cell_(arr.data, arr.size) {}
  String(const String&) = default;
  String(String&&) = default;
  String& operator=(const String&) = default;
  String& operator=(String&&) = default;
  String& operator=(const std::string& other) { return *this = String(other); }
  String& operator=(std::string&& other) { return *this = String(std::move(other)); }
  String& operator=(const char* other) { return *this = String(other); }

  /*! \brief Return a pointer to the characters. */
  const char* data() const { return cell_.data(); }
  /*! \brief Return a pointer to the NUL-terminated characters. */
  const char* c_str() const { return cell_.data(); }
  /*! \brief Return the number of characters. */
  size_t size() const { return cell_.size(); }
  /*! \brief Return the number of characters. */
  size_t length() const { return size(); }
  /*! \brief Whether the string has no characters. */
  bool empty() const { return size() == 0; }
  /// The character at pos; throws std::out_of_range past the end.
  char at(size_t pos) const {
    if (pos >= size()) throw std::out_of_range("tvm::ffi::String::at: index out of bounds");
    return data()[pos];
  }
  /*! \brief Compare lexicographically with other; negative, 0 or positive. */
  int compare(const String& other) const { return compare(other.data(), other.size()); }
  /*! \brief Compare lexicographically with other; negative, 0 or positive. */
  int compare(const std::string& other) const { return compare(other.data(), other.size()); }
  /*! \brief Compare lexicographically with other; negative, 0 or positive. */
  int compare(const char* other) const { return compare(other, std::strlen(other)); }
  /*! \brief Compare lexicographically with other; negative, 0 or positive. */
  int compare(const TVMFFIByteArray& other) const { return compare(other.data, other.size); }
  /*! \brief Copy the characters into a std::string. */
  operator std::string() const { return std::string(data(), size()); }  // NOLINT(*)
  /*! \brief Return a view of the characters. */
  std::string_view view() const { return std::string_view(data(), size()); }
  /*! \brief Exchange contents with other. */
  void swap(String& other) noexcept { cell_.swap(other.cell_); }

  /// The first position >= pos where needle starts, or npos.
  size_t find(std::string_view needle, size_t pos = 0) const { return view().find(needle, pos); }
  /*! \brief Return the first position of needle at or after pos, or npos. */
  size_t find(const String& needle, size_t pos = 0) const { return find(needle.view(), pos); }
  /*! \brief Return the first position of needle at or after pos, or npos. */
  size_t find(const std::string& needle, size_t pos = 0) const {
    return find(std::string_view(needle), pos);
  }
  /*! \brief Return the first position of needle at or after pos, or npos. */
  size_t find(const char* needle, size_t pos = 0) const {
    return find(std::string_view(needle), pos);
  }
  /// Searches for the first count characters of needle.
  size_t find(const char* needle, size_t pos, size_t count) const {
    return find(std::string_view(needle, count), pos);
  }
  /*! \brief Return the first position of ch at or after pos, or npos. */
  size_t find(char ch, size_t pos = 0) const { return view().find(ch, pos); }
  /*!
   * \brief Return count characters from pos (fewer at the end); throws when pos is past the end.
   */
  String substr(size_t pos = 0, size_t count = npos) const {
    if (pos > size()) throw std::out_of_range("tvm::ffi::String::substr: position out of range");
    return String(view().substr(pos, count));
  }
  /*! \brief Whether the string begins with prefix. */
  bool starts_with(std::string_view prefix) const {
    return view().substr(0, prefix.size()) == prefix;
  }
  /*! \brief Whether the string begins with the n characters at prefix. */
  bool starts_with(const char* prefix, size_t n) const {
    return starts_with(std::string_view(prefix, n));
  }
  /*! \brief Whether the string begins with prefix. */
  bool starts_with(const String& prefix) const { return starts_with(prefix.view()); }
  /*! \brief Whether the string begins with prefix. */
  bool starts_with(const std::string& prefix) const {
    return starts_with(std::string_view(prefix));
  }
  /*! \brief Whether the string begins with prefix. */
  bool starts_with(const char* prefix) const { return starts_with(std::string_view(prefix)); }
  /*! \brief Whether the string ends with suffix. */
  bool ends_with(std::string_view suffix) const {
    return size() >= suffix.size() && view().substr(size() - suffix.size()) == suffix;
  }
  /*! \brief Whether the string ends with the n characters at suffix. */
  bool ends_with(const char* suffix, size_t n) const {
    return ends_with(std::string_view(suffix, n));
  }
  /*! \brief Whether the string ends with suffix. */
  bool ends_with(const String& suffix) const { return ends_with(suffix.view()); }
  /*! \brief Whether the string ends with suffix. */
  bool ends_with(const std::string& suffix) const { return ends_with(std::string_view(suffix)); }
  /*! \brief Whether the string ends with suffix. */
  bool ends_with(const char* suffix) const { return ends_with(std::string_view(suffix)); }
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
  /// lhs followed by rhs; inline when short, like any String built from bytes.
  static String Concat(const char* lhs, size_t lhs_size, const char* rhs, size_t rhs_size) {
    return String(Cell::Concat(lhs, lhs_size, rhs, rhs_size));
  }
  int compare(const char* other, size_t n) const {
    return details::BytesCompare(data(), size(), other, n);
  }
  Cell cell_;
  friend struct TypeTraits<String>;
  template <typename, int32_t, int32_t>
  friend struct BytesLikeTypeTraits;
  friend String operator+(const String& lhs, const String& rhs);
  friend String operator+(const String& lhs, const std::string& rhs);
  friend String operator+(const std::string& lhs, const String& rhs);
  friend String operator+(const String& lhs, const char* rhs);
  friend String operator+(const char* lhs, const String& rhs);
};

/*! \brief Concatenate two strings. */
inline String operator+(const String& lhs, const String& rhs) {
  return String::Concat(lhs.data(), lhs.size(), rhs.data(), rhs.size());
}
/*! \brief Concatenate two strings. */
inline String operator+(const String& lhs, const std::string& rhs) {
  return String::Concat(lhs.data(), lhs.size(), rhs.data(), rhs.size());
}
/*! \brief Concatenate two strings. */
inline String operator+(const std::string& lhs, const String& rhs) {
  return String::Concat(lhs.data(), lhs.size(), rhs.data(), rhs.size());
}
/*! \brief Concatenate two strings. */
inline String operator+(const String& lhs, const char* rhs) {
  return String::Concat(lhs.data(), lhs.size(), rhs, std::strlen(rhs));
}
/*! \brief Concatenate two strings. */
inline String operator+(const char* lhs, const String& rhs) {
  return String::Concat(lhs, std::strlen(lhs), rhs.data(), rhs.size());
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

/*! \brief Write the characters of str to os. */
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

namespace details {
/// Length of the UTF-8 sequence starting at text[i] (2 to 4) and its code point, or 0 when the
/// bytes there are not a complete multibyte sequence.
inline size_t DecodeUtf8Sequence(const char* text, size_t n, size_t i, uint32_t* code_point) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  auto is_continuation = [&](size_t k) { return (byte(k) & 0xC0) == 0x80; };
  unsigned char lead = byte(i);
  size_t length = (lead & 0xE0) == 0xC0   ? 2
                  : (lead & 0xF0) == 0xE0 ? 3
                  : (lead & 0xF8) == 0xF0 ? 4
                                          : 0;
  if (length == 0 || i + length > n) return 0;
  uint32_t value = lead & (0x7F >> length);
  for (size_t k = i + 1; k < i + length; ++k) {
    if (!is_continuation(k)) return 0;
    value = (value << 6) | (byte(k) & 0x3F);
  }
  *code_point = value;
  return length;
}
/// Python's two-character escape of c (newline, tab, carriage return, backslash, double
/// quote), or nullptr.
inline const char* PyShortEscape(unsigned char c) {
  switch (c) {
    case '\n':
      return "\\n";
    case '\t':
      return "\\t";
    case '\r':
      return "\\r";
    case '\\':
      return "\\\\";
    case '"':
      return "\\\"";
    default:
      return nullptr;
  }
}
/// Length of an ANSI color or erase sequence (ESC '[' digits-and-semicolons 'm' or 'K') at
/// text[i], or 0.
inline size_t AnsiSequenceLength(const char* text, size_t n, size_t i) {
  if (text[i] != '\x1b' || i + 1 >= n || text[i + 1] != '[') return 0;
  size_t j = i + 2;
  while (j < n && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == ';')) ++j;
  return j < n && (text[j] == 'm' || text[j] == 'K') ? j + 1 - i : 0;
}
}  // namespace details

/// The string as a double-quoted literal in Python's style: `\n` `\t` `\r` `\\` `\"` escaped,
/// other control bytes as `\xNN`, non-ASCII UTF-8 characters as `\uXXXX` (`\UXXXXXXXX` beyond
/// the BMP), bytes that are not valid UTF-8 as `\xNN`; ANSI color sequences keep their text
/// after `\x1b`.
inline String EscapedStringPy(const String& value) {
  const char* text = value.data();
  size_t n = value.size();
  std::string out = "\"";
  char buf[16];
  for (size_t i = 0; i < n;) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (size_t ansi = details::AnsiSequenceLength(text, n, i)) {
      out.append("\\x1b").append(text + i + 1, ansi - 1);
      i += ansi;
      continue;
    }
    if (const char* escape = details::PyShortEscape(c)) {
      out += escape;
      ++i;
      continue;
    }
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) {
        std::snprintf(buf, sizeof(buf), "\\x%02x", static_cast<unsigned>(c));
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    uint32_t code_point = 0;
    size_t length = details::DecodeUtf8Sequence(text, n, i, &code_point);
    if (length == 0) {
      std::snprintf(buf, sizeof(buf), "\\x%02x", static_cast<unsigned>(c));
      i += 1;
    } else if (length == 4) {
      std::snprintf(buf, sizeof(buf), "\\U%08x", static_cast<unsigned>(code_point));
      i += length;
    } else {
      std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(code_point));
      i += length;
    }
    out += buf;
  }
  out += '"';
  return String(std::move(out));
}

/// Traits shared by String and Bytes.
template <typename T, int32_t kSmallIndex, int32_t kObjectIndex>
struct BytesLikeTypeTraits : public TypeTraitsBase {
  // As Apache: a string field is an Any cell (SmallStr or Str), no fixed index.
  /*! \brief Byte-like values may be stored inline or as objects, so the field holds any value. */
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  /*! \brief Store src in an AnyView without taking ownership. */
  static void CopyToAnyView(const T& src, TVMFFIAny* result) { *result = src.cell_.cell(); }
  /*! \brief Move src into an Any. */
  static void MoveToAny(T src, TVMFFIAny* result) { *result = src.cell_.ReleaseCell(); }
  /*! \brief Whether src holds exactly this type. */
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kSmallIndex || src->type_index == kObjectIndex;
  }
  /*! \brief Read the value from src after CheckAnyStrict held. */
  static T CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return T(T::Cell::FromCell(*src, true));
  }
  /*! \brief Move the value out of src after CheckAnyStrict held. */
  static T MoveFromAnyAfterCheck(TVMFFIAny* src) {
    T out(T::Cell::FromCell(*src, false));
    details::ResetPODCell(src, TypeIndex::kTVMFFINone);
    return out;
  }
};

/*! \brief Conversion of String to and from Any. */
template <>
struct TypeTraits<String>
    : public BytesLikeTypeTraits<String, TypeIndex::kTVMFFISmallStr, TypeIndex::kTVMFFIStr> {
  /*! \brief Convert src (a string or raw C string) to a String; nullopt when impossible. */
  static std::optional<String> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == TypeIndex::kTVMFFIRawStr) return String(src->v_c_str);
    return std::nullopt;
  }
  /*! \brief Return the type's name, "str". */
  static std::string TypeStr() { return "str"; }
  /*! \brief Return the type's schema as JSON text. */
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIStr); }
};

/*! \brief Conversion of Bytes to and from Any. */
template <>
struct TypeTraits<Bytes>
    : public BytesLikeTypeTraits<Bytes, TypeIndex::kTVMFFISmallBytes, TypeIndex::kTVMFFIBytes> {
  /*! \brief Convert src (bytes or a byte array) to Bytes; nullopt when impossible. */
  static std::optional<Bytes> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == TypeIndex::kTVMFFIByteArrayPtr) {
      return Bytes(*static_cast<const TVMFFIByteArray*>(src->v_ptr));
    }
    return std::nullopt;
  }
  /*! \brief Return the type's name, "bytes". */
  static std::string TypeStr() { return "bytes"; }
  /*! \brief Return the type's schema as JSON text. */
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIBytes); }
};

/// Traits of raw C strings: a borrowed RawStr view, a String when owned.
struct RawStrTypeTraitsBase : public TypeTraitsBase {
  /*! \brief A raw C string is never a field type of its own. */
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;  // as Apache
  /*! \brief Store the C string src (a null pointer as None) in an AnyView. */
  static void CopyToAnyView(const char* src, TVMFFIAny* result) {
    TVM_FFI_ICHECK(src != nullptr) << "Any: cannot pass a null const char* as a string";
    details::ResetPODCell(result, TypeIndex::kTVMFFIRawStr);
    result->v_c_str = src;
  }
  /*! \brief Store the C string src (a null pointer as None) in an Any, as a view. */
  static void MoveToAny(const char* src, TVMFFIAny* result) {
    TVM_FFI_ICHECK(src != nullptr) << "Any: cannot pass a null const char* as a string";
    TypeTraits<String>::MoveToAny(String(src), result);
  }
  /*! \brief Return the type's name. */
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIRawStr; }
  /*! \brief Return the type's schema as JSON text. */
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIStr); }
};

/*! \brief Conversion of raw C strings to Any (viewing, not owning, the characters). */
template <>
struct TypeTraits<const char*> : public RawStrTypeTraitsBase {
  /*! \brief A raw pointer cannot be stored as an owned value. */
  static constexpr bool storage_enabled = false;
  /*! \brief Whether src holds a raw C string. */
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIRawStr;
  }
  /*! \brief Read the raw C string pointer held by src. */
  static const char* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return src->v_c_str; }
  /*! \brief Return the raw C string held by src; nullopt for any other type. */
  static std::optional<const char*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return src->v_c_str;
    return std::nullopt;
  }
};

/*! \brief A mutable C string converts as a const one. */
template <>
struct TypeTraits<char*> : public TypeTraits<const char*> {};

/*! \brief Conversion of character arrays (string literals) to Any. */
template <size_t N>
struct TypeTraits<char[N]> : public RawStrTypeTraitsBase {
  /*! \brief A character array cannot be stored as an owned value. */
  static constexpr bool storage_enabled = false;
};

/// std::string: a RawStr view of c_str(); accepts every string and bytes cell.
template <>
struct TypeTraits<std::string> : public TypeTraitsBase {
  /*! \brief A std::string converts through String; it is not kept in an Any as itself. */
  static constexpr bool storage_enabled = false;
  /*! \brief Store src in an AnyView, viewing its characters. */
  static void CopyToAnyView(const std::string& src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIRawStr);
    result->v_c_str = src.c_str();
  }
  /*! \brief Move src into an Any as a String. */
  static void MoveToAny(std::string src, TVMFFIAny* result) {
    TypeTraits<String>::MoveToAny(String(std::move(src)), result);
  }
  /*! \brief Whether src holds a raw C string. */
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return TypeTraits<String>::CheckAnyStrict(src);
  }
  /*! \brief Copy the raw C string held by src into a std::string. */
  static std::string CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return *TryCastFromAnyView(src);
  }
  /*!
   * \brief Convert src (a string, bytes or raw C string) to a std::string; nullopt when impossible.
   */
  static std::optional<std::string> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<TVMFFIByteArray> view = details::StringLikeView(src, true);
    if (!view.has_value()) return std::nullopt;
    return std::string(view->data, view->size);
  }
  /*! \brief Return the type's name. */
  static std::string TypeStr() { return "std::string"; }
  /*! \brief Return the type's schema as JSON text. */
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIStr); }
  /// The conversions of Apache's fallback list (const char*, TVMFFIByteArray*, Bytes, String).
  static std::string ConvertFallbackValue(const char* src) { return std::string(src); }
  /*! \brief Copy the bytes of a byte array into a std::string. */
  static std::string ConvertFallbackValue(TVMFFIByteArray* src) {
    return std::string(src->data, src->size);
  }
  /*! \brief Copy the bytes into a std::string. */
  static std::string ConvertFallbackValue(Bytes src) { return std::string(src.data(), src.size()); }
  /*! \brief Copy the characters into a std::string. */
  static std::string ConvertFallbackValue(String src) {
    return std::string(src.data(), src.size());
  }
};

/// TVMFFIByteArray*: a borrowed ByteArrayPtr view; Bytes when owned.
template <>
struct TypeTraits<TVMFFIByteArray*> : public TypeTraitsBase {
  /*! \brief A byte array pointer cannot be stored as an owned value. */
  static constexpr bool storage_enabled = false;
  /*! \brief The field's static type index: a byte array pointer. */
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIByteArrayPtr;
  /*! \brief Store the byte array pointer src in an AnyView. */
  static void CopyToAnyView(TVMFFIByteArray* src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIByteArrayPtr);
    result->v_ptr = src;
  }
  /*! \brief Store the byte array pointer src in an Any, as a view. */
  static void MoveToAny(TVMFFIByteArray* src, TVMFFIAny* result) {
    TypeTraits<Bytes>::MoveToAny(Bytes(*src), result);
  }
  /*! \brief Whether src holds a byte array pointer. */
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIByteArrayPtr;
  }
  /*! \brief Read the byte array pointer held by src. */
  static TVMFFIByteArray* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<TVMFFIByteArray*>(src->v_ptr);
  }
  /*! \brief Return the byte array pointer held by src; nullopt for any other type. */
  static std::optional<TVMFFIByteArray*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  /*! \brief Return the type's name. */
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIByteArrayPtr; }
  /*! \brief Return the type's schema as JSON text. */
  static std::string TypeSchema() { return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIBytes); }
};

}  // namespace ffi
}  // namespace tvm

namespace std {
/*! \brief Hash of String, consistent with its equality. */
template <>
struct hash<::tvm::ffi::String> {
  /*! \brief Hash the characters of str. */
  size_t operator()(const ::tvm::ffi::String& str) const {
    return static_cast<size_t>(::tvm::ffi::details::StableHashBytes(str.data(), str.size()));
  }
};
/*! \brief Hash of Bytes, consistent with its equality. */
template <>
struct hash<::tvm::ffi::Bytes> {
  /*! \brief Hash the bytes. */
  size_t operator()(const ::tvm::ffi::Bytes& bytes) const {
    return static_cast<size_t>(::tvm::ffi::details::StableHashBytes(bytes.data(), bytes.size()));
  }
};
}  // namespace std
#endif  // TVM_FFI_STRING_H_
