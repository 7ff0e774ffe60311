// SPDX-License-Identifier: Apache-2.0
// container/array.h: ArrayObj (index 71, elements inline at +56) and Array<T> (immutable, COW).
#ifndef TVM_FFI_CONTAINER_ARRAY_H_
#define TVM_FFI_CONTAINER_ARRAY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/// Array object: the cells live in the same allocation right after the 56-byte object.
class ArrayObj : public SeqBaseObj {
 public:
  /// An empty array whose (zero-capacity) storage starts right after the object.
  ArrayObj() { TVMFFISeqCell::data = InlineCells(); }

  /// A new array with room for cap elements.
  static ObjectPtr<ArrayObj> Empty(int64_t cap = 0) {
    ObjectPtr<ArrayObj> obj = make_inplace_array_object<ArrayObj, Any>(static_cast<size_t>(cap));
    obj->TVMFFISeqCell::capacity = cap;
    return obj;
  }
  /// A new array with room for cap elements holding copies of [first, last).
  template <typename It>
  static ObjectPtr<ArrayObj> CreateFromRange(int64_t cap, It first, It last) {
    ObjectPtr<ArrayObj> obj = Empty(cap);
    for (; first != last; ++first) obj->EmplaceBackUnchecked(Any(*first));
    return obj;
  }
  /// A copy of from with capacity cap (>= from's size).
  static ObjectPtr<ArrayObj> CopyFrom(int64_t cap, const SeqBaseObj* from) {
    return CreateFromRange(cap, from->begin(), from->end());
  }
  /// A new array with capacity cap taking every element of from (which becomes empty).
  static ObjectPtr<ArrayObj> MoveFrom(int64_t cap, SeqBaseObj* from) {
    ObjectPtr<ArrayObj> obj = Empty(cap);
    obj->TVMFFISeqCell::size = from->TVMFFISeqCell::size;
    from->RelocateTo(obj->MutableBegin());
    return obj;
  }
  /// n copies of value.
  static ObjectPtr<ArrayObj> CreateRepeated(int64_t n, const Any& value) {
    ObjectPtr<ArrayObj> obj = Empty(n);
    obj->EnlargeBy(n, value);
    return obj;
  }

  /// The static type index of ffi.Array.
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIArray;
  /// No subclasses.
  static constexpr bool _type_final = true;
  /// No child type indices reserved.
  static constexpr uint32_t _type_child_slots = 0;
  /// Arrays are shared immutably (changes go through copy-on-write).
  static constexpr bool _type_mutable = false;
  /// Registers the static type ffi.Array.
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIArray, ArrayObj, Object);

 private:
  void* InlineCells() { return reinterpret_cast<char*>(this) + sizeof(ArrayObj); }
};

static_assert(sizeof(ArrayObj) == 56, "ArrayObj must be the 24-byte header plus TVMFFISeqCell");

namespace details {
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowNullSeq(const char* kind, const char* what) {
  if (std::string(what) == "index") {
    TVM_FFI_THROW(IndexError) << "cannot index a null " << kind;
  }
  TVM_FFI_THROW(RuntimeError) << "cannot " << what << " a null " << kind;
  TVM_FFI_UNREACHABLE();
}
/// New capacity when growing from cap to hold at least need elements.
inline int64_t GrowCapacity(int64_t cap, int64_t need) {
  return std::max<int64_t>(need, std::max<int64_t>(cap * 2, 4));
}
}  // namespace details

/// Whether dereferencing an IterType gives a T (or a subclass of T), so that the values of a
/// range can be stored in a container of T without conversion. Any accepts everything.
template <typename T, typename IterType>
struct is_valid_iterator
    : std::bool_constant<
          std::is_same_v<
              T, std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<IterType>())>>> ||
          std::is_base_of_v<
              T, std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<IterType>())>>>> {
};
/// An Optional<T> takes what a T takes.
template <typename T, typename IterType>
struct is_valid_iterator<Optional<T>, IterType> : is_valid_iterator<T, IterType> {};
/// Any takes every value.
template <typename IterType>
struct is_valid_iterator<Any, IterType> : std::true_type {};
/// is_valid_iterator<T, IterType>::value.
template <typename T, typename IterType>
inline constexpr bool is_valid_iterator_v = is_valid_iterator<T, IterType>::value;

