// SPDX-License-Identifier: Apache-2.0
// test_abi_layout.cc: pins every ABI struct layout and enum value (docs/abi.md), plus type keys.
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/tensor_layout.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

// ---------------------------------------------------------------------------------------------
// Versioning
// ---------------------------------------------------------------------------------------------
static_assert(TVM_FFI_VERSION_MAJOR == 0, "major version");
static_assert(TVM_FFI_VERSION_MINOR == 1, "minor version");
static_assert(TVM_FFI_VERSION_PATCH == 15, "patch version");
static_assert(DLPACK_MAJOR_VERSION == 1, "DLPack major version");
static_assert(DLPACK_MINOR_VERSION == 3, "DLPack minor version");

static_assert(sizeof(TVMFFIVersion) == 12, "TVMFFIVersion size");
static_assert(alignof(TVMFFIVersion) == 4, "TVMFFIVersion align");
static_assert(offsetof(TVMFFIVersion, major) == 0, "TVMFFIVersion.major");
static_assert(offsetof(TVMFFIVersion, minor) == 4, "TVMFFIVersion.minor");
static_assert(offsetof(TVMFFIVersion, patch) == 8, "TVMFFIVersion.patch");

// ---------------------------------------------------------------------------------------------
// DLPack structs, enums and flags
// ---------------------------------------------------------------------------------------------
static_assert(sizeof(DLDevice) == 8 && alignof(DLDevice) == 4, "DLDevice size/align");
static_assert(sizeof(DLDeviceType) == 4, "DLDeviceType is int32");
static_assert(offsetof(DLDevice, device_type) == 0, "DLDevice.device_type");
static_assert(offsetof(DLDevice, device_id) == 4, "DLDevice.device_id");

static_assert(sizeof(DLDataType) == 4 && alignof(DLDataType) == 2, "DLDataType size/align");
static_assert(offsetof(DLDataType, code) == 0, "DLDataType.code");
static_assert(offsetof(DLDataType, bits) == 1, "DLDataType.bits");
static_assert(offsetof(DLDataType, lanes) == 2, "DLDataType.lanes");

static_assert(sizeof(DLTensor) == 48 && alignof(DLTensor) == 8, "DLTensor size/align");
static_assert(offsetof(DLTensor, data) == 0, "DLTensor.data");
static_assert(offsetof(DLTensor, device) == 8, "DLTensor.device");
static_assert(offsetof(DLTensor, ndim) == 16, "DLTensor.ndim");
static_assert(offsetof(DLTensor, dtype) == 20, "DLTensor.dtype");
static_assert(offsetof(DLTensor, shape) == 24, "DLTensor.shape");
static_assert(offsetof(DLTensor, strides) == 32, "DLTensor.strides");
static_assert(offsetof(DLTensor, byte_offset) == 40, "DLTensor.byte_offset");

static_assert(sizeof(DLManagedTensor) == 64, "DLManagedTensor size");
static_assert(alignof(DLManagedTensor) == 8, "DLManagedTensor align");
static_assert(offsetof(DLManagedTensor, dl_tensor) == 0, "DLManagedTensor.dl_tensor");
static_assert(offsetof(DLManagedTensor, manager_ctx) == 48, "DLManagedTensor.manager_ctx");
static_assert(offsetof(DLManagedTensor, deleter) == 56, "DLManagedTensor.deleter");

static_assert(sizeof(DLPackVersion) == 8 && alignof(DLPackVersion) == 4, "DLPackVersion");
static_assert(offsetof(DLPackVersion, major) == 0, "DLPackVersion.major");
static_assert(offsetof(DLPackVersion, minor) == 4, "DLPackVersion.minor");

