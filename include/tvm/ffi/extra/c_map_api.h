/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file
 * \brief c_map_api.h: building a Map or Dict from key/value cells in one C call, and reading
 *        one (size, lookup) without a packed call, for frontends that convert a mapping of
 *        their own (Python's dict) or index one. An addition to the C ABI of c_api.h, which it
 *        leaves unchanged; frontends use these instead of the map's memory layout.
 */
#ifndef TVM_FFI_EXTRA_C_MAP_API_H_
#define TVM_FFI_EXTRA_C_MAP_API_H_

#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*!
 * \brief A new Map or Dict of the pairs (cells[0], cells[1]), (cells[2], cells[3]), ...: the
 *        same map the global function ffi.Map (or ffi.Dict) returns for these arguments. A
 *        later key equal to an earlier one sets the earlier entry's value (its key and place
 *        stay).
 * \param type_index kTVMFFIMap or kTVMFFIDict.
 * \param cells 2 * num_pairs cells, borrowed: the map takes references of its own.
 * \param out Receives a new reference to the map.
 * \return 0 or -1 (SC): ValueError for another type_index or a negative num_pairs, or the
 *         error of a key type's own hash or equality.
 */
TVM_FFI_DLL int TVMFFIMapFromPairs(int32_t type_index, const TVMFFIAny* cells, int64_t num_pairs,
                                   TVMFFIObjectHandle* out);

/*!
 * \brief The number of entries of a Map or Dict.
 * \param map A Map or Dict (the caller checks the type index).
 * \return The number of entries; it cannot fail.
 */
TVM_FFI_DLL int64_t TVMFFIMapSize(TVMFFIObjectHandle map);

/*!
 * \brief Looks a string key up in a Map or Dict by its UTF-8 bytes, without making a String:
 *        the entry found is the one whose key is a Str or SmallStr of these bytes.
 * \param map A Map or Dict (the caller checks the type index).
 * \param data The key's bytes (need not end in NUL; may hold NUL).
 * \param size The number of bytes.
 * \param out_value Receives the entry's value cell, borrowed from the map (valid until the map
 *        changes), or NULL when the key is absent.
 * \return 0; it cannot fail.
 */
TVM_FFI_DLL int TVMFFIMapFindStr(TVMFFIObjectHandle map, const char* data, size_t size,
                                 const TVMFFIAny** out_value);

/*!
 * \brief Looks a key up in a Map or Dict, comparing keys as the map does (a key type's own
 *        equality hook included).
 * \param map A Map or Dict (the caller checks the type index).
 * \param key The key, borrowed.
 * \param out_value Receives the entry's value cell, borrowed from the map (valid until the map
 *        changes), or NULL when the key is absent.
 * \return 0 or -1 (SC): the error of a key type's own hash or equality.
 */
TVM_FFI_DLL int TVMFFIMapFind(TVMFFIObjectHandle map, const TVMFFIAny* key,
                              const TVMFFIAny** out_value);

#ifdef __cplusplus
}  // extern "C"
#endif
#endif /* TVM_FFI_EXTRA_C_MAP_API_H_ */
