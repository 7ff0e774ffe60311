// SPDX-License-Identifier: Apache-2.0
// container_lib.cc: a library that reads and builds containers inline, compiled against either
// header set.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>

namespace {

using StrIntMap = tvm::ffi::Map<tvm::ffi::String, int64_t>;

/// Looks a key up with this header set's inline hashing and probing.
int64_t MapGet(StrIntMap map, tvm::ffi::String key) { return map.at(key); }

/// Counts the entries reached by this header set's inline iteration.
int64_t MapCountIterated(StrIntMap map) {
  int64_t count = 0;
  for (auto it = map.begin(); it != map.end(); ++it) ++count;
  return count;
}

/// Builds {"key<i>": i} for i < n with this header set's inline insertion.
StrIntMap MakeMap(int64_t n) {
  StrIntMap map;
  for (int64_t i = 0; i < n; ++i) map.Set(tvm::ffi::String("key" + std::to_string(i)), i);
  return map;
}

/// Sums an array with this header set's inline element access.
int64_t ArraySum(tvm::ffi::Array<int64_t> array) {
  int64_t total = 0;
  for (int64_t value : array) total += value;
  return total;
}

/// Builds [0, 1, ..., n-1] with this header set's inline push_back.
tvm::ffi::Array<int64_t> MakeArray(int64_t n) {
  tvm::ffi::Array<int64_t> array;
  for (int64_t i = 0; i < n; ++i) array.push_back(i);
  return array;
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(array_sum, ArraySum);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_array, MakeArray);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(map_get, MapGet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(map_count_iterated, MapCountIterated);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_map, MakeMap);