static_assert(sizeof(DLManagedTensorVersioned) == 80, "DLManagedTensorVersioned size");
static_assert(alignof(DLManagedTensorVersioned) == 8, "DLManagedTensorVersioned align");
static_assert(offsetof(DLManagedTensorVersioned, version) == 0, "Versioned.version");
static_assert(offsetof(DLManagedTensorVersioned, manager_ctx) == 8, "Versioned.manager_ctx");
static_assert(offsetof(DLManagedTensorVersioned, deleter) == 16, "Versioned.deleter");
static_assert(offsetof(DLManagedTensorVersioned, flags) == 24, "Versioned.flags");
static_assert(offsetof(DLManagedTensorVersioned, dl_tensor) == 32, "Versioned.dl_tensor");

static_assert(sizeof(DLPackExchangeAPIHeader) == 16, "DLPackExchangeAPIHeader size");
static_assert(alignof(DLPackExchangeAPIHeader) == 8, "DLPackExchangeAPIHeader align");
static_assert(offsetof(DLPackExchangeAPIHeader, version) == 0, "APIHeader.version");
static_assert(offsetof(DLPackExchangeAPIHeader, prev_api) == 8, "APIHeader.prev_api");

static_assert(sizeof(DLPackExchangeAPI) == 56 && alignof(DLPackExchangeAPI) == 8, "ExchangeAPI");
static_assert(offsetof(DLPackExchangeAPI, header) == 0, "ExchangeAPI.header");
static_assert(offsetof(DLPackExchangeAPI, managed_tensor_allocator) == 16,
              "ExchangeAPI.managed_tensor_allocator");
static_assert(offsetof(DLPackExchangeAPI, managed_tensor_from_py_object_no_sync) == 24,
              "ExchangeAPI.managed_tensor_from_py_object_no_sync");
static_assert(offsetof(DLPackExchangeAPI, managed_tensor_to_py_object_no_sync) == 32,
              "ExchangeAPI.managed_tensor_to_py_object_no_sync");
static_assert(offsetof(DLPackExchangeAPI, dltensor_from_py_object_no_sync) == 40,
              "ExchangeAPI.dltensor_from_py_object_no_sync");
static_assert(offsetof(DLPackExchangeAPI, current_work_stream) == 48,
              "ExchangeAPI.current_work_stream");

static_assert(DLPACK_FLAG_BITMASK_READ_ONLY == 1UL, "READ_ONLY flag");
static_assert(DLPACK_FLAG_BITMASK_IS_COPIED == 2UL, "IS_COPIED flag");
static_assert(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED == 4UL, "IS_SUBBYTE_TYPE_PADDED flag");

static_assert(kDLCPU == 1 && kDLCUDA == 2 && kDLCUDAHost == 3 && kDLOpenCL == 4, "device 1-4");
static_assert(kDLVulkan == 7 && kDLMetal == 8 && kDLVPI == 9 && kDLROCM == 10, "device 7-10");
static_assert(kDLROCMHost == 11 && kDLExtDev == 12 && kDLCUDAManaged == 13, "device 11-13");
static_assert(kDLOneAPI == 14 && kDLWebGPU == 15 && kDLHexagon == 16, "device 14-16");
static_assert(kDLMAIA == 17 && kDLTrn == 18, "device 17-18");

static_assert(kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 && kDLOpaqueHandle == 3, "code 0-3");
static_assert(kDLBfloat == 4 && kDLComplex == 5 && kDLBool == 6, "code 4-6");
static_assert(kDLFloat8_e3m4 == 7 && kDLFloat8_e4m3 == 8 && kDLFloat8_e4m3b11fnuz == 9, "code 7-9");
static_assert(kDLFloat8_e4m3fn == 10 && kDLFloat8_e4m3fnuz == 11 && kDLFloat8_e5m2 == 12,
              "code 10-12");
static_assert(kDLFloat8_e5m2fnuz == 13 && kDLFloat8_e8m0fnu == 14, "code 13-14");
static_assert(kDLFloat6_e2m3fn == 15 && kDLFloat6_e3m2fn == 16 && kDLFloat4_e2m1fn == 17,
              "code 15-17");

