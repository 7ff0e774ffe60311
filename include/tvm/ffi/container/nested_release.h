// SPDX-License-Identifier: Apache-2.0
// container/nested_release.h: freeing Arrays, Lists, Maps and Dicts nested in each other
// without recursing once per level, and the destructors of SeqBaseObj and MapBaseObj that use
// it. Included at the end of seq_base.h and map_base.h; not meant to be included directly.
#ifndef TVM_FFI_CONTAINER_NESTED_RELEASE_H_
#define TVM_FFI_CONTAINER_NESTED_RELEASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace details {

/// Empties containers while deferring the containers they alone hold: each deferred one waits
/// in a LIFO and is emptied in turn before it is freed, so a chain of nested containers of any
/// depth is freed in a loop. The first few deferred containers need no allocation.
class NestedRelease {
 public:
  NestedRelease() = default;
  NestedRelease(const NestedRelease&) = delete;
  NestedRelease& operator=(const NestedRelease&) = delete;
  ~NestedRelease() { Drain(); }

  /// Destroys every element of seq, last first.
  void EmptySeq(SeqBaseObj* seq) {
    Any* cells = seq->MutableBegin();
    for (int64_t i = seq->TVMFFISeqCell::size - 1; i >= 0; --i) Release(&cells[i]);
    seq->TVMFFISeqCell::size = 0;
  }
  /// Destroys every key and value of map (its layout and buffer stay).
  void EmptyMap(MapBaseObj* map) {
    map->ClearEntriesWith([this](Any* cell) { Release(cell); });
  }

 private:
  /// Destroys *cell, deferring the Array, List, Map or Dict it holds the only reference to.
  void Release(Any* cell) {
    int32_t index = cell->type_index();
    if ((IsSeqTypeIndex(index) || IsMapTypeIndex(index)) && ObjectOf(*cell)->use_count() == 1) {
      Push(cell);
    }
    cell->Any::~Any();
  }
  /// Empties each deferred container (still held only here), then frees it: already empty,
  /// so without recursion.
  void Drain() {
    while (size_ > 0) {
      Any nested = Pop();
      if (IsSeqTypeIndex(nested.type_index())) {
        EmptySeq(static_cast<SeqBaseObj*>(ObjectOf(nested)));
      } else {
        EmptyMap(static_cast<MapBaseObj*>(ObjectOf(nested)));
      }
    }
  }
  static Object* ObjectOf(const Any& value) {
    return ObjectUnsafe::FromHandle(AnyUnsafe::TVMFFIAnyPtrFromAny(value)->v_obj);
  }

  /// Takes *value into the LIFO; out of memory, leaves it to be freed in place.
  void Push(Any* value) {
    if (size_ < kInline) {
      new (InlineCell(size_++)) Any(std::move(*value));
      return;
    }
    try {
      spill_.push_back(std::move(*value));
      ++size_;
    } catch (...) {
    }
  }
  Any Pop() {
    --size_;
    if (!spill_.empty()) {
      Any value = std::move(spill_.back());
      spill_.pop_back();
      return value;
    }
    Any* cell = InlineCell(size_);
    Any value = std::move(*cell);
    cell->Any::~Any();
    return value;
  }
  Any* InlineCell(int64_t i) { return reinterpret_cast<Any*>(inline_) + i; }

  static constexpr int64_t kInline = 4;
  alignas(Any) unsigned char inline_[kInline * sizeof(Any)];
  int64_t size_ = 0;        // deferred containers, inline and spilled
  std::vector<Any> spill_;  // used only while the inline cells are full
};

}  // namespace details

inline SeqBaseObj::~SeqBaseObj() {
  details::NestedRelease().EmptySeq(this);
  if (TVMFFISeqCell::data_deleter != nullptr) TVMFFISeqCell::data_deleter(TVMFFISeqCell::data);
}

inline MapBaseObj::~MapBaseObj() {
  details::NestedRelease().EmptyMap(this);
  if (data_deleter_ != nullptr) data_deleter_(data_);
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_NESTED_RELEASE_H_
