// SPDX-License-Identifier: Apache-2.0
// recursive_compare.cc: RecursiveEq/Lt/Le/Gt/Ge and the ffi.Recursive{Eq,Lt,Le,Gt,Ge} globals,
// the equality and order of FFI values by content.
//
// None is below every other value. Strings (small or not) compare with strings and bytes with
// bytes, byte-wise. Integers (Int and BigInt cells) compare with each other by numeric value; a
// BigInt never equals an Int, which holds every int64 value. Other values compare only with values
// of the same type index: bools, ints, floats, dtypes (code, bits, lanes) and devices (type, id) by
// value; Shape, Array and List lexicographically (a prefix is smaller); Map and Dict are equal when
// they hold the same keys with equal values and have no order; objects compare field by field
// (ancestors' fields first, CompareOff fields skipped). A user type may replace this with a
// `__ffi_eq__` (equality) or `__ffi_compare__` (equality and order) type attribute. Equality never
// fails: values of different types are unequal, NaN equals NaN, a pair met again while it is being
// compared counts as equal. Ordering raises TypeError for different types, NaN, maps and unordered
// POD values, and ValueError for cycles. A pair of objects is compared once per call: shared
// nodes of a DAG cost nothing the second time.
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cmath>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "runtime_internal.h"
#include "signal_poll.h"
#include "stack_guard.h"