// ---------------------------------------------------------------------------------------------
// Type indices
// ---------------------------------------------------------------------------------------------
static_assert(sizeof(TVMFFITypeIndex) == 4, "TVMFFITypeIndex is int32");
static_assert(kTVMFFIAny == -1 && kTVMFFINone == 0 && kTVMFFIInt == 1 && kTVMFFIBool == 2,
              "index -1..2");
static_assert(kTVMFFIFloat == 3 && kTVMFFIOpaquePtr == 4 && kTVMFFIDataType == 5, "index 3-5");
static_assert(kTVMFFIDevice == 6 && kTVMFFIDLTensorPtr == 7 && kTVMFFIRawStr == 8, "index 6-8");
static_assert(kTVMFFIByteArrayPtr == 9 && kTVMFFIObjectRValueRef == 10, "index 9-10");
static_assert(kTVMFFISmallStr == 11 && kTVMFFISmallBytes == 12 && kTVMFFIUnchanged == 13,
              "index 11-13");
static_assert(kTVMFFIStaticObjectBegin == 64 && kTVMFFIObject == 64, "index 64");
static_assert(kTVMFFIStr == 65 && kTVMFFIBytes == 66 && kTVMFFIError == 67, "index 65-67");
static_assert(kTVMFFIFunction == 68 && kTVMFFIShape == 69 && kTVMFFITensor == 70, "index 68-70");
static_assert(kTVMFFIArray == 71 && kTVMFFIMap == 72 && kTVMFFIModule == 73, "index 71-73");
static_assert(kTVMFFIOpaquePyObject == 74 && kTVMFFIList == 75 && kTVMFFIDict == 76, "index 74-76");
static_assert(kTVMFFIVisitInterrupt == 77 && kTVMFFIBigInt == 78 && kTVMFFIStaticObjectEnd == 79,
              "index 77-79");
static_assert(kTVMFFIDynObjectBegin == 128, "index 128");

// ---------------------------------------------------------------------------------------------
// The value cell
// ---------------------------------------------------------------------------------------------
static_assert(sizeof(TVMFFIAny) == 16 && alignof(TVMFFIAny) == 8, "TVMFFIAny size/align");
static_assert(offsetof(TVMFFIAny, type_index) == 0, "TVMFFIAny.type_index");
static_assert(offsetof(TVMFFIAny, zero_padding) == 4, "TVMFFIAny.zero_padding");
static_assert(offsetof(TVMFFIAny, small_str_len) == 4, "TVMFFIAny.small_str_len");
static_assert(offsetof(TVMFFIAny, v_int64) == 8, "TVMFFIAny.v_int64");
static_assert(offsetof(TVMFFIAny, v_float64) == 8, "TVMFFIAny.v_float64");
static_assert(offsetof(TVMFFIAny, v_ptr) == 8, "TVMFFIAny.v_ptr");
static_assert(offsetof(TVMFFIAny, v_c_str) == 8, "TVMFFIAny.v_c_str");
static_assert(offsetof(TVMFFIAny, v_obj) == 8, "TVMFFIAny.v_obj");
static_assert(offsetof(TVMFFIAny, v_dtype) == 8, "TVMFFIAny.v_dtype");
static_assert(offsetof(TVMFFIAny, v_device) == 8, "TVMFFIAny.v_device");
static_assert(offsetof(TVMFFIAny, v_bytes) == 8, "TVMFFIAny.v_bytes");
static_assert(offsetof(TVMFFIAny, v_uint64) == 8, "TVMFFIAny.v_uint64");
static_assert(sizeof(TVMFFIAny::v_bytes) == 8, "TVMFFIAny.v_bytes is 8 bytes");

