/* SPDX-License-Identifier: Apache-2.0 */
/* test_c_api.c: drives libtvm_ffi through the pure C API only (C99, no C++ anywhere). */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

static int g_passed = 0;
static int g_failed = 0;

/* Records one check; prints the failing expression and line to stderr. */
#define TVM_FFI_TEST_CHECK(cond)                                               \
  do {                                                                         \
    if (cond) {                                                                \
      ++g_passed;                                                              \
    } else {                                                                   \
      ++g_failed;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* ------------------------------------------------------------------------------------------
 * Helpers: cells, byte arrays and error cells via offset arithmetic
 * ------------------------------------------------------------------------------------------ */

static TVMFFIByteArray ByteArrayOf(const char* str) {
  TVMFFIByteArray out;
  out.data = str;
  out.size = strlen(str);
  return out;
}

static TVMFFIAny NoneCell(void) {
  TVMFFIAny cell;
  memset(&cell, 0, sizeof(cell));
  cell.type_index = kTVMFFINone;
  return cell;
}

static TVMFFIAny IntCell(int64_t value) {
  TVMFFIAny cell = NoneCell();
  cell.type_index = kTVMFFIInt;
  cell.v_int64 = value;
  return cell;
}

static TVMFFIAny RawStrCell(const char* str) {
  TVMFFIAny cell = NoneCell();
  cell.type_index = kTVMFFIRawStr;
  cell.v_c_str = str;
  return cell;
}

/* Releases an owning cell: drops the reference it holds, if any. */
static void ReleaseCell(TVMFFIAny* cell) {
  if (cell->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(cell->v_obj);
  *cell = NoneCell();
}

/* A heap string/bytes object keeps its TVMFFIByteArray at handle + 24. */
static const TVMFFIByteArray* ObjectBytes(TVMFFIObjectHandle handle) {
  return (const TVMFFIByteArray*)((const char*)handle + 24);
}

/* An error object keeps its TVMFFIErrorCell at handle + 24. */
static const TVMFFIErrorCell* ErrorCellOf(TVMFFIObjectHandle handle) {
  return (const TVMFFIErrorCell*)((const char*)handle + 24);
}

static int ByteArrayEquals(const TVMFFIByteArray* bytes, const char* expected) {
  size_t n = strlen(expected);
  return bytes->size == n && memcmp(bytes->data, expected, n) == 0;
}

static int ByteArrayContains(const TVMFFIByteArray* bytes, const char* needle) {
  size_t n = strlen(needle);
  size_t i;
  if (n > bytes->size) return 0;
  for (i = 0; i + n <= bytes->size; ++i) {
    if (memcmp(bytes->data + i, needle, n) == 0) return 1;
  }
  return 0;
}

static void PrintByteArray(const char* label, const TVMFFIByteArray* bytes) {
  fprintf(stderr, "  %s: %.*s\n", label, (int)bytes->size, bytes->data);
}

/* Takes the raised error; checks its kind and that its message contains msg_part. */
static void ExpectRaised(const char* kind, const char* msg_part) {
  TVMFFIObjectHandle err = NULL;
  const TVMFFIErrorCell* cell;
  TVMFFIErrorMoveFromRaised(&err);
  TVM_FFI_TEST_CHECK(err != NULL);
  if (err == NULL) return;
  TVM_FFI_TEST_CHECK(((const TVMFFIObject*)err)->type_index == kTVMFFIError);
  cell = ErrorCellOf(err);
  TVM_FFI_TEST_CHECK(ByteArrayEquals(&cell->kind, kind));
  TVM_FFI_TEST_CHECK(ByteArrayContains(&cell->message, msg_part));
  if (!ByteArrayEquals(&cell->kind, kind) || !ByteArrayContains(&cell->message, msg_part)) {
    PrintByteArray("kind", &cell->kind);
    PrintByteArray("message", &cell->message);
  }
  TVMFFIObjectDecRef(err);
}

static TVMFFIObjectHandle GetGlobal(const char* name) {
  TVMFFIByteArray key = ByteArrayOf(name);
  TVMFFIObjectHandle func = NULL;
  TVM_FFI_TEST_CHECK(TVMFFIFunctionGetGlobal(&key, &func) == 0);
  TVM_FFI_TEST_CHECK(func != NULL);
  if (func == NULL) fprintf(stderr, "  missing global function %s\n", name);
  return func;
}

/* ------------------------------------------------------------------------------------------
 * Global functions and calls
 * ------------------------------------------------------------------------------------------ */

static void TestAddOne(void) {
  TVMFFIObjectHandle func = GetGlobal("testing.add_one");
  TVMFFIAny arg = IntCell(41);
  TVMFFIAny result = NoneCell();
  if (func == NULL) return;
  TVM_FFI_TEST_CHECK(((const TVMFFIObject*)func)->type_index == kTVMFFIFunction);
  TVM_FFI_TEST_CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == 0);
  TVM_FFI_TEST_CHECK(result.type_index == kTVMFFIInt);
  TVM_FFI_TEST_CHECK(result.v_int64 == 42);
  ReleaseCell(&result);
  TVM_FFI_TEST_CHECK(TVMFFIObjectDecRef(func) == 0);
}

static void TestUnknownGlobal(void) {
  TVMFFIByteArray key = ByteArrayOf("testing.no_such_function_anywhere");
  TVMFFIObjectHandle func = &key; /* any non-NULL value; must be overwritten */
  TVM_FFI_TEST_CHECK(TVMFFIFunctionGetGlobal(&key, &func) == 0);
  TVM_FFI_TEST_CHECK(func == NULL);
}

static void TestAddOneWrongType(void) {
  TVMFFIObjectHandle func = GetGlobal("testing.add_one");
  TVMFFIObjectHandle err = &func;
  TVMFFIAny arg = RawStrCell("not an int");
  TVMFFIAny result = NoneCell();
  if (func == NULL) return;
  TVM_FFI_TEST_CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == -1);
  TVM_FFI_TEST_CHECK(result.type_index < kTVMFFIStaticObjectBegin);
  ExpectRaised("TypeError", "Mismatched type on argument #0");
  TVMFFIErrorMoveFromRaised(&err);
  TVM_FFI_TEST_CHECK(err == NULL);
  TVMFFIObjectDecRef(func);
}

static void TestAddOneWrongArity(void) {
  TVMFFIObjectHandle func = GetGlobal("testing.add_one");
  TVMFFIAny result = NoneCell();
  if (func == NULL) return;
  TVM_FFI_TEST_CHECK(TVMFFIFunctionCall(func, NULL, 0, &result) == -1);
  ExpectRaised("TypeError", "Mismatched number of arguments");
  TVMFFIObjectDecRef(func);
}

/* ------------------------------------------------------------------------------------------
 * Strings and bytes
 * ------------------------------------------------------------------------------------------ */

typedef int (*FromByteArrayFn)(const TVMFFIByteArray* input, TVMFFIAny* out);

static void CheckSmallCell(FromByteArrayFn make, int32_t small_index) {
  TVMFFIByteArray input = ByteArrayOf("hi");
  TVMFFIAny out = IntCell(-1);
  int i;
  TVM_FFI_TEST_CHECK(make(&input, &out) == 0);
  TVM_FFI_TEST_CHECK(out.type_index == small_index);
  TVM_FFI_TEST_CHECK(out.small_str_len == 2);
  TVM_FFI_TEST_CHECK(memcmp(out.v_bytes, "hi", 2) == 0);
  for (i = 2; i < 8; ++i) TVM_FFI_TEST_CHECK(out.v_bytes[i] == 0);
}

static void CheckHeapCell(FromByteArrayFn make, int32_t heap_index) {
  const char* text = "twenty-byte-payload!";
  TVMFFIByteArray input = ByteArrayOf(text);
  TVMFFIAny out = NoneCell();
  const TVMFFIByteArray* bytes;
  TVM_FFI_TEST_CHECK(input.size == 20);
  TVM_FFI_TEST_CHECK(make(&input, &out) == 0);
  TVM_FFI_TEST_CHECK(out.type_index == heap_index);
  if (out.type_index != heap_index) return;
  TVM_FFI_TEST_CHECK(out.v_obj->type_index == heap_index);
  bytes = ObjectBytes(out.v_obj);
  TVM_FFI_TEST_CHECK(bytes->size == 20);
  TVM_FFI_TEST_CHECK(memcmp(bytes->data, text, 20) == 0);
  TVM_FFI_TEST_CHECK(bytes->data[bytes->size] == 0);
  TVM_FFI_TEST_CHECK(bytes->data != text);
  ReleaseCell(&out);
}

static void TestStringFromByteArray(void) {
  CheckSmallCell(TVMFFIStringFromByteArray, kTVMFFISmallStr);
  CheckHeapCell(TVMFFIStringFromByteArray, kTVMFFIStr);
}

static void TestBytesFromByteArray(void) {
  CheckSmallCell(TVMFFIBytesFromByteArray, kTVMFFISmallBytes);
  CheckHeapCell(TVMFFIBytesFromByteArray, kTVMFFIBytes);
}

static void TestViewToOwnedShort(void) {
  TVMFFIAny view = RawStrCell("hello");
  TVMFFIAny owned = NoneCell();
  TVM_FFI_TEST_CHECK(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  TVM_FFI_TEST_CHECK(owned.type_index == kTVMFFISmallStr);
  TVM_FFI_TEST_CHECK(owned.small_str_len == 5);
  TVM_FFI_TEST_CHECK(memcmp(owned.v_bytes, "hello", 6) == 0);
  ReleaseCell(&owned);
}

static void TestViewToOwnedLong(void) {
  const char* text = "a string that is longer than seven bytes";
  TVMFFIAny view = RawStrCell(text);
  TVMFFIAny owned = NoneCell();
  TVM_FFI_TEST_CHECK(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  TVM_FFI_TEST_CHECK(owned.type_index == kTVMFFIStr);
  if (owned.type_index != kTVMFFIStr) return;
  TVM_FFI_TEST_CHECK(ByteArrayEquals(ObjectBytes(owned.v_obj), text));
  TVM_FFI_TEST_CHECK(ObjectBytes(owned.v_obj)->data != text);
  ReleaseCell(&owned);
}

/* ------------------------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------------------------ */

static void TestSetRaisedFromCStr(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "bad value");
  TVMFFIErrorMoveFromRaised(&err);
  TVM_FFI_TEST_CHECK(err != NULL);
  if (err == NULL) return;
  TVM_FFI_TEST_CHECK(ByteArrayEquals(&ErrorCellOf(err)->kind, "ValueError"));
  TVM_FFI_TEST_CHECK(ByteArrayEquals(&ErrorCellOf(err)->message, "bad value"));
  TVM_FFI_TEST_CHECK(TVMFFIObjectDecRef(err) == 0);
}

static void CheckRaisedError(TVMFFIObjectHandle err) {
  const TVMFFIErrorCell* cell = ErrorCellOf(err);
  TVM_FFI_TEST_CHECK(ByteArrayEquals(&cell->kind, "KeyError"));
  TVM_FFI_TEST_CHECK(ByteArrayEquals(&cell->message, "missing"));
  TVM_FFI_TEST_CHECK(cell->backtrace.size > 0);
  TVM_FFI_TEST_CHECK(ByteArrayContains(&cell->backtrace, "TestRaiseError"));
  if (!ByteArrayContains(&cell->backtrace, "TestRaiseError")) {
    PrintByteArray("backtrace", &cell->backtrace);
  }
}

static void TestRaiseErrorFromLibrary(void) {
  TVMFFIObjectHandle func = GetGlobal("testing.test_raise_error");
  TVMFFIObjectHandle err = NULL;
  TVMFFIAny args[2];
  TVMFFIAny result = NoneCell();
  if (func == NULL) return;
  args[0] = RawStrCell("KeyError");
  args[1] = RawStrCell("missing");
  TVM_FFI_TEST_CHECK(TVMFFIFunctionCall(func, args, 2, &result) == -1);
  TVMFFIErrorMoveFromRaised(&err);
  TVM_FFI_TEST_CHECK(err != NULL);
  if (err != NULL) {
    CheckRaisedError(err);
    TVMFFIObjectDecRef(err);
  }
  TVMFFIObjectDecRef(func);
}

/* ------------------------------------------------------------------------------------------
 * Type registry and data types
 * ------------------------------------------------------------------------------------------ */

static void TestTypeKeyToIndex(void) {
  TVMFFIByteArray known = ByteArrayOf("ffi.Function");
  TVMFFIByteArray unknown = ByteArrayOf("testing.NoSuchTypeKey");
  TVMFFIObjectHandle err = NULL;
  int32_t index = -1;
  TVM_FFI_TEST_CHECK(TVMFFITypeKeyToIndex(&known, &index) == 0);
  TVM_FFI_TEST_CHECK(index == kTVMFFIFunction);
  TVM_FFI_TEST_CHECK(TVMFFITypeKeyToIndex(&unknown, &index) == -1);
  TVMFFIErrorMoveFromRaised(&err);
  TVM_FFI_TEST_CHECK(err != NULL);
  if (err == NULL) return;
  PrintByteArray("unknown type key raised kind", &ErrorCellOf(err)->kind);
  TVM_FFI_TEST_CHECK(ByteArrayEquals(&ErrorCellOf(err)->kind, "RuntimeError") ||
                     ByteArrayEquals(&ErrorCellOf(err)->kind, "ValueError"));
  TVMFFIObjectDecRef(err);
}

static void CheckDataType(const char* name, int code, int bits, int lanes) {
  TVMFFIByteArray str = ByteArrayOf(name);
  DLDataType dtype;
  memset(&dtype, 0xff, sizeof(dtype));
  TVM_FFI_TEST_CHECK(TVMFFIDataTypeFromString(&str, &dtype) == 0);
  TVM_FFI_TEST_CHECK(dtype.code == code);
  TVM_FFI_TEST_CHECK(dtype.bits == bits);
  TVM_FFI_TEST_CHECK(dtype.lanes == lanes);
}

static void TestDataTypeFromString(void) {
  TVMFFIByteArray bad = ByteArrayOf("notatype");
  DLDataType dtype;
  CheckDataType("float32", kDLFloat, 32, 1);
  CheckDataType("int8x4", kDLInt, 8, 4);
  TVM_FFI_TEST_CHECK(TVMFFIDataTypeFromString(&bad, &dtype) == -1);
  ExpectRaised("ValueError", "");
}

int main(void) {
  TestAddOne();
  TestUnknownGlobal();
  TestAddOneWrongType();
  TestAddOneWrongArity();
  TestStringFromByteArray();
  TestBytesFromByteArray();
  TestViewToOwnedShort();
  TestViewToOwnedLong();
  TestSetRaisedFromCStr();
  TestRaiseErrorFromLibrary();
  TestTypeKeyToIndex();
  TestDataTypeFromString();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
