// SPDX-License-Identifier: Apache-2.0
// repr_print.cc: ffi.ReprPrint, the readable and cycle-safe printer of any FFI value.
//
// Protocol: ffi.ReprPrint(value) -> str (C++: ReprPrint). Formats: None, True/False, ints (BigInts
// too) in decimal, floats in their shortest round-tripping form (10, 0.5, 1e+20, -0, inf, nan),
// strings in double quotes with JSON escapes, bytes as b"..." (\xNN for non-printable bytes),
// dtypes (int8), devices (cuda:1), opaque pointers (void*), Array (1, 2) / (x,), List [1, 2], Map
// and Dict {"a": 1}, Shape(1, 2), tensors float32[2, 3]@cpu:0, objects with reflected fields as
// key(f1=v1, f2=v2) (ancestors' fields first, ReprOff fields omitted), enum members as key.name and
// other objects (no field shown) as their type key. A container or object met again while it is
// being printed prints as `...`. A `__ffi_repr__` type attribute (Function (obj, printer) -> str)
// replaces the default format.
//
// With the environment variable TVM_FFI_REPR_WITH_ADDR=1 (read at each call), object addresses are
// shown as @0x<hex>: after the type key of an object (key@0x1(f=1), key@0x1), after a container's
// closing bracket ((1, 2)@0x1, {"a": 1}@0x1), after a tensor (float32[2]@cpu:0@0x1) or an enum
// member (key.name@0x1), and after the cycle marker (...@0x1). Strings, bytes, shapes, BigInts and
// objects printed by a `__ffi_repr__` hook show none.
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "big_int_decimal_internal.h"
#include "runtime_internal.h"
#include "signal_poll.h"
#include "stack_guard.h"

namespace tvm {
namespace ffi {
namespace {

/// The payload of an object handle (the cell after the 24-byte header).
template <typename T>
const T* PayloadOf(const TVMFFIObject* obj) {
  return reinterpret_cast<const T*>(reinterpret_cast<const char*>(obj) + sizeof(TVMFFIObject));
}

/// Shortest decimal text that parses back to the same double.
std::string FormatFloat(double value) {
  char buf[64];
  std::to_chars_result res = std::to_chars(buf, buf + sizeof(buf), value);
  return std::string(buf, res.ptr);
}

/// The name of a DLPack device type (the number when unknown).
std::string DeviceTypeName(int32_t device_type) {
  static const std::pair<int32_t, const char*> kNames[] = {
      {1, "cpu"},        {2, "cuda"},     {3, "cuda_host"},     {4, "opencl"},
      {7, "vulkan"},     {8, "metal"},    {9, "vpi"},           {10, "rocm"},
      {11, "rocm_host"}, {12, "ext_dev"}, {13, "cuda_managed"}, {14, "oneapi"},
      {15, "webgpu"},    {16, "hexagon"}, {17, "maia"},         {18, "trn"}};
  for (const auto& [code, name] : kNames) {
    if (code == device_type) return name;
  }
  return std::to_string(device_type);
}

std::string FormatDevice(DLDevice device) {
  return DeviceTypeName(device.device_type) + ":" + std::to_string(device.device_id);
}

std::string FormatDataType(DLDataType dtype) {
  TVMFFIAny out;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeToString(&dtype, &out));
  return std::string(details::AnyUnsafe::MoveTVMFFIAnyToAny(&out).cast<String>());
}

/// b"..." with printable ASCII kept, quotes and backslashes escaped, the rest as \xNN.
std::string FormatBytes(TVMFFIByteArray bytes) {
  std::string out = "b\"";
  for (size_t i = 0; i < bytes.size; ++i) {
    unsigned char ch = static_cast<unsigned char>(bytes.data[i]);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch >= 0x20 && ch < 0x7f) {
      out += static_cast<char>(ch);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof(hex), "\\x%02x", ch);
      out += hex;
    }
  }
  return out + "\"";
}

std::string FormatString(TVMFFIByteArray text) {
  return std::string(EscapeStringJSON(String(text.data, text.size)));
}

/// dtype[d0, d1]@device of a DLTensor.
std::string FormatTensor(const DLTensor* tensor) {
  std::string out = FormatDataType(tensor->dtype) + "[";
  for (int32_t i = 0; i < tensor->ndim; ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(tensor->shape[i]);
  }
  return out + "]@" + FormatDevice(tensor->device);
}

