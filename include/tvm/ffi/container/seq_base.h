// SPDX-License-Identifier: Apache-2.0
// container/seq_base.h: SeqBaseObj, the shared part of Array and List (TVMFFISeqCell of Any cells),
// and SeqTypeTraitsBase, the TypeTraits both build on.
#ifndef TVM_FFI_CONTAINER_SEQ_BASE_H_
#define TVM_FFI_CONTAINER_SEQ_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

namespace details {
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowIndexOutOfBounds(int64_t index, int64_t size) {
  TVM_FFI_THROW(IndexError) << "Index " << index << " out of bounds " << size;
  TVM_FFI_UNREACHABLE();
}
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowEmptySeq(const char* what) {
  TVM_FFI_THROW(IndexError) << what << " on empty sequence";
  TVM_FFI_UNREACHABLE();
}
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowSeqCapacity(int64_t need, int64_t capacity) {
  TVM_FFI_THROW(ValueError) << "Not enough capacity: " << need << " elements needed, " << capacity
                            << " available";
  TVM_FFI_UNREACHABLE();
}
}  // namespace details

/// Header + TVMFFISeqCell; `data` holds `capacity` owning cells of which `size` are live.
/// The cells are plain bytes (Any is trivially relocatable), so moving them is a memmove.
/// The in-place editing members (insert, resize, ...) never reallocate: they throw ValueError
/// when the capacity is too small (ListObj hides them with versions that grow).
class SeqBaseObj : public Object, public TVMFFISeqCell {
 public:
  /// An empty sequence without a buffer.
  SeqBaseObj() {
    TVMFFISeqCell::data = nullptr;
    TVMFFISeqCell::size = 0;
    TVMFFISeqCell::capacity = 0;
    TVMFFISeqCell::data_deleter = nullptr;
  }
  /// Not copyable: sequences are shared through references.
  SeqBaseObj(const SeqBaseObj&) = delete;
  /// Not copy-assignable.
  SeqBaseObj& operator=(const SeqBaseObj&) = delete;
  /// Destroys the elements, last first, then frees the buffer. A chain of nested containers of
  /// any depth is freed without deep recursion (delete_queue.h).
  ~SeqBaseObj() {
    Any* cells = MutableBegin();
    for (int64_t i = TVMFFISeqCell::size - 1; i >= 0; --i) cells[i].Any::~Any();
    if (TVMFFISeqCell::data_deleter != nullptr) TVMFFISeqCell::data_deleter(TVMFFISeqCell::data);
  }