// ---------------------------------------------------------------------------------------------
// Object header, deleter flags, allocation hooks
// ---------------------------------------------------------------------------------------------
static_assert(sizeof(TVMFFIObject) == 24 && alignof(TVMFFIObject) == 8, "TVMFFIObject");
static_assert(offsetof(TVMFFIObject, combined_ref_count) == 0, "Object.combined_ref_count");
static_assert(offsetof(TVMFFIObject, type_index) == 8, "Object.type_index");
static_assert(offsetof(TVMFFIObject, __padding) == 12, "Object.__padding");
static_assert(offsetof(TVMFFIObject, deleter) == 16, "Object.deleter");
static_assert(offsetof(TVMFFIObject, __ensure_align) == 16, "Object.__ensure_align");

static_assert(kTVMFFIObjectDeleterFlagBitMaskStrong == 1, "deleter flag strong");
static_assert(kTVMFFIObjectDeleterFlagBitMaskWeak == 2, "deleter flag weak");
static_assert(kTVMFFIObjectDeleterFlagBitMaskBoth == 3, "deleter flag both");

static_assert(sizeof(TVMFFIObjectAllocHeader) == 8, "TVMFFIObjectAllocHeader size");
static_assert(offsetof(TVMFFIObjectAllocHeader, delete_space) == 0, "AllocHeader.delete_space");
static_assert(sizeof(TVMFFICustomAllocator) == 16, "TVMFFICustomAllocator size");
static_assert(offsetof(TVMFFICustomAllocator, allocate) == 0, "CustomAllocator.allocate");
static_assert(offsetof(TVMFFICustomAllocator, context) == 8, "CustomAllocator.context");

// ---------------------------------------------------------------------------------------------
// Object payload cells (offsets relative to handle + 24)
// ---------------------------------------------------------------------------------------------
static_assert(sizeof(TVMFFIByteArray) == 16 && alignof(TVMFFIByteArray) == 8, "ByteArray");
static_assert(offsetof(TVMFFIByteArray, data) == 0, "ByteArray.data");
static_assert(offsetof(TVMFFIByteArray, size) == 8, "ByteArray.size");

static_assert(sizeof(TVMFFIShapeCell) == 16, "TVMFFIShapeCell size");
static_assert(offsetof(TVMFFIShapeCell, data) == 0, "ShapeCell.data");
static_assert(offsetof(TVMFFIShapeCell, size) == 8, "ShapeCell.size");

static_assert(kTVMFFIBacktraceUpdateModeReplace == 0, "backtrace mode replace");
static_assert(kTVMFFIBacktraceUpdateModeAppend == 1, "backtrace mode append");

static_assert(sizeof(TVMFFIErrorCell) == 72 && alignof(TVMFFIErrorCell) == 8, "ErrorCell");
static_assert(offsetof(TVMFFIErrorCell, kind) == 0, "ErrorCell.kind (handle + 24)");
static_assert(offsetof(TVMFFIErrorCell, message) == 16, "ErrorCell.message (handle + 40)");
static_assert(offsetof(TVMFFIErrorCell, backtrace) == 32, "ErrorCell.backtrace (handle + 56)");
static_assert(offsetof(TVMFFIErrorCell, update_backtrace) == 48, "ErrorCell.update_backtrace");
static_assert(offsetof(TVMFFIErrorCell, cause_chain) == 56, "ErrorCell.cause_chain");
static_assert(offsetof(TVMFFIErrorCell, extra_context) == 64, "ErrorCell.extra_context");

static_assert(sizeof(TVMFFIFunctionCell) == 16, "TVMFFIFunctionCell size");
static_assert(offsetof(TVMFFIFunctionCell, safe_call) == 0, "FunctionCell.safe_call");
static_assert(offsetof(TVMFFIFunctionCell, cpp_call) == 8, "FunctionCell.cpp_call");

static_assert(sizeof(TVMFFIOpaqueObjectCell) == 8, "TVMFFIOpaqueObjectCell size");
static_assert(offsetof(TVMFFIOpaqueObjectCell, handle) == 0, "OpaqueObjectCell.handle");