std::string FormatShape(const TVMFFIShapeCell* shape) {
  std::string out = "Shape(";
  for (size_t i = 0; i < shape->size; ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(shape->data[i]);
  }
  return out + ")";
}

/// @0x<hex> of an object's address.
std::string AddressSuffix(const Object* obj) {
  char buf[2 + 2 + 2 * sizeof(uintptr_t) + 1];
  std::snprintf(buf, sizeof(buf), "@0x%llx",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(obj)));  // NOLINT
  return buf;
}

/// Whether TVM_FFI_REPR_WITH_ADDR=1 asks for addresses in the printed text.
bool ReprWithAddress() {
  const char* flag = std::getenv("TVM_FFI_REPR_WITH_ADDR");
  return flag != nullptr && std::strcmp(flag, "1") == 0;
}

/// The __ffi_repr__ hook of a type or its nearest ancestor, if any.
std::optional<Function> FindReprHook(int32_t type_index) {
  TVMFFIByteArray name{reflection::type_attr::kRepr,
                       std::char_traits<char>::length(reflection::type_attr::kRepr)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr) return std::nullopt;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  for (int32_t depth = info->type_depth; depth >= 0; --depth) {
    int32_t index =
        depth == info->type_depth ? type_index : info->type_ancestors[depth]->type_index;
    int32_t row = index - column->begin_index;
    if (row < 0 || row >= column->size) continue;
    AnyView value = AnyView::CopyFromTVMFFIAny(column->data[row]);
    if (auto func = value.try_cast<Function>(); func.has_value() && *func != nullptr) return func;
  }
  return std::nullopt;
}

/// Prints one value; `active_` holds the objects being printed, to cut cycles.
class ReprPrinter {
 public:
  ReprPrinter() : with_address_(ReprWithAddress()) {}

  std::string Print(const AnyView& value) {
    poll_.Step();
    const TVMFFIAny cell = value.CopyToTVMFFIAny();
    if (cell.type_index < kTVMFFIStaticObjectBegin) return PrintPOD(cell);
    if (cell.type_index == kTVMFFIBigInt) return details::BigIntToDecimal(value.cast<BigInt>());
    CheckStackRoom("printing a value");
    const Object* obj = details::ObjectUnsafe::FromHandle(cell.v_obj);
    if (std::find(active_.begin(), active_.end(), obj) != active_.end()) {
      return "..." + Address(obj);
    }
    active_.push_back(obj);
    std::string out = PrintObject(obj, cell.v_obj);
    active_.pop_back();
    return out;
  }

 private:
  std::string PrintPOD(const TVMFFIAny& cell) {
    switch (cell.type_index) {
      case kTVMFFINone:
        return "None";
      case kTVMFFIBool:
        return cell.v_int64 != 0 ? "True" : "False";
      case kTVMFFIInt:
        return std::to_string(cell.v_int64);
      case kTVMFFIFloat:
        return FormatFloat(cell.v_float64);
      case kTVMFFIOpaquePtr:
        return StaticTypeKey::kTVMFFIOpaquePtr;
      case kTVMFFIDataType:
        return FormatDataType(cell.v_dtype);
      case kTVMFFIDevice:
        return FormatDevice(cell.v_device);
      case kTVMFFIDLTensorPtr:
        return FormatTensor(static_cast<const DLTensor*>(cell.v_ptr));
      case kTVMFFIRawStr:
        return FormatString(TVMFFIByteArray{cell.v_c_str, std::strlen(cell.v_c_str)});
      case kTVMFFIByteArrayPtr:
        return FormatBytes(*static_cast<const TVMFFIByteArray*>(cell.v_ptr));
      case kTVMFFIObjectRValueRef:
        return PrintRValueRef(cell);
      case kTVMFFISmallStr:
        return FormatString(TVMFFIByteArray{cell.v_bytes, cell.small_str_len});
      case kTVMFFISmallBytes:
        return FormatBytes(TVMFFIByteArray{cell.v_bytes, cell.small_str_len});
      default:
        return TypeIndexToTypeKey(cell.type_index);
    }
  }

