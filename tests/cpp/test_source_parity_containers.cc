// SPDX-License-Identifier: Apache-2.0
// test_source_parity_containers.cc: the container, string, optional and tensor spellings of
// Apache TVM FFI's headers that downstream code (TVM) uses compile here and behave the same.
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "test_utils.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::ArrayObj;
using ffi::Bytes;
using ffi::Dict;
using ffi::DictObj;
using ffi::List;
using ffi::ListObj;
using ffi::Map;
using ffi::MapBaseObj;
using ffi::MapObj;
using ffi::ObjectPtr;
using ffi::ObjectRef;
using ffi::Optional;
using ffi::Shape;
using ffi::ShapeObj;
using ffi::String;
using ffi::Tensor;
using ffi::TensorObj;
using ffi::Variant;
using tvm_ffi_test::ErrorText;

/// Keys of a map object in iteration order.
std::vector<std::string> Keys(const MapBaseObj& map) {
  std::vector<std::string> keys;
  for (const auto& kv : map) keys.push_back(kv.first.cast<String>());
  return keys;
}

// ------------------------------------------------------------------------------------------
// Tensor::get_mutable, TensorObj's DLPack export and the detail tensor objects
// ------------------------------------------------------------------------------------------

/// Allocates tensor data with malloc; counts the live buffers.
struct CountingAlloc {
  int* live;
  void AllocData(DLTensor* tensor) {
    tensor->data = std::malloc(std::max<size_t>(ffi::GetDataSize(*tensor), 1));
    ++*live;
  }
  void FreeData(DLTensor* tensor) {
    std::free(tensor->data);
    --*live;
  }
};

/// A Tensor subclass, as downstream runtimes write them, that edits its object in place.
class EditableTensor : public Tensor {
 public:
  explicit EditableTensor(Tensor tensor) : Tensor(std::move(tensor)) {}
  TensorObj* Mutable() const { return get_mutable(); }
};
static_assert(std::is_same_v<decltype(std::declval<const EditableTensor&>().Mutable()), TensorObj*>,
              "Tensor::get_mutable() gives a TensorObj*");

/// Exposes TensorObj's protected capsule deleter.
struct DeleterAccess : public TensorObj {
  static void (*Legacy())(DLManagedTensor*) {
    return &TensorObj::DLManagedTensorDeleter<DLManagedTensor>;
  }
};

Tensor MakeTensor(int* live, std::vector<int64_t> shape) {
  return Tensor::FromNDAlloc(CountingAlloc{live}, ffi::ShapeView(shape.data(), shape.size()),
                             DLDataType{kDLFloat, 32, 1}, DLDevice{kDLCPU, 0});
}

TEST(SourceParityTensor, GetMutableEditsTheSharedObject) {
  int live = 0;
  EditableTensor tensor(MakeTensor(&live, {2, 3}));
  Tensor alias = tensor;
  TensorObj* obj = tensor.Mutable();
  EXPECT_EQ(static_cast<const DLTensor*>(obj), tensor.GetDLTensorPtr());
  obj->byte_offset = 8;
  EXPECT_EQ(alias.byte_offset(), 8u);
}

TEST(SourceParityTensor, TensorObjToDLPackSharesDataAndHoldsAReference) {
  int live = 0;
  EditableTensor tensor(MakeTensor(&live, {4}));
  const TensorObj* obj = tensor.Mutable();
  EXPECT_EQ(tensor.use_count(), 1);
  DLManagedTensor* legacy = obj->ToDLPack();
  DLManagedTensorVersioned* versioned = obj->ToDLPackVersioned();
  EXPECT_EQ(tensor.use_count(), 3);
  EXPECT_EQ(legacy->dl_tensor.data, tensor.data_ptr());
  EXPECT_EQ(legacy->dl_tensor.shape[0], 4);
  EXPECT_EQ(versioned->dl_tensor.data, tensor.data_ptr());
  EXPECT_EQ(versioned->version.major, DLPACK_MAJOR_VERSION);
  legacy->deleter(legacy);
  versioned->deleter(versioned);
  EXPECT_EQ(tensor.use_count(), 1);
  tensor = EditableTensor(Tensor());
  EXPECT_EQ(live, 0);
}

TEST(SourceParityTensor, DLManagedTensorDeleterReleasesItsReference) {
  int live = 0;
  EditableTensor tensor(MakeTensor(&live, {1}));
  TensorObj* obj = tensor.Mutable();
  auto* capsule = new DLManagedTensor();
  capsule->dl_tensor = *static_cast<DLTensor*>(obj);
  capsule->manager_ctx = obj;
  capsule->deleter = DeleterAccess::Legacy();
  ffi::details::ObjectUnsafe::IncRefObjectHandle(obj);
  EXPECT_EQ(tensor.use_count(), 2);
  capsule->deleter(capsule);
  EXPECT_EQ(tensor.use_count(), 1);
}

