// SPDX-License-Identifier: Apache-2.0
// container/seq_traits.h: TypeTraits shared by Array<T> and List<T> (accept Array or List cells).
#ifndef TVM_FFI_CONTAINER_SEQ_TRAITS_H_
#define TVM_FFI_CONTAINER_SEQ_TRAITS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace details {

/// The object an Array/List cell (or an rvalue reference to one) holds, or nullptr.
inline const SeqBaseObj* SeqFromCell(const TVMFFIAny* src) {
  const TVMFFIObject* obj = nullptr;
  if (src->type_index == TypeIndex::kTVMFFIArray || src->type_index == TypeIndex::kTVMFFIList) {
    obj = src->v_obj;
  } else if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
    obj = *static_cast<TVMFFIObject**>(src->v_ptr);
    if (obj == nullptr ||
        (obj->type_index != TypeIndex::kTVMFFIArray && obj->type_index != TypeIndex::kTVMFFIList)) {
      return nullptr;
    }
  }
  return static_cast<const SeqBaseObj*>(ObjectUnsafe::FromHandle(const_cast<TVMFFIObject*>(obj)));
}

/// Traits of a sequence reference TSeq of T whose own object has index kSelfIndex.
template <typename TSeq, typename T, int32_t kSelfIndex>
struct SeqTypeTraitsBase : public TypeTraitsBase {
  using RefTraits = ObjectRefTypeTraitsBase<TSeq>;
  static constexpr int32_t field_static_type_index = kSelfIndex;

  static void CopyToAnyView(const TSeq& src, TVMFFIAny* result) {
    RefTraits::CopyToAnyView(src, result);
  }
  static void MoveToAny(TSeq src, TVMFFIAny* result) {
    RefTraits::MoveToAny(std::move(src), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != kSelfIndex) return false;
    return AllStrict(SeqFromCell(src));
  }
  static TSeq CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return RefTraits::CopyFromAnyViewAfterCheck(src);
  }
  static TSeq MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return RefTraits::MoveFromAnyAfterCheck(src);
  }
  /// Shares the object when it is already a TSeq, otherwise converts every element (copying).
  static std::optional<TSeq> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqFromCell(src);
    if (seq == nullptr) return std::nullopt;
    if (seq->type_index() == kSelfIndex && AllStrict(seq)) {
      return ObjectUnsafe::ObjectRefFromObjectPtr<TSeq>(
          ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<const Object*>(seq)));
    }
    std::vector<T> items;
    items.reserve(seq->size());
    for (const Any& item : *seq) {
      std::optional<T> converted = ElemTraits<T>::TryCast(AnyUnsafe::TVMFFIAnyPtrFromAny(item));
      if (!converted.has_value()) return std::nullopt;
      items.push_back(*std::move(converted));
    }
    return TSeq(items.begin(), items.end());
  }
  /// `Array[index <i>: <info>]` (or `List[...]`) for the first element that does not convert.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqFromCell(src);
    if (seq == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      return RefTraits::GetMismatchTypeInfo(src);
    }
    const char* kind = seq->type_index() == TypeIndex::kTVMFFIArray ? "Array" : "List";
    for (size_t i = 0; i < seq->size(); ++i) {
      const TVMFFIAny* cell = AnyUnsafe::TVMFFIAnyPtrFromAny(seq->begin()[i]);
      if (!ElemTraits<T>::TryCast(cell).has_value()) {
        return std::string(kind) + "[index " + std::to_string(i) + ": " +
               ElemTraits<T>::MismatchInfo(cell) + "]";
      }
    }
    return TypeIndexToTypeKey(src->type_index);
  }
  static std::string TypeSchema(const char* key) {
    return std::string("{\"type\":\"") + key + "\",\"args\":[" + TypeSchemaOf<T>::v() + "]}";
  }

 private:
  static bool AllStrict(const SeqBaseObj* seq) {
    if constexpr (!std::is_same_v<T, Any>) {
      for (const Any& item : *seq) {
        if (!ElemTraits<T>::CheckStrict(AnyUnsafe::TVMFFIAnyPtrFromAny(item))) return false;
      }
    }
    return true;
  }
};
}  // namespace details

/// Array<T> in cells: accepts Array or List, converting elementwise (copies when needed).
template <typename T>
struct TypeTraits<Array<T>>
    : public details::SeqTypeTraitsBase<Array<T>, T, TypeIndex::kTVMFFIArray> {
  static std::string TypeStr() { return "Array<" + details::Type2Str<T>::v() + ">"; }
  static std::string TypeSchema() {
    return details::SeqTypeTraitsBase<Array<T>, T, TypeIndex::kTVMFFIArray>::TypeSchema(
        StaticTypeKey::kTVMFFIArray);
  }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_SEQ_TRAITS_H_
