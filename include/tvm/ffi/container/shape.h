// SPDX-License-Identifier: Apache-2.0
// container/shape.h: ShapeObj (index 69, values inline after 40 bytes), Shape and ShapeView.
#ifndef TVM_FFI_CONTAINER_SHAPE_H_
#define TVM_FFI_CONTAINER_SHAPE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

namespace details {
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowShapeIndex(int64_t i, size_t n) {
  TVM_FFI_THROW(IndexError) << "indexing " << i << " on a Shape of size " << n;
  TVM_FFI_UNREACHABLE();
}
}  // namespace details

/// A non-owning (data, size) view of int64 dimensions.
class ShapeView {
 public:
  /// An empty shape.
  ShapeView() = default;
  /// The size dimensions at data, which must outlive the view.
  ShapeView(const int64_t* data, size_t size) : cell_{data, size} {}
  /// Valid only for the full expression that creates it.
  ShapeView(std::initializer_list<int64_t> init) : cell_{init.begin(), init.size()} {}  // NOLINT
  /// The dimensions.
  const int64_t* data() const { return cell_.data; }
  /// The number of dimensions.
  size_t size() const { return cell_.size; }
  /// Whether there are no dimensions.
  bool empty() const { return cell_.size == 0; }
  /// Dimension i, unchecked.
  int64_t operator[](size_t i) const { return cell_.data[i]; }
  /// Dimension i; IndexError when out of range.
  int64_t at(int64_t i) const {
    if (i < 0 || i >= static_cast<int64_t>(cell_.size)) details::ThrowShapeIndex(i, cell_.size);
    return cell_.data[i];
  }
  /// The first dimension (IndexError when empty).
  int64_t front() const { return at(0); }
  /// The last dimension (IndexError when empty).
  int64_t back() const { return at(static_cast<int64_t>(cell_.size) - 1); }
  /// The first dimension.
  const int64_t* begin() const { return cell_.data; }
  /// Past the last dimension.
  const int64_t* end() const { return cell_.data + cell_.size; }
  /// Product of the dimensions (1 for an empty shape).
  int64_t Product() const {
    int64_t product = 1;
    for (int64_t dim : *this) product *= dim;
    return product;
  }

 private:
  TVMFFIShapeCell cell_{nullptr, 0};
};

/// Shape object: header + TVMFFIShapeCell, the values stored inline right after 40 bytes.
class ShapeObj : public Object, public TVMFFIShapeCell {
 public:
  /// The dimension type.
  using index_type = int64_t;
  /// An empty shape whose data is not yet set.
  ShapeObj() {
    TVMFFIShapeCell::data = nullptr;
    TVMFFIShapeCell::size = 0;
  }
  /// Product of the dimensions (1 for an empty shape).
  int64_t Product() const {
    return ShapeView(TVMFFIShapeCell::data, TVMFFIShapeCell::size).Product();
  }
  /// A new shape with copies of [first, last).
  template <typename It>
  static ObjectPtr<ShapeObj> Create(It first, It last, size_t n) {
    ObjectPtr<ShapeObj> obj = make_inplace_array_object<ShapeObj, int64_t>(n);
    int64_t* values =
        reinterpret_cast<int64_t*>(reinterpret_cast<char*>(obj.get()) + sizeof(ShapeObj));
    for (size_t i = 0; first != last; ++first, ++i) values[i] = static_cast<int64_t>(*first);
    obj->TVMFFIShapeCell::data = values;
    obj->TVMFFIShapeCell::size = n;
    return obj;
  }

  /// The static type index of ffi.Shape.
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIShape;
  /// No subclasses.
  static constexpr bool _type_final = true;
  /// No child type indices reserved.
  static constexpr uint32_t _type_child_slots = 0;
  /// Registers the static type ffi.Shape.
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIShape, ShapeObj, Object);
};

static_assert(sizeof(ShapeObj) == 40, "ShapeObj must be the header plus TVMFFIShapeCell");

namespace details {
/// A shape object whose values live in a std::vector it owns.
class ShapeObjStdImpl : public ShapeObj {
 public:
  explicit ShapeObjStdImpl(std::vector<int64_t> other) : values_(std::move(other)) {
    this->data = values_.data();
    this->size = values_.size();
  }

 private:
  std::vector<int64_t> values_;
};

/// A new shape of `length` values stored inline, left uninitialised; *mutable_data (when
/// mutable_data is not null) is set to where they are, for the caller to fill.
inline ObjectPtr<ShapeObj> MakeEmptyShape(size_t length, int64_t** mutable_data) {
  ObjectPtr<ShapeObj> obj = make_inplace_array_object<ShapeObj, int64_t>(length);
  int64_t* values =
      reinterpret_cast<int64_t*>(reinterpret_cast<char*>(obj.get()) + sizeof(ShapeObj));
  obj->data = values;
  obj->size = length;
  if (mutable_data != nullptr) *mutable_data = values;
  return obj;
}

/// A new shape with copies of the values of [begin, end), stored inline.
template <typename IterType>
inline ObjectPtr<ShapeObj> MakeInplaceShape(IterType begin, IterType end) {
  int64_t* values = nullptr;
  ObjectPtr<ShapeObj> obj = MakeEmptyShape(static_cast<size_t>(std::distance(begin, end)), &values);
  for (; begin != end; ++begin) *values++ = static_cast<int64_t>(*begin);
  return obj;
}

/// Writes the compact row-major strides of shape to out_strides (shape.size() values).
inline void FillStridesFromShape(ShapeView shape, int64_t* out_strides) {
  int64_t stride = 1;
  for (size_t i = shape.size(); i > 0; --i) {
    out_strides[i - 1] = stride;
    stride *= shape[i - 1];
  }
}

/// A new shape object holding the compact row-major strides of shape.
inline ObjectPtr<ShapeObj> MakeStridesFromShape(ShapeView shape) {
  int64_t* strides = nullptr;
  ObjectPtr<ShapeObj> obj = MakeEmptyShape(shape.size(), &strides);
  FillStridesFromShape(shape, strides);
  return obj;
}
}  // namespace details