namespace tvm {
namespace ffi {
namespace {

/// -1, 0 or 1 as a is below, equal to or above b.
template <typename T>
int ThreeWay(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

/// The hook stored in type attribute `name` of a type, if any.
std::optional<Function> FindHook(const char* name, int32_t type_index) {
  AnyView value = TypeAttrValue(name, type_index);
  if (value == nullptr) return std::nullopt;
  return value.cast<Function>();
}

/// Three-way comparison by content; in equality mode any nonzero result only means "unequal"
/// and nothing raises for incomparable values.
class RecursiveComparer {
 public:
  explicit RecursiveComparer(bool eq_only) : eq_only_(eq_only) {}

  int Compare(AnyView lhs, AnyView rhs) {
    poll_.Step();
    const TVMFFIAny* a = details::AnyUnsafe::TVMFFIAnyPtrFromAny(lhs);
    const TVMFFIAny* b = details::AnyUnsafe::TVMFFIAnyPtrFromAny(rhs);
    if (a->type_index == kTVMFFINone || b->type_index == kTVMFFINone) {
      return ThreeWay(a->type_index != kTVMFFINone, b->type_index != kTVMFFINone);
    }
    int family = details::StringFamily(a->type_index);
    if (family != 0 && family == details::StringFamily(b->type_index)) return CompareText(a, b);
    if (a->type_index == kTVMFFIBigInt || b->type_index == kTVMFFIBigInt) {
      return CompareIntegers(lhs, rhs);
    }
    if (a->type_index != b->type_index) return DifferentTypes(lhs, rhs);
    if (a->type_index < kTVMFFIStaticObjectBegin) return ComparePOD(lhs, *a, *b);
    return CompareObjects(lhs.as<Object>(), rhs.as<Object>());
  }

 private:
  /// Marks a pair of objects as being compared for the lifetime of the guard.
  class ActivePair {
   public:
    ActivePair(RecursiveComparer* owner, std::pair<const Object*, const Object*> key)
        : owner_(owner), key_(key) {
      owner_->active_.insert(key_);
    }
    ~ActivePair() { owner_->active_.erase(key_); }
    ActivePair(const ActivePair&) = delete;
    ActivePair& operator=(const ActivePair&) = delete;

   private:
    RecursiveComparer* owner_;
    std::pair<const Object*, const Object*> key_;
  };

  int DifferentTypes(AnyView lhs, AnyView rhs) {
    if (eq_only_) return 1;
    TVM_FFI_THROW(TypeError) << "Cannot compare values of different types: " << lhs.GetTypeKey()
                             << " vs " << rhs.GetTypeKey();
    TVM_FFI_UNREACHABLE();
  }

  /// A BigInt orders against a BigInt or an Int by value; nothing else is comparable with it.
  int CompareIntegers(AnyView lhs, AnyView rhs) {
    std::optional<BigInt> a = lhs.as<BigInt>();
    std::optional<BigInt> b = rhs.as<BigInt>();
    if (!a.has_value() || !b.has_value()) return DifferentTypes(lhs, rhs);
    return details::int_ops::Compare(details::BigIntUnsafe::GetArrayView(*a),
                                     details::BigIntUnsafe::GetArrayView(*b));
  }

  static int CompareText(const TVMFFIAny* a, const TVMFFIAny* b) {
    TVMFFIByteArray x = *details::StringOrBytesContent(a);
    TVMFFIByteArray y = *details::StringOrBytesContent(b);
    return ThreeWay(Bytes::memncmp(x.data, y.data, x.size, y.size), 0);
  }

  int ComparePOD(AnyView lhs, const TVMFFIAny& a, const TVMFFIAny& b) {
    switch (a.type_index) {
      case kTVMFFIBool:
        return ThreeWay(a.v_int64 != 0, b.v_int64 != 0);
      case kTVMFFIInt:
        return ThreeWay(a.v_int64, b.v_int64);
      case kTVMFFIFloat:
        return CompareFloat(a.v_float64, b.v_float64);
      case kTVMFFIDataType:
        return ThreeWay(std::make_tuple(a.v_dtype.code, a.v_dtype.bits, a.v_dtype.lanes),
                        std::make_tuple(b.v_dtype.code, b.v_dtype.bits, b.v_dtype.lanes));
      case kTVMFFIDevice:
        return ThreeWay(std::make_pair(a.v_device.device_type, a.v_device.device_id),
                        std::make_pair(b.v_device.device_type, b.v_device.device_id));
      default:
        if (a.zero_padding == b.zero_padding && a.v_uint64 == b.v_uint64) return 0;
        if (eq_only_) return 1;
        TVM_FFI_THROW(TypeError) << "Cannot order values of type " << lhs.GetTypeKey();
    }
    TVM_FFI_UNREACHABLE();
  }

  int CompareFloat(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) {
      if (!eq_only_) TVM_FFI_THROW(TypeError) << "Cannot order NaN values";
      return std::isnan(a) && std::isnan(b) ? 0 : 1;
    }
    return ThreeWay(a, b);
  }

  int CompareObjects(const Object* lhs, const Object* rhs) {
    if (lhs == rhs) return 0;
    int32_t type_index = lhs->type_index();
    if (type_index == kTVMFFIShape) {
      return CompareShapes(static_cast<const ShapeObj*>(lhs), static_cast<const ShapeObj*>(rhs));
    }
    CheckStackRoom("comparing values");
    std::pair<const Object*, const Object*> key(lhs, rhs);
    if (active_.count(key) != 0) {
      if (eq_only_) return 0;
      TVM_FFI_THROW(ValueError) << "RecursiveCompare: cyclic reference detected in ordering; a "
                                << lhs->GetTypeKey() << " refers back to itself";
    }
    auto settled = settled_.find(key);
    if (settled != settled_.end()) return settled->second.order;
    int order = 0;
    {
      ActivePair guard(this, key);
      order = CompareContent(lhs, rhs);
    }
    // The entry holds both objects: a pair of addresses must not be reused by other objects.
    settled_.emplace(key, Settled{GetRef<ObjectRef>(lhs), GetRef<ObjectRef>(rhs), order});
    return order;
  }

  /// Compares two distinct objects of one type: by hook, elements or fields.
  int CompareContent(const Object* lhs, const Object* rhs) {
    int32_t type_index = lhs->type_index();
    if (type_index >= kTVMFFIStaticObjectEnd) {
      if (std::optional<int> hooked = CompareByHook(lhs, rhs)) return *hooked;
    }
    switch (type_index) {
      case kTVMFFIArray:
      case kTVMFFIList:
        return CompareSeqs(static_cast<const SeqBaseObj*>(lhs),
                           static_cast<const SeqBaseObj*>(rhs));
      case kTVMFFIMap:
      case kTVMFFIDict:
        return CompareMaps(static_cast<const MapBaseObj*>(lhs),
                           static_cast<const MapBaseObj*>(rhs));
      default:
        return CompareFields(lhs, rhs);
    }
  }

  static int CompareShapes(const ShapeObj* lhs, const ShapeObj* rhs) {
    const TVMFFIShapeCell& a = *lhs;
    const TVMFFIShapeCell& b = *rhs;
    for (size_t i = 0; i < a.size && i < b.size; ++i) {
      if (int order = ThreeWay(a.data[i], b.data[i])) return order;
    }
    return ThreeWay(a.size, b.size);
  }

  /// The result of the type's __ffi_eq__ / __ffi_compare__ hook, if it has one for this mode.
  std::optional<int> CompareByHook(const Object* lhs, const Object* rhs) {
    int32_t type_index = lhs->type_index();
    if (eq_only_) {
      if (std::optional<Function> eq = FindHook(type_attr::kEq.name, type_index)) {
        Function nested = Function::FromTyped(
            [this](AnyView a, AnyView b) { return Compare(Any(a), Any(b)) == 0; });
        return (*eq)(lhs, rhs, nested).cast<bool>() ? 0 : 1;
      }
    }
    if (std::optional<Function> cmp = FindHook(type_attr::kCompare.name, type_index)) {
      Function nested = Function::FromTyped(
          [this](AnyView a, AnyView b) { return static_cast<int32_t>(Compare(Any(a), Any(b))); });
      return ThreeWay((*cmp)(lhs, rhs, nested).cast<int32_t>(), 0);
    }
    return std::nullopt;
  }

  int CompareSeqs(const SeqBaseObj* lhs, const SeqBaseObj* rhs) {
    // Snapshot the elements: a hook may change the sequences while they are compared.
    std::vector<Any> a(lhs->begin(), lhs->end());
    std::vector<Any> b(rhs->begin(), rhs->end());
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
      if (int order = Compare(a[i], b[i])) return order;
    }
    return ThreeWay(a.size(), b.size());
  }

