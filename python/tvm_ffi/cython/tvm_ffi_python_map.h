/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_map.h: reads of Map and Dict objects without a call into the runtime: their
 * size, and the lookup of a key that is an exact str, an exact int within int64, a bool or
 * None. The lookup follows the object layout and the key hashing and equality of the ABI
 * ("Maps and dicts", "Equality and hashing"), which every build of the runtime shares. Any
 * other key may be an object whose type hashes and compares itself (__any_hash__,
 * __any_equal__), so it is left to the runtime. */
#ifndef TVM_FFI_PYTHON_MAP_H_
#define TVM_FFI_PYTHON_MAP_H_

#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_python_helpers.h"

/* The fields of a Map or Dict after the object header; the last four exist only in the dense
 * layout. */
typedef struct {
  void* data;
  uint64_t size;
  uint64_t slots; /* bit 63 set: the small layout, whose capacity is the other bits */
  void (*data_deleter)(void*);
  uint32_t fib_shift;
  uint32_t padding;
  uint64_t iter_list_head;
  uint64_t iter_list_tail;
} TVMFFIPyMapCell;

/* One entry of the small layout. */
typedef struct {
  TVMFFIAny key;
  TVMFFIAny value;
} TVMFFIPyMapPair;

/* One item of the dense layout; a block is 16 metadata bytes followed by 16 items. */
typedef struct {
  TVMFFIAny key;
  TVMFFIAny value;
  uint64_t prev;
  uint64_t next;
} TVMFFIPyMapItem;

#define TVMFFI_PY_MAP_SMALL_FLAG (UINT64_C(1) << 63)
#define TVMFFI_PY_MAP_BLOCK_SLOTS 16
#define TVMFFI_PY_MAP_BLOCK_BYTES \
  (TVMFFI_PY_MAP_BLOCK_SLOTS + TVMFFI_PY_MAP_BLOCK_SLOTS * sizeof(TVMFFIPyMapItem))
#define TVMFFI_PY_MAP_FIB_MULTIPLIER UINT64_C(11400714819323198485)
#define TVMFFI_PY_MAP_NUM_JUMPS 126

/* A key as the runtime would see it: the UTF-8 bytes of a str (type kTVMFFIStr), or the
 * payload of an int, bool or None cell. */
typedef struct {
  int32_t type_index;
  int64_t value;
  const char* data;
  size_t size;
} TVMFFIPyMapKey;

static inline int TVMFFIPyIsMapHandle(TVMFFIObjectHandle handle) {
  int32_t type_index = ((TVMFFIObject*)handle)->type_index;
  return type_index == kTVMFFIMap || type_index == kTVMFFIDict;
}

static inline const TVMFFIPyMapCell* TVMFFIPyMapCellOf(TVMFFIObjectHandle handle) {
  return TVMFFI_PY_CELL(handle, const TVMFFIPyMapCell);
}

static inline uint64_t TVMFFIPyMapSize(TVMFFIObjectHandle handle) {
  return TVMFFIPyMapCellOf(handle)->size;
}

static inline uint64_t TVMFFIPyHashCombine(uint64_t key, uint64_t value) {
  return key ^ (value + UINT64_C(0x9e3779b9) + (key << 6) + (key >> 2));
}

/* StableHashBytes: 8-byte little-endian chunks, the last one zero-padded, folded modulo
 * 2^31 - 1 with a multiplication that wraps around in uint64. */
static inline uint64_t TVMFFIPyHashBytes(const char* data, size_t size) {
  uint64_t hash = 0;
  size_t pos;
  for (pos = 0; pos < size; pos += 8) {
    uint64_t chunk = 0;
    size_t n = size - pos < 8 ? size - pos : 8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&chunk, data + pos, n);
#else
    size_t i;
    for (i = 0; i < n; ++i) chunk |= (uint64_t)(unsigned char)data[pos + i] << (8 * i);
#endif
    hash = (hash * UINT64_C(1099511628211) + chunk) % UINT64_C(2147483647);
  }
  return hash;
}

/* The hash the runtime gives the key: a SmallStr and a Str of the same text hash alike. */
static inline uint64_t TVMFFIPyMapKeyHash(const TVMFFIPyMapKey* key) {
  if (key->type_index == kTVMFFIStr) {
    return TVMFFIPyHashCombine(kTVMFFIStr, TVMFFIPyHashBytes(key->data, key->size));
  }
  return TVMFFIPyHashCombine((uint64_t)key->type_index, (uint64_t)key->value);
}

/* Whether a stored key equals the probe: strings by content (either form), the rest bitwise. */
static inline int TVMFFIPyMapKeyEqual(const TVMFFIAny* stored, const TVMFFIPyMapKey* key) {
  if (key->type_index == kTVMFFIStr) {
    TVMFFIByteArray text;
    if (stored->type_index != kTVMFFISmallStr && stored->type_index != kTVMFFIStr) return 0;
    text = TVMFFIPyStringCellView(stored);
    return text.size == key->size && memcmp(text.data, key->data, key->size) == 0;
  }
  return stored->type_index == key->type_index && stored->zero_padding == 0 &&
         stored->v_int64 == key->value;
}

/* The distance to the next member of a chain for the low 7 bits of a metadata byte: 0..15,
 * then triangular numbers n(n+1)/2 of n = 6..72, then of the sparser n below. */
