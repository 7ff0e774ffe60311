// SPDX-License-Identifier: Apache-2.0
// map_find.cc: TVMFFIMapSize, TVMFFIMapFindStr and TVMFFIMapFind (tvm/ffi/extra/c_map_api.h),
// the reads of a Map or Dict a frontend makes without a packed call and without knowing the
// map's layout. A string key is looked up by its bytes: it hashes as the Str of those bytes
// would and matches a stored Str or SmallStr of equal content.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_map_api.h>

#include <cstddef>
#include <cstdint>

namespace tvm {
namespace ffi {
namespace {

const MapBaseObj* MapOf(TVMFFIObjectHandle map) { return static_cast<const MapBaseObj*>(map); }

const TVMFFIAny* ValueCellAt(const MapBaseObj* m, uint64_t pos) {
  if (pos == m->IterEnd()) return nullptr;
  return details::AnyUnsafe::TVMFFIAnyPtrFromAny(m->ValueAt(pos));
}

bool IsStrOf(const Any& stored, const char* data, size_t size) {
  const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(stored);
  if (cell->type_index == TypeIndex::kTVMFFISmallStr) {
    return Bytes::memequal(cell->v_bytes, data, cell->small_str_len, size);
  }
  if (cell->type_index != TypeIndex::kTVMFFIStr) return false;
  const TVMFFIByteArray* content = TVMFFIBytesGetByteArrayPtr(cell->v_obj);
  return Bytes::memequal(content->data, data, content->size, size);
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT(build/namespaces)

extern "C" {

int64_t TVMFFIMapSize(TVMFFIObjectHandle map) { return static_cast<int64_t>(MapOf(map)->size()); }

int TVMFFIMapFindStr(TVMFFIObjectHandle map, const char* data, size_t size,
                     const TVMFFIAny** out_value) {
  const MapBaseObj* m = MapOf(map);
  uint64_t hash = details::StableHashCombine(static_cast<uint64_t>(TypeIndex::kTVMFFIStr),
                                             details::StableHashBytes(data, size));
  uint64_t pos =
      m->FindWhere(hash, [data, size](const Any& stored) { return IsStrOf(stored, data, size); });
  *out_value = ValueCellAt(m, pos);
  return 0;
}

int TVMFFIMapFind(TVMFFIObjectHandle map, const TVMFFIAny* key, const TVMFFIAny** out_value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  const MapBaseObj* m = MapOf(map);
  Any key_value = AnyView::CopyFromTVMFFIAny(*key);
  *out_value = ValueCellAt(m, m->Find(key_value));
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"