static_assert(sizeof(TVMFFISeqCell) == 32 && alignof(TVMFFISeqCell) == 8, "TVMFFISeqCell");
static_assert(offsetof(TVMFFISeqCell, data) == 0, "SeqCell.data");
static_assert(offsetof(TVMFFISeqCell, size) == 8, "SeqCell.size");
static_assert(offsetof(TVMFFISeqCell, capacity) == 16, "SeqCell.capacity");
static_assert(offsetof(TVMFFISeqCell, data_deleter) == 24, "SeqCell.data_deleter");

// ---------------------------------------------------------------------------------------------
// Reflection structs and enums
// ---------------------------------------------------------------------------------------------
static_assert(sizeof(TVMFFIFieldInfo) == 120 && alignof(TVMFFIFieldInfo) == 8, "FieldInfo");
static_assert(offsetof(TVMFFIFieldInfo, name) == 0, "FieldInfo.name");
static_assert(offsetof(TVMFFIFieldInfo, doc) == 16, "FieldInfo.doc");
static_assert(offsetof(TVMFFIFieldInfo, metadata) == 32, "FieldInfo.metadata");
static_assert(offsetof(TVMFFIFieldInfo, flags) == 48, "FieldInfo.flags");
static_assert(offsetof(TVMFFIFieldInfo, size) == 56, "FieldInfo.size");
static_assert(offsetof(TVMFFIFieldInfo, alignment) == 64, "FieldInfo.alignment");
static_assert(offsetof(TVMFFIFieldInfo, offset) == 72, "FieldInfo.offset");
static_assert(offsetof(TVMFFIFieldInfo, getter) == 80, "FieldInfo.getter");
static_assert(offsetof(TVMFFIFieldInfo, setter) == 88, "FieldInfo.setter");
static_assert(offsetof(TVMFFIFieldInfo, default_value_or_factory) == 96,
              "FieldInfo.default_value_or_factory");
static_assert(offsetof(TVMFFIFieldInfo, field_static_type_index) == 112,
              "FieldInfo.field_static_type_index");
static_assert(sizeof(TVMFFIFieldInfo::flags) == 8, "FieldInfo.flags is int64");

static_assert(sizeof(TVMFFIMethodInfo) == 72 && alignof(TVMFFIMethodInfo) == 8, "MethodInfo");
static_assert(offsetof(TVMFFIMethodInfo, name) == 0, "MethodInfo.name");
static_assert(offsetof(TVMFFIMethodInfo, doc) == 16, "MethodInfo.doc");
static_assert(offsetof(TVMFFIMethodInfo, metadata) == 32, "MethodInfo.metadata");
static_assert(offsetof(TVMFFIMethodInfo, flags) == 48, "MethodInfo.flags");
static_assert(offsetof(TVMFFIMethodInfo, method) == 56, "MethodInfo.method");

static_assert(sizeof(TVMFFITypeMetadata) == 32, "TVMFFITypeMetadata size");
static_assert(offsetof(TVMFFITypeMetadata, doc) == 0, "TypeMetadata.doc");
static_assert(offsetof(TVMFFITypeMetadata, creator) == 16, "TypeMetadata.creator");
static_assert(offsetof(TVMFFITypeMetadata, total_size) == 24, "TypeMetadata.total_size");
static_assert(offsetof(TVMFFITypeMetadata, structural_eq_hash_kind) == 28,
              "TypeMetadata.structural_eq_hash_kind");
static_assert(sizeof(TVMFFISEqHashKind) == 4, "TVMFFISEqHashKind is int32");

static_assert(sizeof(TVMFFITypeAttrColumn) == 16, "TVMFFITypeAttrColumn size");
static_assert(offsetof(TVMFFITypeAttrColumn, data) == 0, "TypeAttrColumn.data");
static_assert(offsetof(TVMFFITypeAttrColumn, size) == 8, "TypeAttrColumn.size");
static_assert(offsetof(TVMFFITypeAttrColumn, begin_index) == 12, "TypeAttrColumn.begin_index");