  /// Number of live elements.
  size_t size() const { return static_cast<size_t>(TVMFFISeqCell::size); }
  /// Number of cells the buffer can hold.
  size_t capacity() const { return static_cast<size_t>(TVMFFISeqCell::capacity); }
  /// Whether there are no elements.
  bool empty() const { return TVMFFISeqCell::size == 0; }
  /// Element i; IndexError `Index <i> out of bounds <size>` when out of range.
  const Any& at(int64_t i) const {
    if (i < 0 || i >= TVMFFISeqCell::size) details::ThrowIndexOutOfBounds(i, TVMFFISeqCell::size);
    return begin()[i];
  }
  /// Element i (bounds checked, as at()).
  const Any& operator[](int64_t i) const { return at(i); }
  /// The first element.
  const Any* begin() const { return static_cast<const Any*>(TVMFFISeqCell::data); }
  /// Past the last element.
  const Any* end() const { return begin() + TVMFFISeqCell::size; }
  /// The first element, writable.
  Any* MutableBegin() const { return static_cast<Any*>(TVMFFISeqCell::data); }
  /// Past the last element, writable.
  Any* MutableEnd() const { return MutableBegin() + TVMFFISeqCell::size; }
  /// The first element (IndexError when empty).
  const Any& front() const {
    if (empty()) details::ThrowEmptySeq("front()");
    return begin()[0];
  }
  /// The last element (IndexError when empty).
  const Any& back() const {
    if (empty()) details::ThrowEmptySeq("back()");
    return begin()[TVMFFISeqCell::size - 1];
  }
  /// Replaces element i (bounds checked).
  void SetItem(int64_t i, Any value) {
    if (i < 0 || i >= TVMFFISeqCell::size) details::ThrowIndexOutOfBounds(i, TVMFFISeqCell::size);
    SetItemAfterCheck(i, std::move(value));
  }
  /// Replaces element i, which the caller has checked to be in range.
  void SetItemAfterCheck(int64_t i, Any value) { MutableBegin()[i] = std::move(value); }
  /// Overwrites the live elements idx, idx + 1, ... with the values of [first, last)
  /// (IndexError when they do not all fit within the size). Returns this.
  template <typename IterType>
  SeqBaseObj* InitRange(int64_t idx, IterType first, IterType last) {
    int64_t count = static_cast<int64_t>(std::distance(first, last));
    if (idx < 0 || count < 0 || idx + count > TVMFFISeqCell::size) {
      details::ThrowIndexOutOfBounds(idx < 0 ? idx : idx + count, TVMFFISeqCell::size);
    }
    for (Any* dst = MutableBegin() + idx; first != last; ++first, ++dst) *dst = Any(*first);
    return this;
  }
  /// Destroys every element (the buffer stays).
  void clear() { ShrinkBy(TVMFFISeqCell::size); }
  /// Removes the last element (IndexError when empty).
  void pop_back() {
    if (empty()) details::ThrowEmptySeq("pop_back");
    ShrinkBy(1);
  }
  /// Removes element idx (IndexError when out of range).
  void erase(int64_t idx) {
    if (idx < 0 || idx >= TVMFFISeqCell::size) {
      details::ThrowIndexOutOfBounds(idx, TVMFFISeqCell::size);
    }
    EraseRange(idx, idx + 1);
  }
  /// Removes the elements [first, last) (IndexError unless 0 <= first <= last <= size).
  void erase(int64_t first, int64_t last) {
    if (first == last) return;
    if (first < 0 || last > TVMFFISeqCell::size || first > last) {
      TVM_FFI_THROW(IndexError) << "Erase range [" << first << ", " << last << ") out of bounds "
                                << TVMFFISeqCell::size;
    }
    EraseRange(first, last);
  }
  /// Inserts item before position idx (0 <= idx <= size; the capacity must have room).
  void insert(int64_t idx, Any item) {
    CheckInsertPosition(idx);
    RequireCapacity(TVMFFISeqCell::size + 1);
    OpenGap(idx, 1);
    new (MutableBegin() + idx) Any(std::move(item));
  }
  /// Inserts the values of [first, last) before position idx (the capacity must have room).
  template <typename IterType>
  void insert(int64_t idx, IterType first, IterType last) {
    CheckInsertPosition(idx);
    std::vector<Any> items;
    for (; first != last; ++first) items.emplace_back(*first);
    int64_t count = static_cast<int64_t>(items.size());
    if (count == 0) return;
    RequireCapacity(TVMFFISeqCell::size + count);
    OpenGap(idx, count);
    Any* dst = MutableBegin() + idx;
    for (Any& item : items) new (dst++) Any(std::move(item));
  }
  /// Shrinks to n elements or grows with None (the capacity must have room; n >= 0).
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "Cannot resize to negative size";
    if (n < TVMFFISeqCell::size) return ShrinkBy(TVMFFISeqCell::size - n);
    RequireCapacity(n);
    EnlargeBy(n - TVMFFISeqCell::size);
  }

  /// Constructs the uninitialised cell idx from args (the caller accounts for the size).
  template <typename... Args>
  void EmplaceInit(size_t idx, Args&&... args) {
    new (MutableBegin() + idx) Any(std::forward<Args>(args)...);
  }
  /// Appends one element; the caller guarantees size < capacity.
  void EmplaceBackUnchecked(Any value) {
    new (MutableEnd()) Any(std::move(value));
    ++TVMFFISeqCell::size;
  }
  /// Destroys the last n elements.
  void ShrinkBy(int64_t n) {
    Any* ptr = MutableEnd();
    for (int64_t i = 0; i < n; ++i) (--ptr)->Any::~Any();
    TVMFFISeqCell::size -= n;
  }
  /// Appends n copies of value; the caller guarantees the capacity.
  void EnlargeBy(int64_t n, const Any& value = Any()) {
    for (int64_t i = 0; i < n; ++i) EmplaceBackUnchecked(value);
  }
  /// Move-assigns the live elements [src_begin, src_end) to dst, dst, ... (dst < src_begin).
  void MoveElementsLeft(int64_t dst, int64_t src_begin, int64_t src_end) {
    Any* base = MutableBegin();
    for (int64_t i = src_begin; i < src_end; ++i) base[dst++] = std::move(base[i]);
  }
  /// Move-assigns the live elements [src_begin, src_end) so that they start at dst, copying
  /// the last first (dst > src_begin).
  void MoveElementsRight(int64_t dst, int64_t src_begin, int64_t src_end) {
    Any* base = MutableBegin();
    for (int64_t i = src_end, j = dst + (src_end - src_begin); i > src_begin;) {
      base[--j] = std::move(base[--i]);
    }
  }
  /// Opens a gap of n uninitialised cells at position pos (capacity must allow it).
  void OpenGap(int64_t pos, int64_t n) {
    Any* base = MutableBegin();
    MoveCells(base + pos + n, base + pos, TVMFFISeqCell::size - pos);
    TVMFFISeqCell::size += n;
  }
  /// Destroys elements [first, last) and closes the gap.
  void EraseRange(int64_t first, int64_t last) {
    Any* base = MutableBegin();
    for (int64_t i = first; i < last; ++i) base[i].Any::~Any();
    MoveCells(base + first, base + last, TVMFFISeqCell::size - last);
    TVMFFISeqCell::size -= last - first;
  }
  /// Moves every live cell into dst (uninitialised, large enough); this becomes empty.
  void RelocateTo(Any* dst) {
    MoveCells(dst, MutableBegin(), TVMFFISeqCell::size);
    TVMFFISeqCell::size = 0;
  }
  /// Reverses the elements in place.
  void Reverse() {
    Any* base = MutableBegin();
    for (int64_t i = 0, j = TVMFFISeqCell::size - 1; i < j; ++i, --j) base[i].swap(base[j]);
  }
  /// Whether some element equals value (AnyEqual: strings by content, else identity).
  bool Contains(const Any& value) const {
    for (const Any& item : *this) {
      if (AnyEqual()(item, value)) return true;
    }
    return false;
  }

  /// Sequences can change in place (List does; Array through copy-on-write).
  static constexpr bool _type_mutable = true;

 private:
  void CheckInsertPosition(int64_t idx) const {
    if (idx < 0 || idx > TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "Index " << idx << " out of bounds [0, " << TVMFFISeqCell::size
                                << "]";
    }
  }
  void RequireCapacity(int64_t need) const {
    if (need > TVMFFISeqCell::capacity) details::ThrowSeqCapacity(need, TVMFFISeqCell::capacity);
  }
  /// memmove of count cells; nothing at all when count is 0, where the cells of a list that
  /// never had a buffer are NULL (passing NULL to memmove is undefined even for 0 bytes).
  static void MoveCells(Any* dst, Any* src, int64_t count) {
    if (count <= 0) return;
    std::memmove(static_cast<void*>(dst), static_cast<void*>(src),
                 static_cast<size_t>(count) * sizeof(Any));
  }
};