  std::string PrintRValueRef(const TVMFFIAny& cell) {
    TVMFFIObject* obj = *static_cast<TVMFFIObject**>(cell.v_ptr);
    if (obj == nullptr) return "None";
    TVMFFIAny inner{};
    inner.type_index = obj->type_index;
    inner.v_obj = obj;
    return Print(AnyView::CopyFromTVMFFIAny(inner));
  }

  /// The address suffix of obj when addresses are shown, else "".
  std::string Address(const Object* obj) const {
    return with_address_ ? AddressSuffix(obj) : std::string();
  }

  std::string PrintObject(const Object* obj, const TVMFFIObject* header) {
    int32_t index = header->type_index;
    if (std::optional<Function> hook = FindReprHook(index)) {
      std::string out((*hook)(obj, MakeRecursivePrinter()).cast<String>());
      // A hook's text is taken as is, except that containers keep their address.
      return IsContainerTypeIndex(index) ? out + Address(obj) : out;
    }
    switch (index) {
      case kTVMFFIStr:
        return FormatString(*PayloadOf<TVMFFIByteArray>(header));
      case kTVMFFIBytes:
        return FormatBytes(*PayloadOf<TVMFFIByteArray>(header));
      case kTVMFFIShape:
        return FormatShape(PayloadOf<TVMFFIShapeCell>(header));
      case kTVMFFITensor:
        return FormatTensor(PayloadOf<DLTensor>(header)) + Address(obj);
      case kTVMFFIArray:
        return PrintSeq(static_cast<const SeqBaseObj*>(obj), "(", ")", true) + Address(obj);
      case kTVMFFIList:
        return PrintSeq(static_cast<const SeqBaseObj*>(obj), "[", "]", false) + Address(obj);
      case kTVMFFIMap:
      case kTVMFFIDict:
        return PrintMap(static_cast<const MapBaseObj*>(obj)) + Address(obj);
      default:
        if (obj->IsInstance<EnumObj>()) {
          return PrintEnum(static_cast<const EnumObj*>(obj)) + Address(obj);
        }
        return PrintFields(obj, index);
    }
  }

  /// key.name for an enum member (Apache's default when the enum class has no repr hook).
  static std::string PrintEnum(const EnumObj* member) {
    std::string out = member->GetTypeKey();
    return out + "." + std::string(member->_str_index.data(), member->_str_index.size());
  }

  /// A Function(value) -> str that prints with this printer (sharing the cycle guard).
  Function MakeRecursivePrinter() {
    return Function::FromTyped([this](AnyView value) { return String(Print(value)); });
  }

  std::string PrintSeq(const SeqBaseObj* seq, const char* open, const char* close,
                       bool tuple_comma) {
    std::string out = open;
    for (size_t i = 0; i < seq->size(); ++i) {
      out += (i == 0 ? "" : ", ") + Print(seq->begin()[i]);
    }
    if (tuple_comma && seq->size() == 1) out += ',';
    return out + close;
  }

  std::string PrintMap(const MapBaseObj* map) {
    std::string out = "{";
    bool first = true;
    for (uint64_t i = map->IterBegin(); i != map->IterEnd(); i = map->IterNext(i)) {
      out += (first ? "" : ", ") + Print(map->KeyAt(i)) + ": " + Print(map->ValueAt(i));
      first = false;
    }
    return out + "}";
  }

  /// key(f1=v1, ...) over the reflected fields (ancestors first, ReprOff skipped).
  std::string PrintFields(const Object* obj, int32_t type_index) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    std::string key = std::string(info->type_key.data, info->type_key.size) + Address(obj);
    std::string fields;
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      if (field->flags & kTVMFFIFieldFlagBitMaskReprOff) return;
      Any value = reflection::FieldGetter(field)(obj);
      fields += (fields.empty() ? "" : ", ") + std::string(field->name.data, field->name.size) +
                "=" + Print(value);
    });
    // No field shown (none reflected, or all ReprOff): the bare key, as Apache prints it.
    return fields.empty() ? key : key + "(" + fields + ")";
  }

  std::vector<const Object*> active_;
  bool with_address_;
  details::SignalPoll poll_;  // every value printed is a step
};

}  // namespace

String ReprPrint(const Any& value) { return String(ReprPrinter().Print(value)); }

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def("ffi.ReprPrint", ReprPrint,
                              "Readable, cycle-safe text of any FFI value");
}

}  // namespace ffi
}  // namespace tvm