TEST(SourceParityTensor, TensorObjFromNDAllocCopiesAPrototype) {
  int live = 0;
  int64_t shape[] = {2, 3};
  int64_t strides[] = {1, 2};
  DLTensor prototype{};
  prototype.ndim = 2;
  prototype.shape = shape;
  prototype.strides = strides;
  prototype.dtype = DLDataType{kDLInt, 8, 1};
  prototype.device = DLDevice{kDLCPU, 0};
  using Obj = ffi::detail::TensorObjFromNDAlloc<CountingAlloc>;
  static_assert(std::is_same_v<Obj::Self, Obj>);
  {
    Tensor tensor(ffi::make_inplace_array_object<Obj, int64_t>(4, CountingAlloc{&live}, prototype));
    EXPECT_EQ(live, 1);
    EXPECT_NE(tensor.shape().data(), shape);
    EXPECT_EQ(std::vector<int64_t>(tensor.shape().begin(), tensor.shape().end()),
              (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(std::vector<int64_t>(tensor.strides().begin(), tensor.strides().end()),
              (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(tensor.dtype().bits, 8);
    Tensor compact(ffi::make_inplace_array_object<Obj, int64_t>(
        4, CountingAlloc{&live}, ffi::ShapeView({5, 7}), DLDataType{kDLFloat, 16, 1},
        DLDevice{kDLCPU, 0}));
    EXPECT_EQ(compact.stride(0), 7);
    EXPECT_EQ(compact.stride(1), 1);
    EXPECT_EQ(live, 2);
  }
  EXPECT_EQ(live, 0);
}

/// A legacy capsule whose deleter counts its calls.
struct CountedCapsule {
  DLManagedTensor capsule{};
  int64_t shape[2] = {3, 4};
  float data[12] = {};
  int deleted = 0;
  CountedCapsule() {
    capsule.dl_tensor.data = data;
    capsule.dl_tensor.ndim = 2;
    capsule.dl_tensor.shape = shape;
    capsule.dl_tensor.dtype = DLDataType{kDLFloat, 32, 1};
    capsule.dl_tensor.device = DLDevice{kDLCPU, 0};
    capsule.manager_ctx = this;
    capsule.deleter = [](DLManagedTensor* self) {
      ++static_cast<CountedCapsule*>(self->manager_ctx)->deleted;
    };
  }
};

TEST(SourceParityTensor, TensorObjFromDLPackViewsACapsuleAndDeletesIt) {
  using Obj = ffi::detail::TensorObjFromDLPack<DLManagedTensor>;
  CountedCapsule source;
  {
    Tensor tensor(ffi::make_inplace_array_object<Obj, int64_t>(2, &source.capsule, true));
    EXPECT_EQ(tensor.data_ptr(), source.data);
    EXPECT_EQ(tensor.size(1), 4);
    EXPECT_EQ(tensor.stride(0), 4);
    EXPECT_EQ(tensor.stride(1), 1);
    EXPECT_EQ(source.deleted, 0);
  }
  EXPECT_EQ(source.deleted, 1);
}

// ------------------------------------------------------------------------------------------
// Shape
// ------------------------------------------------------------------------------------------

TEST(SourceParityShape, IndexTypeAndDetailBuilders) {
  static_assert(std::is_same_v<ShapeObj::index_type, int64_t>);
  static_assert(std::is_same_v<Shape::__PtrType, const ShapeObj*>);
  Shape shape{2, 3, 4};
  ShapeObj::index_type product = shape->Product();
  EXPECT_EQ(product, 24);

  int64_t* values = nullptr;
  ObjectPtr<ShapeObj> empty = ffi::detail::MakeEmptyShape(3, &values);
  ASSERT_NE(values, nullptr);
  EXPECT_EQ(empty->data, values);
  EXPECT_EQ(empty->size, 3u);

  std::vector<int> dims{5, 6};
  ObjectPtr<ShapeObj> inplace = ffi::detail::MakeInplaceShape(dims.begin(), dims.end());
  EXPECT_EQ(inplace->size, 2u);
  EXPECT_EQ(inplace->data[1], 6);

  int64_t strides[3];
  ffi::detail::FillStridesFromShape(shape, strides);
  EXPECT_EQ(std::vector<int64_t>(strides, strides + 3), (std::vector<int64_t>{12, 4, 1}));
  ObjectPtr<ShapeObj> made = ffi::detail::MakeStridesFromShape(shape);
  EXPECT_EQ(std::vector<int64_t>(made->data, made->data + made->size),
            (std::vector<int64_t>{12, 4, 1}));

  auto owned = ffi::make_object<ffi::detail::ShapeObjStdImpl>(std::vector<int64_t>{7, 8});
  EXPECT_EQ(owned->size, 2u);
  EXPECT_EQ(owned->Product(), 56);
}

// ------------------------------------------------------------------------------------------
// Array: iterators, GetArrayObj, conversions, Agregate
// ------------------------------------------------------------------------------------------

TEST(SourceParityArray, RangeForBindsAutoReferences) {
  Array<String> names{"a", "bb", "ccc"};
  static_assert(std::is_same_v<decltype(*names.begin()), const String>);
  std::string joined;
  for (auto& name : names) joined += std::string(name);
  for (const auto& name : names) joined += std::to_string(name.size());
  EXPECT_EQ(joined, "abbccc123");

  Array<int> numbers{1, 2, 3};
  int sum = 0;
  for (const auto& x : numbers) sum += x;
  EXPECT_EQ(sum, 6);
  std::vector<int> reversed(numbers.rbegin(), numbers.rend());
  EXPECT_EQ(reversed, (std::vector<int>{3, 2, 1}));
  Array<int> none;
  EXPECT_EQ(none.rbegin(), none.rend());

  List<String> list{"x", "y"};
  for (auto& item : list) joined += std::string(item);
  Map<String, int> map{{"k", 4}};
  for (auto& kv : map) joined += std::string(kv.first) + std::to_string(kv.second);
  EXPECT_EQ(joined, "abbccc123xyk4");
}

TEST(SourceParityArray, GetArrayObjIsMutable) {
  static_assert(
      std::is_same_v<decltype(std::declval<const Array<int>&>().GetArrayObj()), ArrayObj*>);
  Array<int> numbers{4, 5};
  ArrayObj* obj = numbers.GetArrayObj();
  EXPECT_EQ(obj, numbers.get());
  EXPECT_EQ(obj->size(), 2u);
  EXPECT_EQ(Array<int>(ffi::UnsafeInit{}).GetArrayObj(), nullptr);
}

TEST(SourceParityArray, AssignsToArrayOfVariant) {
  using IntOrFloat = Variant<int, float>;
  static_assert(ffi::type_subsumes_v<IntOrFloat, int>);
  static_assert(ffi::type_subsumes_v<Array<IntOrFloat>, Array<int>>);
  static_assert(!ffi::type_subsumes_v<Array<int>, Array<IntOrFloat>>);
  static_assert(!std::is_convertible_v<Array<Any>, Array<int>>);
  Array<int> numbers{1, 2};
  Array<IntOrFloat> mixed = numbers;
  EXPECT_TRUE(mixed.same_as(numbers));  // the storage is shared, not converted
  EXPECT_EQ(mixed[1].get<int>(), 2);
  Array<IntOrFloat> assigned;
  assigned = numbers;
  EXPECT_TRUE(assigned.same_as(numbers));
  Array<IntOrFloat> moved = Array<int>{7};
  EXPECT_EQ(moved[0].get<int>(), 7);
  Map<String, IntOrFloat> map = Map<String, int>{{"x", 3}};
  EXPECT_EQ(map["x"].get<int>(), 3);
  Array<Array<int>> nested{{1, 2}};
  Array<Optional<Array<int>>> optional = nested;  // also shared: every Array<int> is an Optional
  EXPECT_TRUE(optional.same_as(nested));
  EXPECT_EQ(optional[0].value().size(), 2u);
}

TEST(SourceParityArray, AgregateSplicesArraysAndValueConverter) {
  Array<int> middle{2, 3};
  EXPECT_EQ(Array<int>::CalcCapacityImpl(1, middle, 4), 4u);
  Array<int> all = Array<int>::Agregate(1, middle, 4);
  EXPECT_EQ(std::vector<int>(all.begin(), all.end()), (std::vector<int>{1, 2, 3, 4}));
  Array<Any> anys{1};
  Array<Any> spliced = Array<Any>::Agregate(anys, anys);
  EXPECT_EQ(spliced.size(), 2u);  // an Array<Any> argument is spliced, not nested
  EXPECT_EQ(Array<int>::ValueConverter::convert(Any(9)), 9);
  static_assert(!Array<int>::_type_container_is_exact && !List<int>::_type_container_is_exact &&
                !Map<int, int>::_type_container_is_exact &&
                !Dict<int, int>::_type_container_is_exact &&
                !ffi::Tuple<int>::_type_container_is_exact &&
                !Variant<int, String>::_type_container_is_exact);
  static_assert(ffi::is_valid_iterator_v<ObjectRef, std::vector<Array<int>>::iterator>);
  static_assert(!ffi::is_valid_iterator_v<String, std::vector<int>::iterator>);
  static_assert(ffi::is_valid_iterator_v<Any, std::vector<int>::iterator>);
}

// ------------------------------------------------------------------------------------------
// SeqBaseObj / ListObj editing
// ------------------------------------------------------------------------------------------

std::vector<int> ListValues(const List<int>& list) { return {list.begin(), list.end()}; }

TEST(SourceParityList, ListObjPopBackInsertEraseResize) {
  List<int> list{1, 2, 3};
  ListObj* obj = list.GetListObj();
  obj->pop_back();
  EXPECT_EQ(ListValues(list), (std::vector<int>{1, 2}));
  for (int i = 0; i < 10; ++i) obj->insert(0, Any(100 + i));  // grows as needed
  EXPECT_EQ(list.size(), 12u);
  EXPECT_EQ(list[0], 109);
  EXPECT_EQ(list.back(), 2);
  std::vector<Any> extra{Any(7), Any(8)};
  obj->insert(12, extra.begin(), extra.end());
  EXPECT_EQ(list.back(), 8);
  obj->insert(1, obj->begin(), obj->begin() + 2);  // a range of the list itself
  EXPECT_EQ(list[1], 109);
  EXPECT_EQ(list[2], 108);
  obj->erase(0, 3);
  obj->erase(0);
  EXPECT_EQ(list[0], 107);
  obj->resize(2);
  EXPECT_EQ(ListValues(list), (std::vector<int>{107, 106}));
  obj->resize(3);
  EXPECT_EQ(obj->back().type_index(), ffi::TypeIndex::kTVMFFINone);
  obj->SetItemAfterCheck(2, Any(5));
  EXPECT_EQ(list[2], 5);
  ObjectPtr<ListObj> repeated = ListObj::CreateRepeated(3, Any(4));
  EXPECT_EQ(List<int>(repeated)[2], 4);
}

TEST(SourceParityList, SeqEditsRejectBadPositions) {
  List<int> list{1};
  ListObj* obj = list.GetListObj();
  EXPECT_EQ(ErrorText([&] { obj->insert(3, Any(1)); }), "IndexError: Index 3 out of bounds [0, 1]");
  EXPECT_EQ(ErrorText([&] { obj->erase(1); }), "IndexError: Index 1 out of bounds 1");
  EXPECT_EQ(ErrorText([&] { obj->erase(0, 2); }), "IndexError: Erase range [0, 2) out of bounds 1");
  EXPECT_EQ(ErrorText([&] { obj->resize(-1); }), "ValueError: Cannot resize to negative size");
  obj->pop_back();
  EXPECT_EQ(ErrorText([&] { obj->pop_back(); }), "IndexError: pop_back on empty sequence");
  // An array object never reallocates in place: a full one refuses to grow.
  Array<int> array{1, 2};
  Array<int> exact(array.begin(), array.end());
  ArrayObj* full = exact.CopyOnWrite();
  ASSERT_EQ(full->capacity(), full->size());
  EXPECT_EQ(ErrorText([&] { full->insert(0, Any(0)); }).substr(0, 30),
            "ValueError: Not enough capacit");
}

TEST(SourceParityList, InitRangeAndEmplaceInit) {
  ObjectPtr<ArrayObj> obj = ArrayObj::CreateRepeated(3, Any());
  std::vector<int> values{4, 5};
  obj->InitRange(1, values.begin(), values.end());
  EXPECT_EQ(Array<Any>(obj)[2].cast<int>(), 5);
  EXPECT_EQ(ErrorText([&] { obj->InitRange(2, values.begin(), values.end()); }),
            "IndexError: Index 4 out of bounds 3");
}

// ------------------------------------------------------------------------------------------
// MapBaseObj: the std::unordered_map-like interface
// ------------------------------------------------------------------------------------------

TEST(SourceParityMap, InitializerListOfAny) {
  Map<String, Any> map{{"a", 1}, {"b", 2}};
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(map["a"].cast<int>(), 1);
  EXPECT_EQ(map["b"].cast<int>(), 2);
  EXPECT_EQ(Keys(*map.get()), (std::vector<std::string>{"a", "b"}));
}

TEST(SourceParityMap, MapObjAtEraseAndRangeFor) {
  Map<String, Any> map{{"a", 1}, {"b", 2}, {"c", 3}};
  Map<String, Any> before = map;
  MapObj* obj = map.CopyOnWrite();  // unshares
  EXPECT_EQ(obj->at(String("b")).cast<int>(), 2);
  obj->at(String("b")) = 20;
  EXPECT_EQ(map["b"].cast<int>(), 20);
  EXPECT_EQ(before["b"].cast<int>(), 2);
  EXPECT_EQ(ErrorText([&] { obj->at(String("zz")); }), "KeyError: key is not in Map");
  EXPECT_EQ(obj->count(String("a")), 1u);
  obj->erase(String("a"));
  obj->erase(String("missing"));
  EXPECT_EQ(obj->count(String("a")), 0u);
  int total = 0;
  for (auto& kv : *obj) {
    static_assert(std::is_same_v<decltype(kv), MapBaseObj::KVType&>);
    total += kv.second.cast<int>();
  }
  EXPECT_EQ(total, 23);
  MapBaseObj::iterator it = obj->find(String("c"));
  ASSERT_NE(it, obj->end());
  EXPECT_EQ(it->second.cast<int>(), 3);
  obj->erase(it);
  obj->erase(obj->end());
  EXPECT_EQ(Keys(*obj), (std::vector<std::string>{"b"}));
  obj->clear();
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(obj->begin(), obj->end());
}

TEST(SourceParityMap, IteratorStepsBothWaysInBothLayouts) {
  for (int n : {3, 40}) {
    Dict<String, int> dict;
    for (int i = 0; i < n; ++i) dict.Set("k" + std::to_string(i), i);
    const MapBaseObj& map = *dict.get();
    EXPECT_EQ(map.IsSmallMap(), n <= 4);
    MapBaseObj::iterator last = map.end();
    --last;
    EXPECT_EQ(last->second.cast<int>(), n - 1);
    MapBaseObj::iterator first = map.begin();
    EXPECT_EQ((*first).first.cast<String>(), "k0");
    EXPECT_EQ((first++)->second.cast<int>(), 0);
    EXPECT_EQ(first->second.cast<int>(), 1);
    MapBaseObj::iterator end = map.end();
    EXPECT_EQ(++end, map.end());  // stays at the end
    std::vector<std::string> keys = Keys(map);
    ASSERT_EQ(keys.size(), static_cast<size_t>(n));
    EXPECT_EQ(keys.back(), "k" + std::to_string(n - 1));
  }
}

TEST(SourceParityMap, SmallAndDenseViews) {
  Map<int, int> small{{1, 10}};
  const auto* small_view =
      static_cast<const ffi::SmallMapBaseObj*>(static_cast<const MapBaseObj*>(small.get()));
  EXPECT_EQ(small_view->NumSlots(), 2u);
  EXPECT_EQ(small_view->at(Any(1)).cast<int>(), 10);
  EXPECT_EQ(small_view->count(Any(2)), 0u);

  Map<int, int> dense;
  for (int i = 0; i < 50; ++i) dense.Set(i, i * i);
  const auto* dense_view =
      static_cast<const ffi::DenseMapBaseObj*>(static_cast<const MapBaseObj*>(dense.get()));
  uint64_t slots = dense_view->NumSlots();
  EXPECT_GE(slots, 50u);
  EXPECT_EQ(slots & (slots - 1), 0u);
  EXPECT_EQ(dense_view->at(Any(7)).cast<int>(), 49);
  EXPECT_EQ(dense_view->find(Any(99)), dense_view->end());
  size_t count = 0;
  for (auto it = dense_view->begin(); it != dense_view->end(); ++it) ++count;
  EXPECT_EQ(count, 50u);
}

/// Exposes MapBaseObj's building members, as Apache's Map and Dict use them.
struct MapBuilders : public MapBaseObj {
  using MapBaseObj::CopyFrom;
  using MapBaseObj::CreateFromRange;
  using MapBaseObj::Empty;
  using MapBaseObj::InsertMaybeReHash;
};

TEST(SourceParityMap, BuildersAndShallowCopy) {
  std::map<std::string, int> source{{"x", 1}, {"y", 2}};
  Map<String, int> built(MapBuilders::CreateFromRange<MapObj>(source.begin(), source.end()));
  EXPECT_EQ(built["y"], 2);
  EXPECT_EQ((Map<String, int>(MapBuilders::Empty<MapObj>()).size()), 0u);
  EXPECT_EQ((Map<String, int>(MapObj::Empty<MapObj>()).size()), 0u);

  // In place while there is room (nullptr), a new map once it must grow.
  ObjectPtr<ffi::Object> data = MapBuilders::Empty<MapObj>();
  int grown = 0;
  for (int i = 0; i < 20; ++i) {
    ObjectPtr<ffi::Object> next =
        MapBuilders::InsertMaybeReHash<MapObj>(MapBaseObj::KVType(Any(i), Any(i)), data);
    if (next != nullptr) {
      data = std::move(next);
      ++grown;
    }
  }
  EXPECT_GT(grown, 0);
  EXPECT_EQ((Map<int, int>(data).size()), 20u);

  ObjectPtr<ffi::Object> copy = MapObj::ShallowCopy(built.get());
  EXPECT_NE(copy.get(), built.get());
  EXPECT_EQ((Map<String, int>(copy)["x"]), 1);
  Dict<String, int> dict{{"k", 5}};
  Dict<String, int> dict_copy(DictObj::ShallowCopy(dict.get()));
  dict_copy.Set("k", 6);
  EXPECT_EQ(dict["k"], 5);
  Map<String, int> from_dict(MapBuilders::CopyFrom<MapObj>(dict.get()));
  EXPECT_EQ(from_dict["k"], 5);
}

TEST(SourceParityMap, InplaceSwitchToKeepsTheDictObject) {
  Dict<String, int> dict{{"a", 1}};
  Dict<String, int> alias = dict;
  Dict<String, int> other{{"b", 2}, {"c", 3}};
  dict.get()->InplaceSwitchTo(ffi::details::ObjectUnsafe::ObjectPtrFromUnowned<ffi::Object>(
      static_cast<ffi::Object*>(other.get())));
  EXPECT_EQ(Keys(*alias.get()), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(Keys(*other.get()), (std::vector<std::string>{"a"}));
  Map<String, int> small{{"s", 1}};
  EXPECT_EQ(ErrorText([&] {
              dict.get()->InplaceSwitchTo(
                  ffi::details::ObjectUnsafe::ObjectPtrFromUnowned<ffi::Object>(small.get()));
            }),
            "InternalError: InplaceSwitchTo: both maps need room for the dense layout (a Dict, or "
            "a dense Map)");
}

// ------------------------------------------------------------------------------------------
// Traits bases
// ------------------------------------------------------------------------------------------

TEST(SourceParityTraits, SeqAndMapTraitsBases) {
  using ArrayTraits = ffi::TypeTraits<Array<int>>;
  static_assert(
      std::is_base_of_v<ffi::SeqTypeTraitsBase<ArrayTraits, Array<int>, int>, ArrayTraits>);
  using MapTraits = ffi::TypeTraits<Map<String, int>>;
  static_assert(std::is_base_of_v<ffi::MapTypeTraitsBase<MapTraits, Map<String, int>, String, int>,
                                  MapTraits>);
  EXPECT_EQ(ArrayTraits::TypeStr(), "Array<int>");
  EXPECT_EQ(ffi::TypeTraits<List<String>>::TypeStr(), "List<str>");
  EXPECT_EQ(MapTraits::TypeStr(), "Map<str, int>");
  EXPECT_EQ((ffi::TypeTraits<Dict<int, float>>::TypeStr()), "Dict<int, float>");
  Any list = List<int>{1, 2};
  EXPECT_EQ(list.cast<Array<int>>().size(), 2u);
  EXPECT_EQ(ErrorText([&] { Any(List<Any>{1, "x"}).cast<Array<int>>(); }),
            "TypeError: Cannot convert from type `Array[index 1: ffi.SmallStr]` to `Array<int>`");

  using TupleTraits = ffi::TypeTraits<ffi::Tuple<int, String>>;
  Array<Any> cells{1, "x"};
  const TVMFFIAny* raw = reinterpret_cast<const TVMFFIAny*>(cells.GetArrayObj()->begin());
  EXPECT_TRUE((TupleTraits::CheckAnyStrictHelper<0, int, String>(raw)));
  EXPECT_FALSE((TupleTraits::CheckAnyStrictHelper<0, String, String>(raw)));
  EXPECT_EQ((TupleTraits::GetMismatchTypeInfoHelper<0, int, int>(cells.GetArrayObj()->begin())),
            "Array[index 1: ffi.SmallStr]");
  Array<Any> floats{1.0, 2};
  Any* cells_out = floats.CopyOnWrite()->MutableBegin();
  EXPECT_TRUE((TupleTraits::TryConvertElements<0, double, double>(cells_out)));
  EXPECT_EQ(floats[1].type_index(), ffi::TypeIndex::kTVMFFIFloat);
}

// ------------------------------------------------------------------------------------------
// Variant, Optional
// ------------------------------------------------------------------------------------------

TEST(SourceParityVariant, SameAsHashAndTypeKey) {
  using V = Variant<Array<int>, Map<String, int>>;
  Array<int> numbers{1};
  V a = numbers;
  V b = numbers;
  V c = Array<int>{1};
  EXPECT_TRUE(a.same_as(b));
  EXPECT_FALSE(a.same_as(c));
  EXPECT_EQ(ffi::ObjectPtrHash()(a), ffi::ObjectPtrHash()(numbers));
  EXPECT_TRUE(ffi::ObjectPtrEqual()(a, b));
  EXPECT_FALSE(ffi::ObjectPtrEqual()(a, c));
  std::unordered_map<V, int, ffi::ObjectPtrHash, ffi::ObjectPtrEqual> counts;
  counts[a] = 1;
  counts[b] += 1;
  EXPECT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[a], 2);
  EXPECT_EQ(a.GetTypeKey(), "ffi.Array");
  EXPECT_EQ((Variant<int, String>(3).GetTypeKey()), "int");
  static_assert(V::variant_contains_v<Array<int>> && !V::variant_contains_v<int>);
  static_assert(std::is_void_v<V::enable_if_variant_contains_t<Array<int>>>);
  auto converted = ffi::TypeTraits<Variant<String, int64_t>>::TryVariantTypes<String, int64_t>(
      ffi::details::AnyUnsafe::TVMFFIAnyPtrFromAny(Any(true)));
  ASSERT_TRUE(converted.has_value());
  EXPECT_EQ(converted->get<int64_t>(), 1);
}

TEST(SourceParityOptional, SameAsValueTypeAndPointerTraits) {
  Optional<String> a = String("long enough to be an object");
  Optional<String> b = a;
  Optional<String> c = String("long enough to be an object");
  EXPECT_TRUE(a.same_as(b));
  EXPECT_FALSE(a.same_as(c));
  EXPECT_TRUE(Optional<int>().same_as(Optional<int>()));
  EXPECT_TRUE(Optional<int>(3).same_as(3));
  Optional<Array<int>> arr = Array<int>{1};
  Array<int> held = arr.value();
  Optional<Variant<int, Array<int>>> holder = held;
  EXPECT_TRUE(holder.same_as(held));
  EXPECT_FALSE(holder.same_as(Array<int>{1}));
  static_assert(std::is_same_v<Optional<Array<int>>::value_type, Array<int>>);
  // As in Apache's headers, an Optional of a reference is not a reference itself.
  static_assert(!std::is_base_of_v<ObjectRef, Optional<Array<int>>>);
  static_assert(!std::is_convertible_v<Optional<ObjectRef>, ObjectRef>);
  static_assert(!Optional<Array<int>>::_type_container_is_exact);
  static_assert(Optional<ObjectRef>::_type_container_is_exact);

  using PtrTraits = ffi::detail::OptionalObjectPtrTraits<ffi::Arc<ArrayObj>>;
  static_assert(std::is_same_v<PtrTraits::ContainerType, ArrayObj>);
  static_assert(std::is_same_v<PtrTraits::StorageType, ObjectPtr<ArrayObj>>);
  ObjectPtr<ArrayObj> ptr = ArrayObj::Empty(1);
  ffi::Arc<ArrayObj> arc = PtrTraits::Copy(ptr);
  EXPECT_EQ(arc.get(), ptr.get());
  EXPECT_EQ(ptr.use_count(), 2);
  ffi::Arc<ArrayObj> moved = PtrTraits::Move(std::move(ptr));
  EXPECT_EQ(moved.get(), arc.get());
  Optional<ffi::Arc<ArrayObj>> opt = arc;
  EXPECT_EQ(opt.value().get(), arc.get());
}

// ------------------------------------------------------------------------------------------
// String, Bytes
// ------------------------------------------------------------------------------------------

TEST(SourceParityString, FindStartsWithEndsWithOverloads) {
  String text("hello, world");
  EXPECT_EQ(text.find(String("o")), 4u);
  EXPECT_EQ(text.find(String("o"), 5), 8u);
  EXPECT_EQ(text.find("world"), 7u);
  EXPECT_EQ(text.find("worlds", 0, 5), 7u);
  EXPECT_EQ(text.find(std::string("xyz")), String::npos);
  EXPECT_EQ(text.find(String("")), 0u);
  EXPECT_TRUE(text.starts_with(String("hello")));
  EXPECT_TRUE(text.starts_with("hell"));
  EXPECT_TRUE(text.starts_with(std::string("h")));
  EXPECT_TRUE(text.starts_with("help", 3));
  EXPECT_FALSE(text.starts_with(String("world")));
  EXPECT_TRUE(text.ends_with(String("world")));
  EXPECT_TRUE(text.ends_with("ld"));
  EXPECT_TRUE(text.ends_with(std::string_view("d")));
  EXPECT_FALSE(text.ends_with(String("a much longer suffix than the text")));
}

TEST(SourceParityString, EscapedStringPy) {
  EXPECT_EQ(std::string(ffi::EscapedStringPy("plain")), "\"plain\"");
  EXPECT_EQ(std::string(ffi::EscapedStringPy("a\nb\t\"q\"\\")), "\"a\\nb\\t\\\"q\\\"\\\\\"");
  EXPECT_EQ(std::string(ffi::EscapedStringPy(String("\x01\x7f", 2))), "\"\\x01\\x7f\"");
  EXPECT_EQ(std::string(ffi::EscapedStringPy("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80")),
            "\"caf\\u00e9 \\u20ac \\U0001f600\"");
  EXPECT_EQ(std::string(ffi::EscapedStringPy("\xff\xc3")), "\"\\xff\\xc3\"");
  EXPECT_EQ(std::string(ffi::EscapedStringPy("\x1b[1;31mred\x1b[0m\x1b[x")),
            "\"\\x1b[1;31mred\\x1b[0m\\x1b[x\"");
}

TEST(SourceParityString, BytesFromByteArrayAndSwap) {
  TVMFFIByteArray raw{"some bytes here", 15};
  Bytes from_raw = raw;  // implicit, as in Apache
  EXPECT_EQ(std::string(from_raw), "some bytes here");
  Bytes small("ab", 2);
  from_raw.swap(small);
  EXPECT_EQ(std::string(from_raw), "ab");
  EXPECT_EQ(std::string(small), "some bytes here");
}

TEST(SourceParityString, BytesBaseCell) {
  using ffi::detail::BytesBaseCell;
  BytesBaseCell none;
  EXPECT_TRUE(none == std::nullopt);
  BytesBaseCell cell;
  char* small = cell.InitSpaceForSize<ffi::StringObj>(3, ffi::TypeIndex::kTVMFFISmallStr,
                                                      ffi::TypeIndex::kTVMFFIStr);
  const char text[] = {'a', 'b', 'c'};
  std::memcpy(small, text, sizeof(text));
  EXPECT_TRUE(cell != std::nullopt);
  EXPECT_EQ(std::string(cell.data(), cell.size()), "abc");
  EXPECT_EQ(cell.CopyToTVMFFIAny().type_index, ffi::TypeIndex::kTVMFFISmallStr);

  BytesBaseCell large;
  large.InitFromStd<ffi::StringObj>(std::string(40, 'z'), ffi::TypeIndex::kTVMFFIStr);
  BytesBaseCell copy = large;
  EXPECT_EQ(copy.size(), 40u);
  TVMFFIAny moved{};
  copy.MoveToAny(&moved);
  EXPECT_TRUE(copy == std::nullopt);
  String as_string = ffi::details::AnyUnsafe::MoveTVMFFIAnyToAny(&moved).cast<String>();
  EXPECT_EQ(std::string(as_string), std::string(40, 'z'));

  TVMFFIAny view = large.CopyToTVMFFIAny();
  BytesBaseCell borrowed = BytesBaseCell::CopyFromAnyView(&view);
  EXPECT_EQ(std::string(borrowed.data(), 3), "zzz");
  large.swap(cell);
  EXPECT_EQ(large.size(), 3u);
  EXPECT_EQ(cell.size(), 40u);
}

// ------------------------------------------------------------------------------------------
// memory.h, extra/stl.h templates
// ------------------------------------------------------------------------------------------

TEST(SourceParityMisc, AlignedAllocAndStlTemplates) {
  void* block = ffi::detail::AlignedAlloc(256, 128);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 128, 0u);
  ffi::detail::AlignedFree(block);

  static_assert(
      std::is_base_of_v<ffi::details::STLTypeTrait, ffi::TypeTraits<ffi::detail::ListTemplate>>);
  static_assert(ffi::TypeTraits<ffi::detail::MapTemplate>::field_static_type_index ==
                ffi::TypeIndex::kTVMFFIMap);
}

/// A user trait's view of the ListTemplate and MapTemplate building helpers.
struct StlListBuilders : ffi::TypeTraits<ffi::detail::ListTemplate> {
  using ffi::TypeTraits<ffi::detail::ListTemplate>::CopyToArray;
  using ffi::TypeTraits<ffi::detail::ListTemplate>::CopyToTuple;
  using ffi::TypeTraits<ffi::detail::ListTemplate>::MoveToArray;
};
struct StlMapTemplateBuilders : ffi::TypeTraits<ffi::detail::MapTemplate> {
  using ffi::TypeTraits<ffi::detail::MapTemplate>::CopyToMap;
};

TEST(SourceParityMisc, StlTemplateHelpersBuildContainers) {
  std::vector<std::string> words{"a", "bc"};
  ffi::Array<ffi::String> copied(ffi::ObjectPtr<ffi::Object>(StlListBuilders::CopyToArray(words)));
  EXPECT_EQ(copied.size(), 2);
  EXPECT_EQ(copied[1], "bc");
  EXPECT_EQ(words[1], "bc");
  ffi::Array<ffi::String> moved(
      ffi::ObjectPtr<ffi::Object>(StlListBuilders::MoveToArray(std::move(words))));
  EXPECT_EQ(moved[0], "a");

  ffi::Array<ffi::Any> tuple(ffi::ObjectPtr<ffi::Object>(
      StlListBuilders::CopyToTuple(std::make_tuple(1, std::string("x")))));
  EXPECT_EQ(tuple[0].cast<int64_t>(), 1);
  EXPECT_EQ(tuple[1].cast<std::string>(), "x");

  std::map<std::string, int> entries{{"k", 3}};
  ffi::Map<ffi::String, int64_t> map(StlMapTemplateBuilders::CopyToMap(entries));
  EXPECT_EQ(map.at("k"), 3);
}

}  // namespace