static_assert(sizeof(Any) == sizeof(TVMFFIAny), "Any must be one TVMFFIAny cell");

namespace details {
/// The object an Array/List cell (or an rvalue reference to one) holds, or nullptr.
inline const SeqBaseObj* SeqFromCell(const TVMFFIAny* src) {
  const TVMFFIObject* obj = nullptr;
  if (IsSeqTypeIndex(src->type_index)) {
    obj = src->v_obj;
  } else if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
    obj = *static_cast<TVMFFIObject**>(src->v_ptr);
    if (obj == nullptr || !IsSeqTypeIndex(obj->type_index)) return nullptr;
  }
  return static_cast<const SeqBaseObj*>(ObjectUnsafe::FromHandle(const_cast<TVMFFIObject*>(obj)));
}
}  // namespace details

/// TypeTraits shared by the sequence references SeqRef of T (Array, List). Derived (the
/// TypeTraits specialisation) provides kPrimaryTypeIndex (its own object), kOtherTypeIndex (the
/// other sequence, accepted by conversion), kTypeName and kStaticTypeKey (its type key).
template <typename Derived, typename SeqRef, typename T>
// NOLINTNEXTLINE(bugprone-crtp-constructor-accessibility): a public base, as Apache's
struct SeqTypeTraitsBase : public TypeTraitsBase {
  /// The traits of SeqRef as a plain object reference.
  using Base = ObjectRefTypeTraitsBase<SeqRef>;