/// Immutable shape (non-nullable reference to a ShapeObj).
class Shape : public ObjectRef {
 public:
  /// The dimension type.
  using index_type = int64_t;
  /// A new empty shape.
  Shape() : Shape(ShapeView()) {}
  /// A new shape of the values of [first, last).
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  Shape(It first, It last)
      : ObjectRef(ShapeObj::Create(first, last, static_cast<size_t>(std::distance(first, last)))) {}
  /// A new shape of the values of init.
  Shape(std::initializer_list<int64_t> init) : Shape(init.begin(), init.end()) {}  // NOLINT
  /// A new shape of the values of init.
  Shape(const std::vector<int64_t>& init) : Shape(init.begin(), init.end()) {}  // NOLINT
  /// A new shape with a copy of view's dimensions.
  Shape(ShapeView view) : Shape(view.begin(), view.end()) {}  // NOLINT
  /// A new shape of the values of init.
  Shape(const Array<int64_t>& init) : Shape(init.begin(), init.end()) {}  // NOLINT
  /// The shape of n.
  explicit Shape(ObjectPtr<ShapeObj> n) : ObjectRef(std::move(n)) {}
  /// A null shape, to be filled by the caller.
  explicit Shape(UnsafeInit tag) : ObjectRef(tag) {}
  /// Copying shares the shape object.
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Shape);

  /// Row-major compact strides of a shape.
  static Shape StridesFromShape(ShapeView shape) {
    return Shape(details::MakeStridesFromShape(shape));
  }
  /// A view of the dimensions, valid while this shape lives.
  operator ShapeView() const { return ShapeView(data(), size()); }  // NOLINT(*)
  /// The dimensions.
  const int64_t* data() const { return get()->TVMFFIShapeCell::data; }
  /// The number of dimensions.
  size_t size() const { return get()->TVMFFIShapeCell::size; }
  /// Dimension i, unchecked.
  int64_t operator[](size_t i) const { return data()[i]; }
  /// Dimension i; IndexError when out of range.
  int64_t at(int64_t i) const { return ShapeView(*this).at(i); }
  /// Whether there are no dimensions.
  bool empty() const { return size() == 0; }
  /// The first dimension (IndexError when empty).
  int64_t front() const { return at(0); }
  /// The last dimension (IndexError when empty).
  int64_t back() const { return at(static_cast<int64_t>(size()) - 1); }
  /// The first dimension.
  const int64_t* begin() const { return data(); }
  /// Past the last dimension.
  const int64_t* end() const { return data() + size(); }
  /// Product of the dimensions (1 for an empty shape).
  int64_t Product() const { return ShapeView(*this).Product(); }

  /// The pointer type of get().
  using __PtrType = const ShapeObj*;  // NOLINT(bugprone-reserved-identifier): Apache's name
  /// The object.
  __PtrType get() const { return static_cast<const ShapeObj*>(data_.get()); }
  /// The object.
  __PtrType operator->() const { return get(); }
  /// The object type.
  using ContainerType = ShapeObj;
  /// Not nullable.
  static constexpr bool _type_is_nullable = false;
};

/// Prints `[1, 2, 3]`.
inline std::ostream& operator<<(std::ostream& os, const Shape& shape) {
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i) os << (i == 0 ? "" : ", ") << shape[i];
  return os << ']';
}

/// Shape has its own TypeTraits (below).
template <>
inline constexpr bool use_default_type_traits_v<Shape> = false;

/// Shape in cells: accepts Shape, or an Array/List of ints (copied).
template <>
struct TypeTraits<Shape> : public ObjectRefTypeTraitsBase<Shape> {
  /// A field of this type holds a Shape.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIShape;  // as Apache
  /// The Shape in src, or a new one of an Array or List of integers; else nullopt.
  static std::optional<Shape> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return std::nullopt;
    if (std::optional<Shape> shape = ObjectRefTypeTraitsBase<Shape>::TryCastFromAnyView(src)) {
      return shape;
    }
    if (src->type_index != TypeIndex::kTVMFFIArray && src->type_index != TypeIndex::kTVMFFIList) {
      return std::nullopt;
    }
    std::optional<Array<int64_t>> values = TypeTraits<Array<int64_t>>::TryCastFromAnyView(src);
    if (!values.has_value()) return std::nullopt;
    return Shape(*values);
  }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_SHAPE_H_