static_assert(sizeof(TVMFFITypeInfo) == 72 && alignof(TVMFFITypeInfo) == 8, "TypeInfo");
static_assert(offsetof(TVMFFITypeInfo, type_index) == 0, "TypeInfo.type_index");
static_assert(offsetof(TVMFFITypeInfo, type_depth) == 4, "TypeInfo.type_depth");
static_assert(offsetof(TVMFFITypeInfo, type_key) == 8, "TypeInfo.type_key");
static_assert(offsetof(TVMFFITypeInfo, type_ancestors) == 24, "TypeInfo.type_ancestors");
static_assert(offsetof(TVMFFITypeInfo, type_key_hash) == 32, "TypeInfo.type_key_hash");
static_assert(offsetof(TVMFFITypeInfo, num_fields) == 40, "TypeInfo.num_fields");
static_assert(offsetof(TVMFFITypeInfo, num_methods) == 44, "TypeInfo.num_methods");
static_assert(offsetof(TVMFFITypeInfo, fields) == 48, "TypeInfo.fields");
static_assert(offsetof(TVMFFITypeInfo, methods) == 56, "TypeInfo.methods");
static_assert(offsetof(TVMFFITypeInfo, metadata) == 64, "TypeInfo.metadata");

static_assert(kTVMFFIFieldFlagBitMaskWritable == 1 << 0, "flag writable");
static_assert(kTVMFFIFieldFlagBitMaskHasDefault == 1 << 1, "flag has default");
static_assert(kTVMFFIFieldFlagBitMaskIsStaticMethod == 1 << 2, "flag static method");
static_assert(kTVMFFIFieldFlagBitMaskSEqHashIgnore == 1 << 3, "flag seqhash ignore");
static_assert(kTVMFFIFieldFlagBitMaskSEqHashDefRecursive == 1 << 4, "flag seqhash def rec");
static_assert(kTVMFFIFieldFlagBitMaskSEqHashDef == 1 << 4, "flag seqhash def (old name)");
static_assert(kTVMFFIFieldFlagBitMaskDefaultFromFactory == 1 << 5, "flag default factory");
static_assert(kTVMFFIFieldFlagBitMaskReprOff == 1 << 6, "flag repr off");
static_assert(kTVMFFIFieldFlagBitMaskCompareOff == 1 << 7, "flag compare off");
static_assert(kTVMFFIFieldFlagBitMaskHashOff == 1 << 8, "flag hash off");
static_assert(kTVMFFIFieldFlagBitMaskInitOff == 1 << 9, "flag init off");
static_assert(kTVMFFIFieldFlagBitMaskKwOnly == 1 << 10, "flag kw only");
static_assert(kTVMFFIFieldFlagBitSetterIsFunctionObj == 1 << 11, "flag setter is function");
static_assert(kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive == 1 << 12, "flag def nonrec");

static_assert(kTVMFFISEqHashKindUnsupported == 0 && kTVMFFISEqHashKindTreeNode == 1,
              "seqhash kind 0-1");
static_assert(kTVMFFISEqHashKindFreeVar == 2 && kTVMFFISEqHashKindDAGNode == 3, "seqhash 2-3");
static_assert(kTVMFFISEqHashKindConstTreeNode == 4 && kTVMFFISEqHashKindUniqueInstance == 5,
              "seqhash kind 4-5");

static_assert(kTVMFFIDefRegionKindNone == 0 && kTVMFFIDefRegionKindRecursive == 1 &&
                  kTVMFFIDefRegionKindNonRecursive == 2,
              "def region kind");

