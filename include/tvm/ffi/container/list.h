// SPDX-License-Identifier: Apache-2.0
// container/list.h: ListObj (index 75, separate buffer) and List<T> (mutable, shared).
#ifndef TVM_FFI_CONTAINER_LIST_H_
#define TVM_FFI_CONTAINER_LIST_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/seq_traits.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/// List object: the cells live in a separate malloc buffer released through data_deleter.
class ListObj : public SeqBaseObj {
 public:
  /// A new list with room for cap elements.
  static ObjectPtr<ListObj> Empty(int64_t cap = 0) {
    ObjectPtr<ListObj> obj = make_object<ListObj>();
    obj->Reserve(cap);
    return obj;
  }
  /// Makes room for at least n elements (the buffer is replaced, elements relocated).
  void Reserve(int64_t n) {
    if (n <= TVMFFISeqCell::capacity) return;
    void* buffer = std::malloc(details::CheckedAllocationSize(n, sizeof(Any)));
    if (buffer == nullptr) throw std::bad_alloc();
    int64_t count = TVMFFISeqCell::size;
    if (TVMFFISeqCell::data != nullptr) RelocateTo(static_cast<Any*>(buffer));
    if (TVMFFISeqCell::data_deleter != nullptr) TVMFFISeqCell::data_deleter(TVMFFISeqCell::data);
    TVMFFISeqCell::data = buffer;
    TVMFFISeqCell::size = count;
    TVMFFISeqCell::capacity = n;
    TVMFFISeqCell::data_deleter = FreeBuffer;
  }
  /// Makes room for need elements, growing geometrically.
  void ReserveForGrowth(int64_t need) {
    if (need > TVMFFISeqCell::capacity)
      Reserve(details::GrowCapacity(TVMFFISeqCell::capacity, need));
  }
  /// Inserts value before position pos (0 <= pos <= size).
  void InsertAt(int64_t pos, Any value) {
    ReserveForGrowth(TVMFFISeqCell::size + 1);
    OpenGap(pos, 1);
    new (MutableBegin() + pos) Any(std::move(value));
  }
  /// Appends value.
  void PushBack(Any value) {
    ReserveForGrowth(TVMFFISeqCell::size + 1);
    EmplaceBackUnchecked(std::move(value));
  }
  /// Inserts item before position idx (IndexError unless 0 <= idx <= size), growing as needed.
  void insert(int64_t idx, Any item) {
    ReserveForGrowth(TVMFFISeqCell::size + 1);
    SeqBaseObj::insert(idx, std::move(item));
  }
  /// Inserts the values of [first, last) before position idx, growing as needed.
  template <typename IterType>
  void insert(int64_t idx, IterType first, IterType last) {
    // Copied out first: the range may be this list, whose cells a reallocation moves.
    std::vector<Any> items;
    for (; first != last; ++first) items.emplace_back(*first);
    ReserveForGrowth(TVMFFISeqCell::size + static_cast<int64_t>(items.size()));
    SeqBaseObj::insert(idx, std::make_move_iterator(items.begin()),
                       std::make_move_iterator(items.end()));
  }
  /// Shrinks to n elements or grows with None (ValueError when n < 0), growing as needed.
  void resize(int64_t n) {
    if (n > TVMFFISeqCell::capacity) Reserve(n);
    SeqBaseObj::resize(n);
  }
  /// A new list of n copies of value.
  static ObjectPtr<ListObj> CreateRepeated(int64_t n, const Any& value) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot construct a List of negative size";
    ObjectPtr<ListObj> obj = Empty(n);
    obj->EnlargeBy(n, value);
    return obj;
  }

  /// The static type index of ffi.List.
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIList;
  /// No subclasses.
  static constexpr bool _type_final = true;
  /// No child type indices reserved.
  static constexpr uint32_t _type_child_slots = 0;
  /// Lists change in place.
  static constexpr bool _type_mutable = true;
  /// Registers the static type ffi.List.
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIList, ListObj, Object);

 private:
  static void FreeBuffer(void* buffer) { std::free(buffer); }
};

static_assert(sizeof(ListObj) == 56, "ListObj must be the 24-byte header plus TVMFFISeqCell");

