// SPDX-License-Identifier: Apache-2.0
// container_seq.cc: the ffi.Array* and ffi.List* global functions behind Python sequences.
//
// Indices are never negative-wrapped here (Python does that); any index outside [0, size) is an
// IndexError `Index <i> out of bounds <size>`. Elements are compared with AnyEqual (strings and
// bytes by content, everything else by identity).
//
//   ffi.Array(*args) -> Array              new Array of the arguments (owned copies)
//   ffi.ArrayGetItem(arr, i: int) -> Any   element i
//   ffi.ArraySize(arr) -> int              number of elements
//   ffi.ArrayContains(arr, v) -> bool      whether some element equals v
//   ffi.List(*args) -> List                new List of the arguments
//   ffi.ListGetItem(lst, i) -> Any         element i
//   ffi.ListSetItem(lst, i, v) -> None     replaces element i
//   ffi.ListSize(lst) -> int
//   ffi.ListContains(lst, v) -> bool
//   ffi.ListAppend(lst, v) -> None         appends v
//   ffi.ListInsert(lst, i, v) -> None      inserts v before index i (0 <= i <= size)
//   ffi.ListPop(lst, i) -> Any             removes and returns element i
//   ffi.ListErase(lst, i) -> None          removes element i
//   ffi.ListEraseRange(lst, b, e) -> None  removes [b, e) (0 <= b <= e <= size)
//   ffi.ListReplaceSlice(lst, b, e, seq) -> None
//                                          replaces [b, e) with the elements of seq (an Array or
//                                          List; seq may be lst itself)
//   ffi.ListClear(lst) -> None             removes every element
//   ffi.ListReserve(lst, n) -> None        makes room for n elements
//   ffi.ListReverse(lst) -> None           reverses in place
//   ffi.Shape(*dims: int) -> Shape         new Shape of the arguments (bool accepted as int)
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

void CheckIndex(int64_t i, size_t size) {
  if (i < 0 || i >= static_cast<int64_t>(size)) {
    details::ThrowIndexOutOfBounds(i, static_cast<int64_t>(size));
  }
}

/// Checks 0 <= begin <= end <= size.
void CheckRange(int64_t begin, int64_t end, size_t size) {
  int64_t n = static_cast<int64_t>(size);
  if (begin < 0 || begin > n) details::ThrowIndexOutOfBounds(begin, n);
  if (end < begin || end > n) details::ThrowIndexOutOfBounds(end, n);
}

Array<Any> MakeArray(const AnyView* args, int32_t num_args) {
  ObjectPtr<ArrayObj> obj = ArrayObj::Empty(num_args);
  for (int32_t i = 0; i < num_args; ++i) obj->EmplaceBackUnchecked(Any(args[i]));
  return Array<Any>(ObjectPtr<Object>(std::move(obj)));
}

List<Any> MakeList(const AnyView* args, int32_t num_args) {
  ObjectPtr<ListObj> obj = ListObj::Empty(num_args);
  for (int32_t i = 0; i < num_args; ++i) obj->EmplaceBackUnchecked(Any(args[i]));
  return List<Any>(ObjectPtr<Object>(std::move(obj)));
}

/// The elements of an Array or List cell, copied (so seq may alias the list being changed).
std::vector<Any> SeqItems(const AnyView& seq) {
  const SeqBaseObj* obj = details::SeqFromCell(details::AnyUnsafe::TVMFFIAnyPtrFromAny(seq));
  if (obj == nullptr || seq.type_index() == TypeIndex::kTVMFFIObjectRValueRef) {
    TVM_FFI_THROW(TypeError) << "ffi.ListReplaceSlice(): expected an Array or List, got `"
                             << seq.GetTypeKey() << "`";
  }
  return std::vector<Any>(obj->begin(), obj->end());
}

void ListReplaceSlice(const List<Any>& lst, int64_t begin, int64_t end, AnyView seq) {
  ListObj* obj = lst.GetListObj();
  CheckRange(begin, end, obj->size());
  std::vector<Any> items = SeqItems(seq);
  obj->EraseRange(begin, end);
  obj->ReserveForGrowth(static_cast<int64_t>(obj->size() + items.size()));
  obj->OpenGap(begin, static_cast<int64_t>(items.size()));
  for (size_t i = 0; i < items.size(); ++i) {
    new (obj->MutableBegin() + begin + static_cast<int64_t>(i)) Any(std::move(items[i]));
  }
}