namespace {

struct StaticTypeKey {
  int32_t index;
  const char* key;
};

// Type keys of every static index (docs/abi.md, 'Type indices').
constexpr StaticTypeKey kStaticTypeKeys[] = {
    {0, "None"},
    {1, "int"},
    {2, "bool"},
    {3, "float"},
    {4, "void*"},
    {5, "DataType"},
    {6, "Device"},
    {7, "DLTensor*"},
    {8, "const char*"},
    {9, "TVMFFIByteArray*"},
    {10, "ObjectRValueRef"},
    {11, "ffi.SmallStr"},
    {12, "ffi.SmallBytes"},
    {64, "ffi.Object"},
    {65, "ffi.String"},
    {66, "ffi.Bytes"},
    {67, "ffi.Error"},
    {68, "ffi.Function"},
    {69, "ffi.Shape"},
    {70, "ffi.Tensor"},
    {71, "ffi.Array"},
    {72, "ffi.Map"},
    {73, "ffi.Module"},
    {74, "ffi.OpaquePyObject"},
    {75, "ffi.List"},
    {76, "ffi.Dict"},
    {77, "ffi.VisitInterrupt"},
};

std::string KeyOf(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}

TEST(AbiLayout, TensorObjHoldsDLTensorAtHandlePlus24) {
  static_assert(sizeof(tvm::ffi::TensorObj) == sizeof(TVMFFIObject) + sizeof(DLTensor),
                "TensorObj is the header plus a DLTensor");
  tvm::ffi::TensorObj obj;
  const char* handle = reinterpret_cast<const char*>(&obj);
  const char* tensor = reinterpret_cast<const char*>(static_cast<const DLTensor*>(&obj));
  EXPECT_EQ(tensor - handle, 24);
  EXPECT_EQ(reinterpret_cast<const char*>(&obj.data) - handle, 24);
  EXPECT_EQ(reinterpret_cast<const char*>(&obj.byte_offset) - handle, 64);
}

TEST(AbiLayout, VersionMatchesMacros) {
  TVMFFIVersion version{99, 99, 99};
  TVMFFIGetVersion(&version);
  EXPECT_EQ(version.major, static_cast<uint32_t>(TVM_FFI_VERSION_MAJOR));
  EXPECT_EQ(version.minor, static_cast<uint32_t>(TVM_FFI_VERSION_MINOR));
  EXPECT_EQ(version.patch, static_cast<uint32_t>(TVM_FFI_VERSION_PATCH));
}

TEST(AbiLayout, StaticTypeKeys) {
  for (const StaticTypeKey& entry : kStaticTypeKeys) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(entry.index);
    ASSERT_NE(info, nullptr) << "index " << entry.index;
    EXPECT_EQ(info->type_index, entry.index);
    EXPECT_EQ(KeyOf(info), entry.key) << "index " << entry.index;
  }
}

TEST(AbiLayout, ObjectIsRoot) {
  const TVMFFITypeInfo* root = TVMFFIGetTypeInfo(kTVMFFIObject);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->type_depth, 0);
}

TEST(AbiLayout, StaticObjectsDeriveFromObject) {
  const TVMFFITypeInfo* root = TVMFFIGetTypeInfo(kTVMFFIObject);
  for (int32_t index = kTVMFFIStr; index <= kTVMFFIVisitInterrupt; ++index) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    ASSERT_NE(info, nullptr) << "index " << index;
    EXPECT_EQ(info->type_depth, 1) << "index " << index;
    ASSERT_NE(info->type_ancestors, nullptr) << "index " << index;
    EXPECT_EQ(info->type_ancestors[0], root) << "index " << index;
  }
}

TEST(AbiLayout, TypeKeyToIndexRoundTrips) {
  for (const StaticTypeKey& entry : kStaticTypeKeys) {
    if (entry.index < kTVMFFIStaticObjectBegin) continue;
    TVMFFIByteArray key{entry.key, std::char_traits<char>::length(entry.key)};
    int32_t index = -1;
    ASSERT_EQ(TVMFFITypeKeyToIndex(&key, &index), 0) << entry.key;
    EXPECT_EQ(index, entry.index) << entry.key;
  }
}

}  // namespace