  int CompareMaps(const MapBaseObj* lhs, const MapBaseObj* rhs) {
    std::vector<std::pair<Any, Any>> values;
    if (lhs->size() != rhs->size()) return MapsDiffer();
    // Snapshot lhs: a key's __any_equal__ hook, called by the lookups, may change it.
    std::vector<std::pair<Any, Any>> entries(lhs->begin(), lhs->end());
    for (const auto& [key, value] : entries) {
      uint64_t found = rhs->Find(key);
      if (found == rhs->IterEnd()) return MapsDiffer();
      values.emplace_back(value, rhs->ValueAt(found));
    }
    for (const auto& [a, b] : values) {
      if (Compare(a, b) != 0) return MapsDiffer();
    }
    return 0;
  }

  int MapsDiffer() {
    if (eq_only_) return 1;
    TVM_FFI_THROW(TypeError) << "Cannot order Map/Dict values";
    TVM_FFI_UNREACHABLE();
  }

  int CompareFields(const Object* lhs, const Object* rhs) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(lhs->type_index());
    int order = 0;
    reflection::ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* field) {
      if (field->flags & kTVMFFIFieldFlagBitMaskCompareOff) return false;
      reflection::FieldGetter getter(field);
      order = Compare(getter(lhs), getter(rhs));
      return order != 0;
    });
    return order;
  }

  using ObjectPair = std::pair<const Object*, const Object*>;
  struct ObjectPairHash {
    size_t operator()(const ObjectPair& pair) const {
      return std::hash<const Object*>()(pair.first) * 31 + std::hash<const Object*>()(pair.second);
    }
  };

  /// A pair already compared and its result: a DAG's shared nodes are compared once.
  struct Settled {
    ObjectRef lhs;
    ObjectRef rhs;
    int order;
  };

  bool eq_only_;
  std::unordered_set<ObjectPair, ObjectPairHash> active_;
  std::unordered_map<ObjectPair, Settled, ObjectPairHash> settled_;
  details::SignalPoll poll_;  // every pair of values compared is a step
};

int CompareForOrder(const Any& lhs, const Any& rhs) {
  return RecursiveComparer(false).Compare(lhs, rhs);
}

}  // namespace

bool RecursiveEq(const Any& lhs, const Any& rhs) {
  return RecursiveComparer(true).Compare(lhs, rhs) == 0;
}
bool RecursiveLt(const Any& lhs, const Any& rhs) { return CompareForOrder(lhs, rhs) < 0; }
bool RecursiveLe(const Any& lhs, const Any& rhs) { return CompareForOrder(lhs, rhs) <= 0; }
bool RecursiveGt(const Any& lhs, const Any& rhs) { return CompareForOrder(lhs, rhs) > 0; }
bool RecursiveGe(const Any& lhs, const Any& rhs) { return CompareForOrder(lhs, rhs) >= 0; }

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::EnsureTypeAttrColumn(type_attr::kEq.name);
  reflection::EnsureTypeAttrColumn(type_attr::kCompare.name);
  reflection::GlobalDef()
      .def("ffi.RecursiveEq", RecursiveEq, "Whether two values are equal by content")
      .def("ffi.RecursiveLt", RecursiveLt, "Whether lhs orders before rhs by content")
      .def("ffi.RecursiveLe", RecursiveLe, "Whether lhs orders before or equal to rhs")
      .def("ffi.RecursiveGt", RecursiveGt, "Whether lhs orders after rhs by content")
      .def("ffi.RecursiveGe", RecursiveGe, "Whether lhs orders after or equal to rhs");
}

}  // namespace ffi
}  // namespace tvm