  /// Stores a borrowed view of src in result.
  static void CopyToAnyView(const SeqRef& src, TVMFFIAny* result) {
    Base::CopyToAnyView(src, result);
  }
  /// Moves src into result.
  static void MoveToAny(SeqRef src, TVMFFIAny* result) { Base::MoveToAny(std::move(src), result); }
  /// Whether src is a Derived::kPrimaryTypeIndex object whose every element is exactly a T.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != Derived::kPrimaryTypeIndex) return false;
    return AllStrict(details::SeqFromCell(src));
  }
  /// The sequence of src (which passed CheckAnyStrict), sharing it.
  static SeqRef CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Base::CopyFromAnyViewAfterCheck(src);
  }
  /// Takes the sequence out of src (which passed CheckAnyStrict).
  static SeqRef MoveFromAnyAfterCheck(TVMFFIAny* src) { return Base::MoveFromAnyAfterCheck(src); }
  /// Shares the object when it is already a SeqRef, otherwise converts every element (copying).
  /// An rvalue reference cell is refused (only RValueRef<SeqRef> takes one), as Apache does.
  static std::optional<SeqRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) return std::nullopt;
    const SeqBaseObj* seq = details::SeqFromCell(src);
    if (seq == nullptr) return std::nullopt;
    if (seq->type_index() == Derived::kPrimaryTypeIndex && AllStrict(seq)) {
      return details::ObjectUnsafe::ObjectRefFromObjectPtr<SeqRef>(
          details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<const Object*>(seq)));
    }
    std::vector<T> items;
    items.reserve(seq->size());
    for (const Any& item : *seq) {
      std::optional<T> converted =
          details::ElemTraits<T>::TryCast(details::AnyUnsafe::TVMFFIAnyPtrFromAny(item));
      if (!converted.has_value()) return std::nullopt;
      items.push_back(*std::move(converted));
    }
    return SeqRef(items.begin(), items.end());
  }
  /// `<kTypeName>[index <i>: <info>]` for the first element that does not convert, named after
  /// the target (`Array[...]` when casting a List to an Array), as Apache does.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const SeqBaseObj* seq = details::SeqFromCell(src);
    if (seq == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      return Base::GetMismatchTypeInfo(src);
    }
    for (size_t i = 0; i < seq->size(); ++i) {
      const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(seq->begin()[i]);
      if (!details::ElemTraits<T>::TryCast(cell).has_value()) {
        return std::string(Derived::kTypeName) + "[index " + std::to_string(i) + ": " +
               details::ElemTraits<T>::MismatchInfo(cell) + "]";
      }
    }
    return TypeIndexToTypeKey(src->type_index);
  }
  /// `<kTypeName><T>`, e.g. `Array<int>`.
  static std::string TypeStr() {
    return std::string(Derived::kTypeName) + "<" + details::Type2Str<T>::v() + ">";
  }
  /// `{"type":"<Derived::kStaticTypeKey>","args":[<schema of T>]}`.
  static std::string TypeSchema() {
    return std::string("{\"type\":\"") + Derived::kStaticTypeKey + "\",\"args\":[" +
           details::TypeSchemaOf<T>::v() + "]}";
  }

 private:
  static bool AllStrict(const SeqBaseObj* seq) {
    if constexpr (!std::is_same_v<T, Any>) {
      for (const Any& item : *seq) {
        if (!details::ElemTraits<T>::CheckStrict(details::AnyUnsafe::TVMFFIAnyPtrFromAny(item))) {
          return false;
        }
      }
    }
    return true;
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_SEQ_BASE_H_