/// Immutable copy-on-write sequence of T. Copies share storage until one of them is mutated.
template <typename T, typename = std::enable_if_t<details::container_storage_enabled_v<T>>>
class Array : public ObjectRef {
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

  /// An empty array.
  Array() : ObjectRef(ArrayObj::Empty()) {}
  /// The array of n (an ArrayObj, or null).
  explicit Array(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  /// A null array, to be filled by the caller.
  explicit Array(UnsafeInit tag) : ObjectRef(tag) {}
  /// Copying shares the storage.
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Array);
  /// Shares storage with an array of a type every element of which is a T.
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U> && !std::is_same_v<T, U>>>
  Array(const Array<U>& other) : ObjectRef(details::ObjectUnsafe::GetObjectPtr(other)) {}  // NOLINT
  /// Takes over the storage of an array of a type every element of which is a T.
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U> && !std::is_same_v<T, U>>>
  Array(Array<U>&& other)  // NOLINT(google-explicit-constructor)
      : ObjectRef(static_cast<ObjectRef&&>(other)) {}
  /// Shares storage with an array of a type every element of which is a T.
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U> && !std::is_same_v<T, U>>>
  Array& operator=(const Array<U>& other) {
    return *this = Array(other);
  }
  /// Takes over the storage of an array of a type every element of which is a T.
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U> && !std::is_same_v<T, U>>>
  Array& operator=(Array<U>&& other) {
    return *this = Array(std::move(other));
  }
  /// The elements of [first, last), each converted to T.
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  Array(It first, It last) {
    Assign(first, last);
  }
  /// The elements of init.
  Array(std::initializer_list<T> init) { Assign(init.begin(), init.end()); }  // NOLINT(*)
  /// The elements of init.
  Array(const std::vector<T>& init) { Assign(init.begin(), init.end()); }  // NOLINT(*)
  /// n copies of value.
  explicit Array(size_t n, const T& value)
      : ObjectRef(ArrayObj::CreateRepeated(static_cast<int64_t>(n), Any(value))) {}

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
  const T operator[](int64_t i) const {
    const ArrayObj* obj = GetArrayObj();
    if (obj == nullptr) details::ThrowNullSeq("array", "index");
    if (i < 0 || i >= static_cast<int64_t>(obj->size())) {
      details::ThrowIndexOutOfBounds(i, static_cast<int64_t>(obj->size()));
    }
    return ValueConverter::convert(Cells()[i]);
  }
  /// The number of elements (0 for a null array).
  size_t size() const { return data_ != nullptr ? GetArrayObj()->size() : 0; }
  /// The number of elements the storage holds without growing.
  size_t capacity() const { return data_ != nullptr ? GetArrayObj()->capacity() : 0; }
  /// Whether there are no elements.
  bool empty() const { return size() == 0; }
  /// The first element (IndexError when empty).
  const T front() const { return Elem(GetArrayObjChecked()->front()); }
  /// The last element (IndexError when empty).
  const T back() const { return Elem(GetArrayObjChecked()->back()); }