Any ListPop(const List<Any>& lst, int64_t i) {
  ListObj* obj = lst.GetListObj();
  CheckIndex(i, obj->size());
  Any item = obj->begin()[i];
  obj->EraseRange(i, i + 1);
  return item;
}

/// Like Python's own containers, a request for more memory than there is raises MemoryError.
void ListReserve(const List<Any>& lst, int64_t n) {
  try {
    lst->Reserve(n);
  } catch (const std::bad_alloc&) {
    TVM_FFI_THROW(MemoryError) << "ffi.ListReserve(): cannot make room for " << n << " elements";
  }
}

void RegisterArrayFunctions() {
  reflection::GlobalDef()
      .def_packed("ffi.Array",
                  [](const AnyView* args, int32_t n, Any* rv) { *rv = MakeArray(args, n); })
      .def("ffi.ArrayGetItem", [](const Array<Any>& arr, int64_t i) -> Any { return arr->at(i); })
      .def("ffi.ArraySize",
           [](const Array<Any>& arr) -> int64_t { return static_cast<int64_t>(arr.size()); })
      .def("ffi.ArrayContains",
           [](const Array<Any>& arr, const Any& value) { return arr->Contains(value); });
}

void RegisterListFunctions() {
  reflection::GlobalDef()
      .def_packed("ffi.List",
                  [](const AnyView* args, int32_t n, Any* rv) { *rv = MakeList(args, n); })
      .def("ffi.ListGetItem", [](const List<Any>& lst, int64_t i) -> Any { return lst->at(i); })
      .def("ffi.ListSetItem",
           [](const List<Any>& lst, int64_t i, Any v) { lst->SetItem(i, std::move(v)); })
      .def("ffi.ListSize",
           [](const List<Any>& lst) -> int64_t { return static_cast<int64_t>(lst.size()); })
      .def("ffi.ListContains",
           [](const List<Any>& lst, const Any& value) { return lst->Contains(value); })
      .def("ffi.ListAppend", [](const List<Any>& lst, Any v) { lst->PushBack(std::move(v)); })
      .def("ffi.ListInsert",
           [](const List<Any>& lst, int64_t i, Any v) {
             CheckRange(i, i, lst.size());
             lst->InsertAt(i, std::move(v));
           })
      .def("ffi.ListPop", ListPop)
      .def("ffi.ListErase",
           [](const List<Any>& lst, int64_t i) {
             CheckIndex(i, lst.size());
             lst->EraseRange(i, i + 1);
           })
      .def("ffi.ListEraseRange",
           [](const List<Any>& lst, int64_t b, int64_t e) {
             CheckRange(b, e, lst.size());
             lst->EraseRange(b, e);
           })
      .def("ffi.ListReplaceSlice", ListReplaceSlice)
      .def("ffi.ListClear", [](const List<Any>& lst) { lst->clear(); })
      .def("ffi.ListReserve", ListReserve)
      .def("ffi.ListReverse", [](const List<Any>& lst) { lst->Reverse(); });
}

}  // namespace

Shape MakeShape(const AnyView* args, int32_t num_args) {
  std::vector<int64_t> dims;
  for (int32_t i = 0; i < num_args; ++i) {
    std::optional<int64_t> dim = args[i].try_cast<int64_t>();
    if (!dim.has_value()) {
      TVM_FFI_THROW(TypeError) << "ffi.Shape(): argument #" << i << " has the wrong type; expected "
                               << "'int', got '" << args[i].GetTypeKey() << "'";
    }
    dims.push_back(*dim);
  }
  return Shape(dims);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def_packed(
      "ffi.Shape", [](const AnyView* args, int32_t n, Any* rv) { *rv = MakeShape(args, n); });
  RegisterArrayFunctions();
  RegisterListFunctions();
}

}  // namespace ffi
}  // namespace tvm
