/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file
 * \brief c_map_api.h: building a Map or Dict from key/value cells in one C call, for
 *        frontends that convert a mapping of their own (Python's dict) without going through
 *        the packed global ffi.Map. An addition to the C ABI of c_api.h, which it leaves
 *        unchanged.
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

#ifdef __cplusplus
}  // extern "C"
#endif
#endif /* TVM_FFI_EXTRA_C_MAP_API_H_ */