  /// Appends item; copies first when shared.
  void push_back(const T& item) { emplace_back(item); }
  /// Appends T(args...); copies first when shared.
  template <typename... Args>
  void emplace_back(Args&&... args) {
    ArrayObj* obj = CopyOnWriteFor(static_cast<int64_t>(size()) + 1);
    obj->EmplaceBackUnchecked(Any(T(std::forward<Args>(args)...)));
  }
  /// Inserts value before position; returns nothing (positions are invalidated).
  void insert(iterator position, const T& value) {
    if (data_ == nullptr) details::ThrowNullSeq("array", "insert");
    int64_t pos = position - begin();
    ArrayObj* obj = CopyOnWriteFor(static_cast<int64_t>(size()) + 1);
    obj->OpenGap(pos, 1);
    new (obj->MutableBegin() + pos) Any(value);
  }
  /// Inserts [first, last) before position.
  template <typename It>
  void insert(iterator position, It first, It last) {
    if (data_ == nullptr) details::ThrowNullSeq("array", "insert");
    int64_t pos = position - begin();
    int64_t n = static_cast<int64_t>(std::distance(first, last));
    ArrayObj* obj = CopyOnWriteFor(static_cast<int64_t>(size()) + n);
    obj->OpenGap(pos, n);
    for (Any* dst = obj->MutableBegin() + pos; first != last; ++first, ++dst) new (dst) Any(*first);
  }
  /// Removes the last element (IndexError when empty).
  void pop_back() {
    if (data_ == nullptr) details::ThrowNullSeq("array", "pop_back");
    if (empty()) details::ThrowEmptySeq("pop_back()");
    CopyOnWrite()->ShrinkBy(1);
  }
  /// Removes the element at position.
  void erase(iterator position) { erase(position, position + 1); }
  /// Removes [first, last) (IndexError when the range is out of bounds).
  void erase(iterator first, iterator last) {
    if (data_ == nullptr) details::ThrowNullSeq("array", "erase");
    int64_t lo = first - begin(), hi = last - begin();
    if (lo < 0 || hi > static_cast<int64_t>(size()) || lo > hi) {
      details::ThrowIndexOutOfBounds(lo < 0 ? lo : hi, static_cast<int64_t>(size()));
    }
    if (lo == hi) return;
    CopyOnWrite()->EraseRange(lo, hi);
  }
  /// Grows with default-constructed T (None for Any) or shrinks to n elements.
  void resize(int64_t n) {
    int64_t cur = static_cast<int64_t>(size());
    if (n == cur) return;
    if (n < cur) return CopyOnWrite()->ShrinkBy(cur - n);
    CopyOnWriteFor(n)->EnlargeBy(n - cur, Any(T()));
  }
  /// Makes room for n elements (a null array becomes an empty one).
  void reserve(int64_t n) {
    if (data_ == nullptr) {
      SwitchTo(ArrayObj::Empty(std::max<int64_t>(n, 0)));
    } else if (n > static_cast<int64_t>(capacity())) {
      SwitchTo(ArrayObj::CopyFrom(n, GetArrayObj()));
    }
  }
  /// Removes every element.
  void clear() {
    if (data_ == nullptr || empty()) return;
    CopyOnWrite()->clear();
  }
  /// Replaces element i (IndexError when out of range); copies first when shared.
  void Set(int64_t i, T value) {
    if (i < 0 || i >= static_cast<int64_t>(size())) {
      details::ThrowIndexOutOfBounds(i, static_cast<int64_t>(size()));
    }
    CopyOnWrite()->MutableBegin()[i] = Any(std::move(value));
  }
  /// Replaces the contents with copies of [first, last).
  template <typename It>
  void Assign(It first, It last) {
    int64_t n = static_cast<int64_t>(std::distance(first, last));
    ObjectPtr<ArrayObj> obj = ArrayObj::Empty(n);
    for (; first != last; ++first) obj->EmplaceBackUnchecked(Any(T(*first)));
    data_ = std::move(obj);
  }
  /// Applies f: T -> T to each element. A uniquely held array is changed in place, each element
  /// moved into f (so f sees it unique, as Apache does; an element f throws on is left None);
  /// a shared one is copied at the first element f changes.
  template <typename F>
  void MutateByApply(F f) {
    if (data_ != nullptr && data_.unique()) {
      Any* cells = GetArrayObj()->MutableBegin();
      for (int64_t i = 0; i < static_cast<int64_t>(size()); ++i) {
        T value = details::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(cells[i]));
        cells[i] = Any();
        cells[i] = Any(T(f(std::move(value))));
      }
      return;
    }
    for (int64_t i = 0; i < static_cast<int64_t>(size()); ++i) {
      Any mapped(T(f((*this)[i])));
      if (!mapped.same_as(GetArrayObj()->begin()[i])) CopyOnWrite()->MutableBegin()[i] = mapped;
    }
  }
  /// A new array of f(element) for every element.
  template <typename F, typename U = std::decay_t<std::invoke_result_t<F, const T&>>>
  Array<U> Map(F f) const {
    ObjectPtr<ArrayObj> obj = ArrayObj::Empty(static_cast<int64_t>(size()));
    for (const T& item : *this) obj->EmplaceBackUnchecked(Any(U(f(item))));
    return Array<U>(ObjectPtr<Object>(std::move(obj)));
  }
  /// The object, copied first when it is shared (a null array becomes empty).
  ArrayObj* CopyOnWrite() {
    if (data_ == nullptr) return SwitchTo(ArrayObj::Empty());
    if (!data_.unique())
      return SwitchTo(ArrayObj::CopyFrom(static_cast<int64_t>(capacity()), GetArrayObj()));
    return static_cast<ArrayObj*>(data_.get());
  }
  /// The object (nullptr for a null array). Mutating it bypasses copy-on-write.
  ArrayObj* GetArrayObj() const { return static_cast<ArrayObj*>(data_.get()); }
  /// The object (nullptr for a null array).
  const ArrayObj* operator->() const { return GetArrayObj(); }
  /// The object (nullptr for a null array).
  const ArrayObj* get() const { return GetArrayObj(); }

  /// Concatenates arguments, each a T or an Array<T> (whose elements are spliced in), into one
  /// array.
  template <typename... Args>
  static Array<T> Agregate(Args... args) {
    Array<T> result;
    result.reserve(static_cast<int64_t>(CalcCapacityImpl(args...)));
    AgregateImpl(result, args...);
    return result;
  }
  /// The number of elements Agregate(args...) gives: 1 per T, size() per Array<T>.
  template <typename... Args>
  static size_t CalcCapacityImpl() {
    return 0;
  }
  /// An Array counts its size.
  template <typename... Args>
  static size_t CalcCapacityImpl(Array<T> value, Args... args) {
    return value.size() + CalcCapacityImpl(args...);
  }
  /// A T counts 1.
  template <typename... Args>
  static size_t CalcCapacityImpl(T /*value*/, Args... args) {
    return 1 + CalcCapacityImpl(args...);
  }
  /// Appends args (each a T or an Array<T>) to dest.
  template <typename... Args>
  static void AgregateImpl(Array<T>& /*dest*/) {}  // NOLINT(*)
  /// Appends the elements of value, then the rest.
  template <typename... Args>
  static void AgregateImpl(Array<T>& dest, Array<T> value, Args... args) {  // NOLINT(*)
    dest.insert(dest.end(), value.begin(), value.end());
    AgregateImpl(dest, args...);
  }
  /// Appends value, then the rest.
  template <typename... Args>
  static void AgregateImpl(Array<T>& dest, T value, Args... args) {  // NOLINT(*)
    dest.push_back(value);
    AgregateImpl(dest, args...);
  }

  /// The object type.
  using ContainerType = ArrayObj;
  /// The object may hold elements of other types than T (checked on conversion).
  static constexpr bool _type_container_is_exact = false;
  /// Not nullable.
  static constexpr bool _type_is_nullable = false;

 private:
  static T Elem(const Any& value) { return ValueConverter::convert(value); }
  const Any* Cells() const { return data_ != nullptr ? GetArrayObj()->begin() : nullptr; }
  const ArrayObj* GetArrayObjChecked() const {
    if (data_ == nullptr) details::ThrowNullSeq("array", "index");
    return GetArrayObj();
  }
  ArrayObj* SwitchTo(ObjectPtr<ArrayObj> obj) {
    ArrayObj* raw = obj.get();
    data_ = std::move(obj);
    return raw;
  }
  /// The unique object with room for need elements (moves cells when it must reallocate).
  ArrayObj* CopyOnWriteFor(int64_t need) {
    if (data_ == nullptr) return SwitchTo(ArrayObj::Empty(details::GrowCapacity(0, need)));
    int64_t cap = static_cast<int64_t>(capacity());
    if (need <= cap) return CopyOnWrite();
    int64_t new_cap = details::GrowCapacity(cap, need);
    if (data_.unique()) {
      return SwitchTo(ArrayObj::MoveFrom(new_cap, static_cast<ArrayObj*>(data_.get())));
    }
    return SwitchTo(ArrayObj::CopyFrom(new_cap, GetArrayObj()));
  }
};

/// lhs followed by rhs.
template <typename T>
inline Array<T> Concat(Array<T> lhs, const Array<T>& rhs) {
  lhs.insert(lhs.end(), rhs.begin(), rhs.end());
  return lhs;
}

/// Array has its own TypeTraits (seq_traits.h).
template <typename T>
inline constexpr bool use_default_type_traits_v<Array<T>> = false;

/// An `Array<U>` can be used as an `Array<T>` as it is when every U is a T.
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Array<T>, Array<U>> = type_subsumes_v<T, U>;

}  // namespace ffi
}  // namespace tvm

#include <tvm/ffi/container/seq_traits.h>

#endif  // TVM_FFI_CONTAINER_ARRAY_H_