static inline uint64_t TVMFFIPyMapProbeDistance(unsigned jump) {
  static const uint64_t kLargeN[TVMFFI_PY_MAP_NUM_JUMPS - 83] = {
      130,        195,        292,       438,       657,       986,       1478,      2217,
      3326,       4988,       7482,      11223,     16835,     25252,     37877,     56816,
      85223,      127835,     191752,    287627,    431440,    647160,    970740,    1456110,
      2184165,    3276247,    4914370,   7371555,   11057333,  16585999,  24878998,  37318497,
      55977745,   83966618,   125949926, 188924889, 283387334, 425081001, 637621501, 956432251,
      1434648376, 2151972564, 3227958845};
  uint64_t n;
  if (jump < 16) return jump;
  n = jump < 83 ? (uint64_t)jump - 10 : kLargeN[jump - 83];
  return n * (n + 1) / 2;
}

static inline uint8_t TVMFFIPyMapMeta(const TVMFFIPyMapCell* m, uint64_t slot) {
  const uint8_t* block =
      (const uint8_t*)m->data + (slot / TVMFFI_PY_MAP_BLOCK_SLOTS) * TVMFFI_PY_MAP_BLOCK_BYTES;
  return block[slot % TVMFFI_PY_MAP_BLOCK_SLOTS];
}

static inline const TVMFFIPyMapItem* TVMFFIPyMapItemAt(const TVMFFIPyMapCell* m, uint64_t slot) {
  const char* block =
      (const char*)m->data + (slot / TVMFFI_PY_MAP_BLOCK_SLOTS) * TVMFFI_PY_MAP_BLOCK_BYTES;
  return (const TVMFFIPyMapItem*)(block + TVMFFI_PY_MAP_BLOCK_SLOTS) +
         slot % TVMFFI_PY_MAP_BLOCK_SLOTS;
}

/* The value cell of key in the map, or NULL when it is absent. */
static inline const TVMFFIAny* TVMFFIPyMapFindKey(const TVMFFIPyMapCell* m,
                                                  const TVMFFIPyMapKey* key) {
  uint64_t slot;
  uint8_t meta;
  if ((m->slots & TVMFFI_PY_MAP_SMALL_FLAG) != 0) {
    const TVMFFIPyMapPair* pairs = (const TVMFFIPyMapPair*)m->data;
    uint64_t i;
    for (i = 0; i < m->size; ++i) {
      if (TVMFFIPyMapKeyEqual(&pairs[i].key, key)) return &pairs[i].value;
    }
    return NULL;
  }
  if (m->size == 0) return NULL;
  slot = (TVMFFI_PY_MAP_FIB_MULTIPLIER * TVMFFIPyMapKeyHash(key)) >> m->fib_shift;
  meta = TVMFFIPyMapMeta(m, slot);
  if ((meta & 0x80) != 0) return NULL; /* empty, protected, or part of another chain */
  for (;;) {
    const TVMFFIPyMapItem* item = TVMFFIPyMapItemAt(m, slot);
    unsigned jump = meta & 0x7F;
    if (TVMFFIPyMapKeyEqual(&item->key, key)) return &item->value;
    if (jump == 0 || jump >= TVMFFI_PY_MAP_NUM_JUMPS) return NULL;
    slot = (slot + TVMFFIPyMapProbeDistance(jump)) & (m->slots - 1);
    meta = TVMFFIPyMapMeta(m, slot);
  }
}

/* Reads key as the runtime would receive it; *out_done is 0 for a key of any other kind. A
 * str that is not valid UTF-8 is left to the runtime too, whose conversion reports it. */
static inline int TVMFFIPyMapKeyFromPy(PyObject* value, TVMFFIPyMapKey* key, int* out_done) {
  *out_done = 1;
  key->data = NULL;
  key->size = 0;
  key->value = 0;
  if (PyUnicode_CheckExact(value)) {
    Py_ssize_t size = 0;
    key->data = PyUnicode_AsUTF8AndSize(value, &size);
    if (key->data == NULL) {
      PyErr_Clear();
      *out_done = 0;
      return 0;
    }
    key->type_index = kTVMFFIStr;
    key->size = (size_t)size;
  } else if (PyLong_CheckExact(value)) {
    TVMFFIAny cell;
    TVMFFIPySetIntCell(value, &cell, kTVMFFIInt, out_done);
    key->type_index = kTVMFFIInt;
    key->value = cell.v_int64;
  } else if (PyBool_Check(value)) {
    key->type_index = kTVMFFIBool;
    key->value = value == Py_True;
  } else if (value == Py_None) {
    key->type_index = kTVMFFINone;
  } else {
    *out_done = 0;
  }
  return 0;
}

/* Looks key up in the Map or Dict at handle: *out_value is its value cell (borrowed from the
 * map), or NULL when absent. *out_done is 0 when key is not of a kind read here; the caller
 * then asks the runtime. Returns 0. */
static inline int TVMFFIPyMapFind(TVMFFIObjectHandle handle, PyObject* value,
                                  const TVMFFIAny** out_value, int* out_done) {
  TVMFFIPyMapKey key;
  *out_value = NULL;
  TVMFFIPyMapKeyFromPy(value, &key, out_done);
  if (*out_done) *out_value = TVMFFIPyMapFindKey(TVMFFIPyMapCellOf(handle), &key);
  return 0;
}

#endif /* TVM_FFI_PYTHON_MAP_H_ */
