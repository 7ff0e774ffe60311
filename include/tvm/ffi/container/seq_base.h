// SPDX-License-Identifier: Apache-2.0
// container/seq_base.h: SeqBaseObj, the shared part of Array and List (TVMFFISeqCell of Any cells).
#ifndef TVM_FFI_CONTAINER_SEQ_BASE_H_
#define TVM_FFI_CONTAINER_SEQ_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

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
}  // namespace details

/// Header + TVMFFISeqCell; `data` holds `capacity` owning cells of which `size` are live.
/// The cells are plain bytes (Any is trivially relocatable), so moving them is a memmove.
class SeqBaseObj : public Object, public TVMFFISeqCell {
 public:
  SeqBaseObj() {
    TVMFFISeqCell::data = nullptr;
    TVMFFISeqCell::size = 0;
    TVMFFISeqCell::capacity = 0;
    TVMFFISeqCell::data_deleter = nullptr;
  }
  SeqBaseObj(const SeqBaseObj&) = delete;
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
  bool empty() const { return TVMFFISeqCell::size == 0; }
  /// Element i; IndexError `Index <i> out of bounds <size>` when out of range.
  const Any& at(int64_t i) const {
    if (i < 0 || i >= TVMFFISeqCell::size) details::ThrowIndexOutOfBounds(i, TVMFFISeqCell::size);
    return begin()[i];
  }
  const Any& operator[](int64_t i) const { return at(i); }
  const Any* begin() const { return static_cast<const Any*>(TVMFFISeqCell::data); }
  const Any* end() const { return begin() + TVMFFISeqCell::size; }
  Any* MutableBegin() const { return static_cast<Any*>(TVMFFISeqCell::data); }
  Any* MutableEnd() const { return MutableBegin() + TVMFFISeqCell::size; }
  const Any& front() const {
    if (empty()) details::ThrowEmptySeq("front()");
    return begin()[0];
  }
  const Any& back() const {
    if (empty()) details::ThrowEmptySeq("back()");
    return begin()[TVMFFISeqCell::size - 1];
  }
  /// Replaces element i (bounds checked).
  void SetItem(int64_t i, Any value) {
    if (i < 0 || i >= TVMFFISeqCell::size) details::ThrowIndexOutOfBounds(i, TVMFFISeqCell::size);
    MutableBegin()[i] = std::move(value);
  }
  /// Destroys every element (the buffer stays).
  void clear() { ShrinkBy(TVMFFISeqCell::size); }

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
  void EnlargeBy(int64_t n, const Any& value) {
    for (int64_t i = 0; i < n; ++i) EmplaceBackUnchecked(value);
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

  static constexpr bool _type_mutable = true;

 private:
  /// memmove of count cells; nothing at all when count is 0, where the cells of a list that
  /// never had a buffer are NULL (passing NULL to memmove is undefined even for 0 bytes).
  static void MoveCells(Any* dst, Any* src, int64_t count) {
    if (count <= 0) return;
    std::memmove(static_cast<void*>(dst), static_cast<void*>(src),
                 static_cast<size_t>(count) * sizeof(Any));
  }
};

static_assert(sizeof(Any) == sizeof(TVMFFIAny), "Any must be one TVMFFIAny cell");

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_SEQ_BASE_H_