/// Mutable sequence of T: every handle sees every mutation (no copy-on-write).
template <typename T, typename = std::enable_if_t<details::container_storage_enabled_v<T>>>
class List : public ObjectRef {
 public:
  /// The element type.
  using value_type = T;
  /// Reads a stored element as a T (the element is known to be one).
  struct ValueConverter {
    /// The type convert returns.
    using ResultType = T;
    /// The element n as a T.
    static T convert(const Any& n) { return details::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(n); }
  };
  /// Iterator over the elements as T.
  using iterator = details::IterAdapter<ValueConverter, const Any*>;
  /// Iterator from the last element to the first.
  using reverse_iterator = details::ReverseIterAdapter<ValueConverter, const Any*>;

  /// A new empty list.
  List() : ObjectRef(ListObj::Empty()) {}
  /// The list of n (a ListObj, or null).
  explicit List(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  /// A null list, to be filled by the caller.
  explicit List(UnsafeInit tag) : ObjectRef(tag) {}
  /// Copying shares the list object.
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(List);
  /// Shares the list object of a list of a type every element of which is a T.
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U> && !std::is_same_v<T, U>>>
  List(const List<U>& other) : ObjectRef(details::ObjectUnsafe::GetObjectPtr(other)) {}  // NOLINT
  /// Takes over the list object of a list of a type every element of which is a T.
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U> && !std::is_same_v<T, U>>>
  List(List<U>&& other)  // NOLINT(google-explicit-constructor)
      : ObjectRef(static_cast<ObjectRef&&>(other)) {}
  /// Shares the list object of a list of a type every element of which is a T.
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U> && !std::is_same_v<T, U>>>
  List& operator=(const List<U>& other) {
    return *this = List(other);
  }
  /// Takes over the list object of a list of a type every element of which is a T.
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U> && !std::is_same_v<T, U>>>
  List& operator=(List<U>&& other) {
    return *this = List(std::move(other));
  }
  /// A new list of the elements of [first, last), each converted to T.
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  List(It first, It last) : List() {
    Assign(first, last);
  }
  /// A new list of the elements of init.
  List(std::initializer_list<T> init) : List() { Assign(init.begin(), init.end()); }  // NOLINT
  /// A new list of the elements of init.
  List(const std::vector<T>& init) : List() { Assign(init.begin(), init.end()); }  // NOLINT
  /// A new list of n copies of value.
  explicit List(size_t n, const T& value) : List() {
    Obj()->Reserve(static_cast<int64_t>(n));
    Obj()->EnlargeBy(static_cast<int64_t>(n), Any(value));
  }

  /// The first element.
  iterator begin() const { return iterator(Cells()); }
  /// Past the last element.
  iterator end() const { return iterator(Cells() + size()); }
  /// Walks from the last element to the first.
  reverse_iterator rbegin() const {
    return empty() ? reverse_iterator(Cells()) : reverse_iterator(Cells() + size() - 1);
  }
  /// Before the first element.
  reverse_iterator rend() const {
    return empty() ? reverse_iterator(Cells()) : reverse_iterator(Cells() - 1);
  }

  /// Element i; IndexError `Index <i> out of bounds <size>`.
  const T operator[](int64_t i) const { return Elem(Checked("index")->at(i)); }
  /// The number of elements (0 for a null list).
  size_t size() const { return data_ != nullptr ? GetListObj()->size() : 0; }
  /// The number of elements the buffer holds without growing.
  size_t capacity() const { return data_ != nullptr ? GetListObj()->capacity() : 0; }
  /// Whether there are no elements.
  bool empty() const { return size() == 0; }
  /// The first element (IndexError when empty).
  const T front() const { return Elem(Checked("index")->front()); }
  /// The last element (IndexError when empty).
  const T back() const { return Elem(Checked("index")->back()); }

  /// Appends item.
  void push_back(const T& item) { Checked("insert to")->PushBack(Any(item)); }
  /// Appends T(args...).
  template <typename... Args>
  void emplace_back(Args&&... args) {
    Checked("insert to")->PushBack(Any(T(std::forward<Args>(args)...)));
  }
  /// Inserts value before position.
  void insert(iterator position, const T& value) {
    Checked("insert to")->InsertAt(position - begin(), Any(value));
  }
  /// Inserts the elements of [first, last), converted to T, before position.
  template <typename It>
  void insert(iterator position, It first, It last) {
    int64_t pos = position - begin();
    std::vector<Any> items;
    for (; first != last; ++first) items.emplace_back(T(*first));
    ListObj* obj = Checked("insert to");
    obj->ReserveForGrowth(static_cast<int64_t>(obj->size() + items.size()));
    obj->OpenGap(pos, static_cast<int64_t>(items.size()));
    for (size_t i = 0; i < items.size(); ++i) new (obj->MutableBegin() + pos + i) Any(items[i]);
  }
  /// Removes the last element (IndexError when empty).
  void pop_back() {
    ListObj* obj = Checked("pop_back");
    if (obj->empty()) details::ThrowEmptySeq("pop_back()");
    obj->ShrinkBy(1);
  }
  /// Removes the element at position.
  void erase(iterator position) { erase(position, position + 1); }
  /// Removes [first, last) (IndexError when the range is out of bounds).
  void erase(iterator first, iterator last) {
    ListObj* obj = Checked("erase");
    int64_t lo = first - begin(), hi = last - begin();
    if (lo < 0 || hi > static_cast<int64_t>(obj->size()) || lo > hi) {
      details::ThrowIndexOutOfBounds(lo < 0 ? lo : hi, static_cast<int64_t>(obj->size()));
    }
    obj->EraseRange(lo, hi);
  }
  /// Grows with default-constructed T (None for Any) or shrinks to n elements.
  void resize(int64_t n) {
    ListObj* obj = Checked("insert to");
    int64_t cur = static_cast<int64_t>(obj->size());
    if (n < cur) return obj->ShrinkBy(cur - n);
    obj->Reserve(n);
    obj->EnlargeBy(n - cur, Any(T()));
  }
  /// Makes room for n elements.
  void reserve(int64_t n) { Checked("insert to")->Reserve(n); }
  /// Removes every element.
  void clear() {
    if (data_ != nullptr) Obj()->clear();
  }
  /// Replaces element i (IndexError when out of range).
  void Set(int64_t i, T value) { Checked("index")->SetItem(i, Any(std::move(value))); }
  /// Replaces the contents with the elements of [first, last), converted to T.
  template <typename It>
  void Assign(It first, It last) {
    std::vector<Any> items;
    for (; first != last; ++first) items.emplace_back(T(*first));
    ListObj* obj = Checked("insert to");
    obj->clear();
    obj->Reserve(static_cast<int64_t>(items.size()));
    for (Any& item : items) obj->EmplaceBackUnchecked(std::move(item));
  }
  /// The object (nullptr for a null list).
  ListObj* GetListObj() const { return Obj(); }
  /// The object (nullptr for a null list).
  ListObj* operator->() const { return Obj(); }
  /// The object (nullptr for a null list).
  ListObj* get() const { return Obj(); }

  /// The object type.
  using ContainerType = ListObj;
  /// The object may hold elements of other types than T (checked on conversion).
  static constexpr bool _type_container_is_exact = false;
  /// Not nullable.
  static constexpr bool _type_is_nullable = false;

 private:
  static T Elem(const Any& value) { return ValueConverter::convert(value); }
  ListObj* Obj() const { return static_cast<ListObj*>(data_.get()); }
  ListObj* Checked(const char* what) const {
    if (data_ == nullptr) {
      if (std::string(what) == "index") TVM_FFI_THROW(IndexError) << "cannot index a null list";
      TVM_FFI_THROW(RuntimeError) << "cannot " << what << " a null list";
    }
    return Obj();
  }
  const Any* Cells() const { return data_ != nullptr ? Obj()->begin() : nullptr; }
};

/// List has its own TypeTraits (below).
template <typename T>
inline constexpr bool use_default_type_traits_v<List<T>> = false;

/// A `List<U>` can be used as a `List<T>` as it is when every U is a T.
template <typename T, typename U>
inline constexpr bool type_subsumes_v<List<T>, List<U>> = type_subsumes_v<T, U>;

/// List<T> in cells: accepts List or Array, converting elementwise (copies when needed).
template <typename T>
struct TypeTraits<List<T>> : public SeqTypeTraitsBase<TypeTraits<List<T>>, List<T>, T> {
  /// A field of this type holds a List.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIList;
  /// The object type taken as it is.
  static constexpr int32_t kPrimaryTypeIndex = TypeIndex::kTVMFFIList;
  /// The other sequence type, converted elementwise.
  static constexpr int32_t kOtherTypeIndex = TypeIndex::kTVMFFIArray;
  /// The name in type strings and mismatch messages.
  static constexpr const char* kTypeName = "List";
  /// The type key in the type schema.
  static constexpr const char* kStaticTypeKey = StaticTypeKey::kTVMFFIList;
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_LIST_H_
