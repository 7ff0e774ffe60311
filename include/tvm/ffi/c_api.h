/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file
 * \brief c_api.h: the stable TVM FFI C ABI (binary compatible with Apache TVM FFI 0.1.x).
 */
/*
 * Conventions used throughout this header:
 * - "SC" functions return 0 on success; on failure they store exactly one error object in the
 *   calling thread's error slot and return -1 (fetch it with TVMFFIErrorMoveFromRaised).
 * - "new reference": the caller receives a strong reference and must release it.
 *   "borrowed": the caller receives no reference and must not release it.
 * - Object handles point at the TVMFFIObject header; a type's payload starts at handle + 24.
 */
#ifndef TVM_FFI_C_API_H_
#define TVM_FFI_C_API_H_

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------------------------
 * Section 0: export macros and version
 * ------------------------------------------------------------------------------------------ */

/*! \brief Marks a definition that several libraries may each carry; the linker keeps one. */
#if defined(_MSC_VER)
#define TVM_FFI_WEAK __declspec(selectany)
#else
#define TVM_FFI_WEAK __attribute__((weak))
#endif

/*!
 * \brief Exports a runtime function from libtvm_ffi (imports it on Windows unless
 *        TVM_FFI_EXPORTS is defined); define it beforehand to override.
 */
#ifndef TVM_FFI_DLL
#if defined(_WIN32)
#ifdef TVM_FFI_EXPORTS
#define TVM_FFI_DLL __declspec(dllexport)
#else
#define TVM_FFI_DLL __declspec(dllimport)
#endif
#elif defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#define TVM_FFI_DLL EMSCRIPTEN_KEEPALIVE
#else
#define TVM_FFI_DLL __attribute__((visibility("default")))
#endif
#endif

/*! \brief Exports a symbol from the library being built (e.g. a module's functions). */
#ifndef TVM_FFI_DLL_EXPORT
#if defined(_WIN32)
#define TVM_FFI_DLL_EXPORT __declspec(dllexport)
#elif defined(__EMSCRIPTEN__)
#define TVM_FFI_DLL_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define TVM_FFI_DLL_EXPORT __attribute__((visibility("default")))
#endif
#endif

/*!
 * \brief Marks a function without side effects whose result depends only on its arguments
 *        and non-volatile memory (GCC/Clang pure).
 */
#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_ATTRIBUTE_PURE __attribute__((__pure__))
#else
#define TVM_FFI_ATTRIBUTE_PURE
#endif

/*! \brief Major version of the ABI; a change of the minor number in 0.X marks an ABI break. */
#define TVM_FFI_VERSION_MAJOR 0
/*! \brief Minor version of the ABI. */
#define TVM_FFI_VERSION_MINOR 1
/*! \brief Patch level: the ABI level of the reference headers this header matches. */
#define TVM_FFI_VERSION_PATCH 15
/*! \brief Release suffix of the package version ("" or ".postN"): the full version is
 * MAJOR.MINOR.PATCH followed by it (e.g. 0.1.15.post2, the Apache release this one matches). */
#define TVM_FFI_VERSION_SUFFIX ".post2"

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief A version triple (12 bytes, align 4). */
typedef struct {
  /*! \brief Major version number. */
  uint32_t major;
  /*! \brief Minor version number. */
  uint32_t minor;
  /*! \brief Patch version number. */
  uint32_t patch;
} TVMFFIVersion;

/* ------------------------------------------------------------------------------------------
 * Section 1: type indices
 * ------------------------------------------------------------------------------------------ */

/*!
 * \brief Type index of a value cell or object header (int32).
 * \note 0..63 are plain values stored in the cell; >= 64 are reference-counted objects.
 */
#ifdef __cplusplus
enum TVMFFITypeIndex : int32_t {
#else
typedef enum {
#endif
  /*! \brief Any type; used only in reflection metadata, never stored in a cell. */
  kTVMFFIAny = -1,
  /*! \brief The null value. */
  kTVMFFINone = 0,
  /*! \brief A 64-bit signed integer in v_int64. */
  kTVMFFIInt = 1,
  /*! \brief A boolean, stored as 0 or 1 in v_int64. */
  kTVMFFIBool = 2,
  /*! \brief A double in v_float64. */
  kTVMFFIFloat = 3,
  /*! \brief An untyped pointer in v_ptr, not owned. */
  kTVMFFIOpaquePtr = 4,
  /*! \brief A DLDataType held by value in v_dtype. */
  kTVMFFIDataType = 5,
  /*! \brief A DLDevice held by value in v_device. */
  kTVMFFIDevice = 6,
  /*! \brief A borrowed DLTensor pointer in v_ptr. */
  kTVMFFIDLTensorPtr = 7,
  /*! \brief A borrowed NUL-terminated C string in v_c_str (view cells only). */
  kTVMFFIRawStr = 8,
  /*! \brief A borrowed TVMFFIByteArray pointer in v_ptr (view cells only). */
  kTVMFFIByteArrayPtr = 9,
  /*! \brief The address of a movable object slot in v_ptr (view cells only). */
  kTVMFFIObjectRValueRef = 10,
  /*! \brief A string of at most 7 bytes stored inline in v_bytes. */
  kTVMFFISmallStr = 11,
  /*! \brief Bytes, at most 7 of them, stored inline in v_bytes. */
  kTVMFFISmallBytes = 12,
  /*! \brief Marker a structural mutator returns when it produced no new value. */
  kTVMFFIUnchanged = 13,
  /*! \brief First index of the reference-counted object types. */
  kTVMFFIStaticObjectBegin = 64,
  /*! \brief ffi.Object, the root of all object types. */
  kTVMFFIObject = 64,
  /*! \brief ffi.String: a string object (payload TVMFFIByteArray). */
  kTVMFFIStr = 65,
  /*! \brief ffi.Bytes: a bytes object (payload TVMFFIByteArray). */
  kTVMFFIBytes = 66,
  /*! \brief ffi.Error: an error object (payload TVMFFIErrorCell). */
  kTVMFFIError = 67,
  /*! \brief ffi.Function: a callable object (payload TVMFFIFunctionCell). */
  kTVMFFIFunction = 68,
  /*! \brief ffi.Shape: an immutable int64 shape (payload TVMFFIShapeCell). */
  kTVMFFIShape = 69,
  /*! \brief ffi.Tensor: an n-dimensional array (payload DLTensor). */
  kTVMFFITensor = 70,
  /*! \brief ffi.Array: an immutable, copy-on-write sequence (payload TVMFFISeqCell). */
  kTVMFFIArray = 71,
  /*! \brief ffi.Map: an immutable, copy-on-write hash map. */
  kTVMFFIMap = 72,
  /*! \brief ffi.Module: a loaded library or other collection of functions. */
  kTVMFFIModule = 73,
  /*! \brief ffi.OpaquePyObject: a foreign object (payload TVMFFIOpaqueObjectCell). */
  kTVMFFIOpaquePyObject = 74,
  /*! \brief ffi.List: a mutable sequence (payload TVMFFISeqCell). */
  kTVMFFIList = 75,
  /*! \brief ffi.Dict: a mutable hash map. */
  kTVMFFIDict = 76,
  /*! \brief ffi.VisitInterrupt: stops a structural visit, carrying an owning cell. */
  kTVMFFIVisitInterrupt = 77,
  /*!
   * \brief Integer outside the int64 range (payload TVMFFIBigIntCell). Values that fit in
   *        int64 are always Int cells, never BigInt objects.
   */
  kTVMFFIBigInt = 78,
  /*! \brief One past the last static object index; its value changes between versions. */
  kTVMFFIStaticObjectEnd,
  /*! \brief First index handed out to types registered at run time. */
  kTVMFFIDynObjectBegin = 128
#ifdef __cplusplus
};
#else
} TVMFFITypeIndex;
#endif

/* ------------------------------------------------------------------------------------------
 * Section 2: objects and value cells
 * ------------------------------------------------------------------------------------------ */

/*! \brief Handle to an object: a pointer to its TVMFFIObject header. */
typedef void* TVMFFIObjectHandle;

/*! \brief Flags passed to an object's deleter. */
#ifdef __cplusplus
enum TVMFFIObjectDeleterFlagBitMask : int32_t {
#else
typedef enum {
#endif
  /*! \brief The strong count reached zero: run the destructor. */
  kTVMFFIObjectDeleterFlagBitMaskStrong = 1 << 0,
  /*! \brief The weak count reached zero: release the storage. */
  kTVMFFIObjectDeleterFlagBitMaskWeak = 1 << 1,
  /*! \brief Both at once (the last reference of either kind went away). */
  kTVMFFIObjectDeleterFlagBitMaskBoth = (1 << 0) | (1 << 1)
#ifdef __cplusplus
};
#else
} TVMFFIObjectDeleterFlagBitMask;
#endif

/*!
 * \brief The 24-byte header every object starts with.
 * \note combined_ref_count holds the strong count in bits 0-31 and the weak count in bits
 *       32-63. A new object starts at 0x1_0000_0001. Clients update it inline with 64-bit
 *       atomics; the deleter belongs to whoever allocated the object.
 */
typedef struct {
  /*! \brief Strong count (low 32 bits) and weak count (high 32 bits). */
  uint64_t combined_ref_count;
  /*! \brief Type index of the object, always >= 64. */
  int32_t type_index;
  /*! \brief Always zero. */
  uint32_t __padding;
  union {
    /*! \brief Called with TVMFFIObjectDeleterFlagBitMask flags; NULL means never freed. */
    void (*deleter)(void* self, int flags);
    /*! \brief Keeps the union, and so the header, 8-byte aligned. */
    int64_t __ensure_align;
  };
} TVMFFIObject;

/*!
 * \brief The 16-byte tagged value cell used for every argument, result and container element.
 * \note A view cell (AnyView) holds no reference. An owning cell (Any) holds one strong
 *       reference when type_index >= 64 and never carries RawStr, ByteArrayPtr or RValueRef.
 */
typedef struct {
  /*! \brief Type index of the value (see TVMFFITypeIndex). */
  int32_t type_index;
  union {
    /*! \brief Must be zero for every type other than SmallStr/SmallBytes. */
    uint32_t zero_padding;
    /*! \brief Inline length (0..7) for SmallStr and SmallBytes. */
    uint32_t small_str_len;
  };
  union {
    /*! \brief Int and Bool values. */
    int64_t v_int64;
    /*! \brief Float values. */
    double v_float64;
    /*! \brief OpaquePtr, DLTensorPtr, ByteArrayPtr and ObjectRValueRef values. */
    void* v_ptr;
    /*! \brief RawStr values. */
    const char* v_c_str;
    /*! \brief Objects (type_index >= 64). */
    TVMFFIObject* v_obj;
    /*! \brief DataType values. */
    DLDataType v_dtype;
    /*! \brief Device values. */
    DLDevice v_device;
    /*! \brief SmallStr and SmallBytes contents (small_str_len of them are used). */
    char v_bytes[8];
    /*! \brief The raw 8 bytes, e.g. to clear or compare the whole payload. */
    uint64_t v_uint64;
  };
} TVMFFIAny;

/*! \brief A borrowed run of bytes; not NUL-terminated in general. */
typedef struct {
  /*! \brief First byte (may be NULL when size is 0). */
  const char* data;
  /*! \brief Number of bytes. */
  size_t size;
} TVMFFIByteArray;

/*! \brief Payload of a Shape object (at handle + 24). */
typedef struct {
  /*! \brief The dimensions, size of them. */
  const int64_t* data;
  /*! \brief Number of dimensions. */
  size_t size;
} TVMFFIShapeCell;

/*!
 * \brief Payload of a BigInt object (at handle + 24); size int64 words follow it (at + 32).
 * \note The words are a two's-complement integer, least-significant word first, each word in
 *       native byte order. They are minimal: no redundant sign-extension word (a sign-guard
 *       word is kept when the top bit of the last word would otherwise flip the sign), and
 *       size >= 2 because values that fit in int64 are Int cells.
 */
typedef struct {
  /*! \brief Number of int64 words that follow the cell (at least 2). */
  size_t size;
} TVMFFIBigIntCell;

/*! \brief How TVMFFIErrorCell::update_backtrace combines the new text. */
#ifdef __cplusplus
enum TVMFFIBacktraceUpdateMode : int32_t {
#else
typedef enum {
#endif
  /*! \brief The new text replaces the backtrace. */
  kTVMFFIBacktraceUpdateModeReplace = 0,
  /*! \brief The new text is appended to the backtrace. */
  kTVMFFIBacktraceUpdateModeAppend = 1
#ifdef __cplusplus
};
#else
} TVMFFIBacktraceUpdateMode;
#endif

/*!
 * \brief Payload of an Error object (at handle + 24); 72 bytes since 0.1.8.
 * \note Errors made by libraries built with headers before 0.1.8 only have the first 56 bytes,
 *       so cause_chain and extra_context are only read from errors this runtime created.
 */
typedef struct {
  /*! \brief Error kind, named after the Python exception (e.g. "ValueError"). */
  TVMFFIByteArray kind;
  /*! \brief The message. */
  TVMFFIByteArray message;
  /*! \brief Frames, most recent first, one "  File ..., line N, in f\n" per line. */
  TVMFFIByteArray backtrace;
  /*! \brief Replaces or appends to the backtrace (mode is a TVMFFIBacktraceUpdateMode). */
  void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                           int32_t update_mode);
  /*! \brief Owned: the error that caused this one, or NULL. */
  TVMFFIObjectHandle cause_chain;
  /*! \brief Owned: extra context object, or NULL. */
  TVMFFIObjectHandle extra_context;
} TVMFFIErrorCell;

/*!
 * \brief The packed calling convention.
 * \param handle The function handle, the self pointer given at creation, or NULL for library
 *        exports called through a module.
 * \param args num_args borrowed view cells; the callee must not release them.
 * \param result Initialised to None by the caller; on success it holds an owning cell.
 * \return 0 on success, -1 with an error in the thread's slot. Headers before 0.1.9 may also
 *         return -2 (an error is pending in the frontend; nothing is in the slot).
 */
typedef int (*TVMFFISafeCallType)(void* handle, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result);

/*!
 * \brief Payload of a Function object (at handle + 24).
 * \note cpp_call is NULL for every function this runtime and its headers create.
 */
typedef struct {
  /*! \brief The packed implementation every caller may use. */
  TVMFFISafeCallType safe_call;
  /*! \brief Optional C++-convention entry that compiled C++ calls instead; usually NULL. */
  void* cpp_call;
} TVMFFIFunctionCell;

/*! \brief Payload of an OpaquePyObject (at handle + 24): the foreign object pointer. */
typedef struct {
  /*! \brief The foreign object (e.g. a PyObject*), released by the object's deleter. */
  void* handle;
} TVMFFIOpaqueObjectCell;

/*!
 * \brief Payload of Array and List objects (at handle + 24).
 * \note data points to capacity owning cells, the first size of which are live.
 */
typedef struct TVMFFISeqCell {
  /*! \brief The element cells. */
  void* data;
  /*! \brief Number of live elements. */
  int64_t size;
  /*! \brief Number of cells data has room for. */
  int64_t capacity;
  /*! \brief Frees data; NULL when the cells live inside the object (Array). */
  void (*data_deleter)(void*);
} TVMFFISeqCell;

/*! \brief Header stored in the 8 bytes before a body made by a TVMFFICustomAllocator. */
typedef struct {
  /*! \brief Reclaims the whole block, given the body pointer. */
  void (*delete_space)(void* ptr);
} TVMFFIObjectAllocHeader;

/*!
 * \brief A process-wide object allocator hook (used by libraries built with 0.1.13 headers).
 * \note allocate returns the body; the 8 bytes before it hold a TVMFFIObjectAllocHeader.
 *       On failure it raises the error (TVMFFIErrorSetRaised; the built-in allocator raises
 *       MemoryError when out of memory) and returns NULL.
 */
typedef struct {
  /*! \brief Returns an uninitialised body of size bytes, aligned, for an object of type_index. */
  void* (*allocate)(size_t size, size_t alignment, int32_t type_index, void* context);
  /*! \brief Passed back unchanged to every allocate call. */
  void* context;
} TVMFFICustomAllocator;

/* ------------------------------------------------------------------------------------------
 * Section 3: reflection records
 * ------------------------------------------------------------------------------------------ */

/*! \brief Flags of fields, methods and global functions (stored in an int64). */
#ifdef __cplusplus
enum TVMFFIFieldFlagBitMask : int32_t {
#else
typedef enum {
#endif
  /*! \brief The field can be set after construction. */
  kTVMFFIFieldFlagBitMaskWritable = 1 << 0,
  /*! \brief default_value_or_factory holds the field's default. */
  kTVMFFIFieldFlagBitMaskHasDefault = 1 << 1,
  /*! \brief A method (or global function) takes no self argument. */
  kTVMFFIFieldFlagBitMaskIsStaticMethod = 1 << 2,
  /*! \brief Structural equality and hashing skip the field. */
  kTVMFFIFieldFlagBitMaskSEqHashIgnore = 1 << 3,
  /*! \brief Definition region: free variables in it, and in their fields, are definitions. */
  kTVMFFIFieldFlagBitMaskSEqHashDefRecursive = 1 << 4,
  /*! \brief The default is a Function called with no arguments for each new object. */
  kTVMFFIFieldFlagBitMaskDefaultFromFactory = 1 << 5,
  /*! \brief repr() leaves the field out. */
  kTVMFFIFieldFlagBitMaskReprOff = 1 << 6,
  /*! \brief Generated comparisons leave the field out. */
  kTVMFFIFieldFlagBitMaskCompareOff = 1 << 7,
  /*! \brief Generated hashing leaves the field out. */
  kTVMFFIFieldFlagBitMaskHashOff = 1 << 8,
  /*! \brief The generated constructor takes no argument for the field. */
  kTVMFFIFieldFlagBitMaskInitOff = 1 << 9,
  /*! \brief The generated constructor takes the field as a keyword argument only. */
  kTVMFFIFieldFlagBitMaskKwOnly = 1 << 10,
  /*! \brief setter is a Function called with (field address as OpaquePtr, value). */
  kTVMFFIFieldFlagBitSetterIsFunctionObj = 1 << 11,
  /*! \brief Definition region: free variables in it are definitions; their fields are uses. */
  kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive = 1 << 12,
  /*! \brief Spelling of bit 4 used by headers before 0.1.12. */
  kTVMFFIFieldFlagBitMaskSEqHashDef = 1 << 4,
  /*! \brief Spelling of bit 4 since 0.1.15 (see SEqHashDefRecursive). */
  kTVMFFIFieldFlagBitMaskSEqHashDefPattern = 1 << 4,
  /*! \brief Spelling of bit 12 since 0.1.15 (see SEqHashDefNonRecursive). */
  kTVMFFIFieldFlagBitMaskSEqHashDefSimple = 1 << 12
#ifdef __cplusplus
};
#else
} TVMFFIFieldFlagBitMask;
#endif

/*! \brief How a type takes part in structural equality and hashing. */
#ifdef __cplusplus
enum TVMFFISEqHashKind : int32_t {
#else
typedef enum {
#endif
  /*! \brief Structural equality and hashing of the type fail with TypeError. */
  kTVMFFISEqHashKindUnsupported = 0,
  /*! \brief Compared and hashed by its fields, with no identity of its own. */
  kTVMFFISEqHashKindTreeNode = 1,
  /*! \brief A variable: equal to another only where a definition region binds the two. */
  kTVMFFISEqHashKindFreeVar = 2,
  /*! \brief Compared by fields, and once matched, bound to its partner (sharing must agree). */
  kTVMFFISEqHashKindDAGNode = 3,
  /*! \brief A tree node whose identical instances are equal without looking at the fields. */
  kTVMFFISEqHashKindConstTreeNode = 4,
  /*! \brief Equal only to the very same instance. */
  kTVMFFISEqHashKindUniqueInstance = 5
#ifdef __cplusplus
};
#else
} TVMFFISEqHashKind;
#endif

/*! \brief Definition-region kind used by structural visitors (since 0.1.12). */
#ifdef __cplusplus
enum TVMFFIDefRegionKind : int32_t {
#else
typedef enum {
#endif
  /*! \brief Not a definition region: free variables are uses. */
  kTVMFFIDefRegionKindNone = 0,
  /*! \brief Free variables met in the region, and in their fields, are definitions. */
  kTVMFFIDefRegionKindRecursive = 1,
  /*! \brief Free variables met in the region are definitions; their own fields are uses. */
  kTVMFFIDefRegionKindNonRecursive = 2,
  /*! \brief Spelling of Recursive since 0.1.15. */
  kTVMFFIDefRegionKindPattern = 1,
  /*! \brief Spelling of NonRecursive since 0.1.15. */
  kTVMFFIDefRegionKindSimple = 2
#ifdef __cplusplus
};
#else
} TVMFFIDefRegionKind;
#endif

/*! \brief Reads a field at field_addr into result (an owning cell); returns 0 or -1. */
typedef int (*TVMFFIFieldGetter)(void* field_addr, TVMFFIAny* result);
/*! \brief Writes the view cell value into the field at field_addr; returns 0 or -1. */
typedef int (*TVMFFIFieldSetter)(void* field_addr, const TVMFFIAny* value);
/*! \brief Creates a default-constructed object (new reference); returns 0 or -1. */
typedef int (*TVMFFIObjectCreator)(TVMFFIObjectHandle* result);

/*! \brief A reflected field of an object type (120 bytes). */
typedef struct {
  /*! \brief Field name. */
  TVMFFIByteArray name;
  /*! \brief Docstring, or empty. */
  TVMFFIByteArray doc;
  /*! \brief JSON metadata. */
  TVMFFIByteArray metadata;
  /*! \brief TVMFFIFieldFlagBitMask bits. */
  int64_t flags;
  /*! \brief Size of the field in bytes. */
  int64_t size;
  /*! \brief Alignment of the field in bytes. */
  int64_t alignment;
  /*! \brief Byte offset of the field from the object handle (the header). */
  int64_t offset;
  /*! \brief Reads the field. */
  TVMFFIFieldGetter getter;
  /*! \brief A TVMFFIFieldSetter, or a Function handle when kTVMFFIFieldFlagBitSetterIsFunctionObj.
   */
  void* setter;
  /*! \brief Default value, or a no-argument Function when DefaultFromFactory is set. */
  TVMFFIAny default_value_or_factory;
  /*! \brief Static type index of the field's C++ type (kTVMFFIAny when it is not fixed). */
  int32_t field_static_type_index;
} TVMFFIFieldInfo;

/*! \brief A reflected method or global function (72 bytes). */
typedef struct {
  /*! \brief Method or function name. */
  TVMFFIByteArray name;
  /*! \brief Docstring, or empty. */
  TVMFFIByteArray doc;
  /*! \brief JSON metadata (usually with a "type_schema" entry). */
  TVMFFIByteArray metadata;
  /*! \brief TVMFFIFieldFlagBitMask bits (IsStaticMethod for static methods). */
  int64_t flags;
  /*! \brief A view cell holding a Function; instance methods take self first. */
  TVMFFIAny method;
} TVMFFIMethodInfo;

/*! \brief Extra per-type information (32 bytes). */
typedef struct {
  /*! \brief Docstring of the type, or empty. */
  TVMFFIByteArray doc;
  /*! \brief Default constructor, or NULL. */
  TVMFFIObjectCreator creator;
  /*! \brief sizeof the C++ object, or 0 when unknown. */
  int32_t total_size;
  /*! \brief How the type takes part in structural equality and hashing. */
  TVMFFISEqHashKind structural_eq_hash_kind;
} TVMFFITypeMetadata;

/*!
 * \brief One attribute column over all types (16 bytes).
 * \note The row of type t is data[t - begin_index] when begin_index <= t < begin_index + size,
 *       otherwise None. The column's address never changes; data and size may.
 */
typedef struct {
  /*! \brief Rows from begin_index on, as owning cells. */
  const TVMFFIAny* data;
  /*! \brief Number of rows in data. */
  int32_t size;
  /*! \brief Type index of data[0] (kept at 0, as upstream does). */
  int32_t begin_index;
} TVMFFITypeAttrColumn;

/*!
 * \brief The registry record of one type (72 bytes); its address is stable for the process.
 * \note type_ancestors[d] for d < type_depth is the ancestor at depth d ([0] is ffi.Object).
 *       fields and methods may move when more are registered: read them fresh each time.
 */
typedef struct TVMFFITypeInfo {
  /*! \brief Type index of the type. */
  int32_t type_index;
  /*! \brief Number of ancestors (0 for ffi.Object). */
  int32_t type_depth;
  /*! \brief Unique registered name, such as "ffi.Array". */
  TVMFFIByteArray type_key;
  /*! \brief type_depth ancestors, root first. */
  const struct TVMFFITypeInfo** type_ancestors;
  /*! \brief std::hash<std::string_view> of the key (libstdc++). */
  uint64_t type_key_hash;
  /*! \brief Number of entries in fields. */
  int32_t num_fields;
  /*! \brief Number of entries in methods. */
  int32_t num_methods;
  /*! \brief The type's own reflected fields (not inherited ones). */
  const TVMFFIFieldInfo* fields;
  /*! \brief The type's own reflected methods. */
  const TVMFFIMethodInfo* methods;
  /*! \brief NULL until TVMFFITypeRegisterMetadata is called. */
  const TVMFFITypeMetadata* metadata;
} TVMFFITypeInfo;

/* ------------------------------------------------------------------------------------------
 * Section 4: versions, objects and allocation
 * ------------------------------------------------------------------------------------------ */

/*!
 * \brief Reports the runtime's own version.
 * \param out_version Written with the runtime's major, minor and patch numbers.
 * \note Cannot fail; thread safe.
 */
TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version);

/*!
 * \brief Adds one strong reference (relaxed atomic add on combined_ref_count).
 * \param obj A non-NULL object handle.
 * \return 0. Thread safe.
 */
TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj);

/*!
 * \brief Drops one strong reference, calling the deleter per the counting protocol.
 * \param obj An object handle; NULL is ignored.
 * \return 0. Thread safe.
 */
TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj);

/*!
 * \brief Wraps a foreign pointer (e.g. a PyObject*) in an OpaquePyObject.
 * \param handle The foreign pointer stored in the object's cell.
 * \param type_index Must be kTVMFFIOpaquePyObject; anything else fails with RuntimeError.
 * \param deleter Called with handle when the object dies, unless NULL.
 * \param out New reference.
 * \return 0 or -1 (SC).
 */
TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out);

/*!
 * \brief The allocator currently installed for the process, or the built-in one.
 * \return Never NULL. The built-in allocator places a 16-byte prefix before each body.
 */
TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void);

/*!
 * \brief Installs a process-wide allocator; NULL restores the built-in one.
 * \param allocator Must stay valid for the life of the process.
 * \return 0 (SC). Not synchronised with other threads.
 */
TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator);

/* ------------------------------------------------------------------------------------------
 * Section 5: functions and the global registry
 * ------------------------------------------------------------------------------------------ */

/*!
 * \brief Creates a Function object from a C safe-call.
 * \param self Passed to safe_call in place of the function handle when self or deleter is set.
 * \param safe_call The implementation; NULL fails with ValueError (and deleter is not called).
 * \param deleter Called with self when the function dies, unless NULL.
 * \param out New reference; its cpp_call is NULL.
 * \return 0 or -1 (SC).
 */
TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out);

/*!
 * \brief Converts a view cell to an owning cell (strings and bytes are copied, rvalue
 *        references moved, objects gain a reference).
 * \param any_view The source view cell.
 * \param out Overwritten without releasing what it held.
 * \return 0 or -1 (SC); moving from an empty rvalue slot is an error.
 */
TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out);

/*!
 * \brief Calls a function object: returns safe_call(func, args, num_args, result).
 * \param func Function handle (borrowed).
 * \param args Borrowed view cells, treated as const.
 * \param result Initialised to None by the caller; an owning cell on success.
 * \return The callee's return code (0, -1, or legacy -2).
 */
TVM_FFI_DLL int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result);

/*!
 * \brief Registers a global function.
 * \param name The name.
 * \param f Function handle (borrowed; the registry takes its own reference).
 * \param allow_override When 0, an existing name fails with RuntimeError.
 * \return 0 or -1 (SC). Thread safe.
 */
TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override);

/*!
 * \brief Registers a global function with its name, doc, metadata and flags.
 * \param method_info method_info->method must hold a Function; everything is copied.
 * \param allow_override When 0, an existing name fails with RuntimeError.
 * \return 0 or -1 (SC). Thread safe.
 */
TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override);

/*!
 * \brief Looks up a global function.
 * \param name The name.
 * \param out New reference, or NULL when the name is not registered.
 * \return 0 in both cases; -1 only on internal failure. Thread safe.
 */
TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out);

/* ------------------------------------------------------------------------------------------
 * Section 6: errors
 * ------------------------------------------------------------------------------------------ */

/*!
 * \brief Takes the error waiting in this thread's slot and empties the slot.
 * \param result New reference, or NULL when no error is waiting.
 */
TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result);

/*!
 * \brief Stores an error in this thread's slot, releasing any previous one.
 * \param error Borrowed: the slot takes its own reference; the caller keeps its reference.
 */
TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error);

/*!
 * \brief Creates an error with the current backtrace and stores it in this thread's slot.
 * \param kind Error kind (e.g. "ValueError").
 * \param message The message.
 */
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message);

/*!
 * \brief Like TVMFFIErrorSetRaisedFromCStr with the message given as parts.
 * \param message_parts num_parts strings concatenated in order; NULL parts are skipped.
 */
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                                   int32_t num_parts);

/*!
 * \brief Creates an error object (strong 1, weak 1, no cause, no extra context).
 * \param kind, message, backtrace Non-NULL; their bytes are copied.
 * \param out New reference.
 * \return 0, or -1 when out of memory; in that case nothing is stored in the error slot.
 */
TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out);

/*!
 * \brief Like TVMFFIErrorCreate, also setting the cause chain and extra context.
 * \param cause_chain, extra_context Borrowed, may be NULL; the error takes its own references.
 */
TVM_FFI_DLL int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out);

/* ------------------------------------------------------------------------------------------
 * Section 7: tensors (DLPack)
 * ------------------------------------------------------------------------------------------ */

/*!
 * \brief Wraps a legacy DLPack tensor as a Tensor object that owns it.
 * \param from On success owned by the result; on failure still owned by the caller.
 * \param require_alignment Required byte alignment of the data, or 0.
 * \param require_contiguous Nonzero to reject non-contiguous tensors.
 * \param out New reference; NULL strides are filled in.
 * \return 0 or -1 (SC, RuntimeError on a failed check).
 */
TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out);

/*! \brief Versioned form of TVMFFITensorFromDLPack; rejects the sub-byte-padded flag. */
TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out);

/*!
 * \brief Exports a Tensor as a new legacy DLPack capsule holding one reference to it.
 * \param from Tensor handle (borrowed). \param out New capsule; its deleter frees it.
 */
TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out);

/*! \brief Versioned form of TVMFFITensorToDLPack (flags 0, the runtime's DLPack version). */
TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out);

/*!
 * \brief Creates a Tensor viewing the data of source, described by prototype.
 * \param source Kept alive by the result. \param prototype strides must not be NULL.
 * \param out New reference with its own copy of shape and strides. Bounds are not checked.
 */
TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out);

/* ------------------------------------------------------------------------------------------
 * Section 8: strings, bytes and data types
 * ------------------------------------------------------------------------------------------ */

/*!
 * \brief Makes an owning string cell: SmallStr when at most 7 bytes, otherwise a Str object.
 * \param input The bytes (copied). \param out Overwritten with the new owning cell.
 * \return 0 or -1 (SC).
 */
TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);

/*! \brief Same as TVMFFIStringFromByteArray for bytes (SmallBytes or a Bytes object). */
TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);

/*!
 * \brief Makes an owning integer cell from its words (copied and normalised).
 * \param input Whole int64 words, least-significant first, native byte order, two's complement;
 *        redundant sign-extension words are allowed and no bytes at all mean zero.
 * \param out Overwritten with an Int cell when the value fits in int64, else a BigInt object.
 * \return 0 or -1 (SC, ValueError when the size is not a multiple of 8).
 */
TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);

/*!
 * \brief Borrowed view of the words of an Int cell or BigInt object, in the same format.
 * \return size is a multiple of 8: 8 for an Int cell (pointing at its v_int64) and 8 * words
 *         for a BigInt; {NULL, 0} for any other cell. Valid while the value lives unchanged.
 */
TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value);

/*!
 * \brief Parses a data type name such as "float32", "int8x4" or "bfloat16".
 * \return 0 or -1 (SC, ValueError on malformed input).
 */
TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out);

/*!
 * \brief Prints a data type as its canonical name.
 * \param out Overwritten with an owning string cell (a Str object).
 * \return 0 or -1 (SC).
 */
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out);

/* ------------------------------------------------------------------------------------------
 * Section 9: type registry and reflection
 * ------------------------------------------------------------------------------------------ */

/*!
 * \brief Looks up the index of a registered type key.
 * \return 0 or -1 (SC); an unknown key is an error.
 */
TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex);

/*!
 * \brief Returns the index of type_key, registering it first if needed.
 * \param static_type_index >= 0 registers at exactly that index; -1 allocates dynamically.
 * \param type_depth Depth of the type (parent depth + 1; 0 for roots).
 * \param num_child_slots Indices reserved after this type for its descendants.
 * \param child_slots_can_overflow Whether descendants may spill past the reserved range.
 * \param parent_type_index Parent index; -1 for roots; -2 queries without registering.
 * \return The index, or -2 for an unregistered key in query mode. Aborts on invalid requests.
 * \note Thread safe.
 */
TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t type_depth,
                                              int32_t num_child_slots,
                                              int32_t child_slots_can_overflow,
                                              int32_t parent_type_index);

/*!
 * \brief The registry record of a type. Aborts on an unknown index.
 * \return Borrowed pointer, stable for the life of the process.
 */
TVM_FFI_DLL TVM_FFI_ATTRIBUTE_PURE const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index);

/*!
 * \brief Appends a field to a type; name, doc, metadata and default are copied.
 * \return 0 or -1 (SC); a name the type already has is an error.
 */
TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info);

/*! \brief Appends a method to a type; everything is copied. \return 0 or -1 (SC). */
TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info);

/*! \brief Sets a type's metadata, once per type. \return 0 or -1 (SC). */
TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata);

/*!
 * \brief Stores a copy of attr_value in column attr_name at row type_index.
 * \param type_index 0 (None) only makes sure the column exists.
 * \return 0 or -1 (SC); setting the same (column, type) twice is an error.
 */
TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value);

/*!
 * \brief An attribute column by name.
 * \return Borrowed pointer stable for the process, or NULL if the column was never created.
 */
TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name);

/* ------------------------------------------------------------------------------------------
 * Section 10: backtraces and init-once handles
 * ------------------------------------------------------------------------------------------ */

/*!
 * \brief The current C++ backtrace, most recent frame first.
 * \param filename, lineno, func When filename and func are non-NULL this location is the
 *        first line.
 * \param cross_ffi_boundary Nonzero to keep unwinding past the FFI boundary.
 * \return Borrowed thread-local text valid until the next call on this thread. The
 *         TVM_TRACEBACK_LIMIT environment variable caps the frames (default 512).
 */
TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno,
                                                   const char* func, int cross_ffi_boundary);

/*!
 * \brief Initialises *handle_addr once per process.
 * \param init_func Called under a process-wide mutex when *handle_addr is NULL.
 * \return 0, init_func's nonzero result, or -1 (RuntimeError) if it produced NULL.
 */
TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result));

/*!
 * \brief Atomically clears *handle_addr and deinitialises the old value if there was one.
 * \return deinit_func's result, or 0 when the handle was already NULL.
 */
TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle));

#ifdef __cplusplus
}  // extern "C"

/* ------------------------------------------------------------------------------------------
 * Inline accessors of object payloads (C++ only; pure address arithmetic over the layouts
 * above, so a binding without C++ can compute the same addresses itself)
 * ------------------------------------------------------------------------------------------ */

/*! \brief The type index in an object's header. */
inline int32_t TVMFFIObjectGetTypeIndex(TVMFFIObjectHandle obj) {
  return static_cast<const TVMFFIObject*>(obj)->type_index;
}

/*! \brief The bytes held inline by a SmallStr or SmallBytes cell. */
inline TVMFFIByteArray TVMFFISmallBytesGetContentByteArray(const TVMFFIAny* value) {
  return TVMFFIByteArray{value->v_bytes, static_cast<size_t>(value->small_str_len)};
}

/*! \brief The payload of an object, right after its 24-byte header. */
template <typename TCell>
inline TCell* TVMFFIObjectPayloadPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}

/*! \brief The byte array of a Str or Bytes object. */
inline TVMFFIByteArray* TVMFFIBytesGetByteArrayPtr(TVMFFIObjectHandle obj) {
  return TVMFFIObjectPayloadPtr<TVMFFIByteArray>(obj);
}

/*! \brief The cell of an Error object. */
inline TVMFFIErrorCell* TVMFFIErrorGetCellPtr(TVMFFIObjectHandle obj) {
  return TVMFFIObjectPayloadPtr<TVMFFIErrorCell>(obj);
}

/*! \brief The cell of a Function object. */
inline TVMFFIFunctionCell* TVMFFIFunctionGetCellPtr(TVMFFIObjectHandle obj) {
  return TVMFFIObjectPayloadPtr<TVMFFIFunctionCell>(obj);
}

/*! \brief The cell of an OpaquePyObject (or other opaque) object. */
inline TVMFFIOpaqueObjectCell* TVMFFIOpaqueObjectGetCellPtr(TVMFFIObjectHandle obj) {
  return TVMFFIObjectPayloadPtr<TVMFFIOpaqueObjectCell>(obj);
}

/*! \brief The cell of a Shape object. */
inline TVMFFIShapeCell* TVMFFIShapeGetCellPtr(TVMFFIObjectHandle obj) {
  return TVMFFIObjectPayloadPtr<TVMFFIShapeCell>(obj);
}

/*! \brief The DLTensor of a Tensor object. */
inline DLTensor* TVMFFITensorGetDLTensorPtr(TVMFFIObjectHandle obj) {
  return TVMFFIObjectPayloadPtr<DLTensor>(obj);
}

/*! \brief A DLDevice from its two integers. */
inline DLDevice TVMFFIDLDeviceFromIntPair(int32_t device_type, int32_t device_id) {
  return DLDevice{static_cast<DLDeviceType>(device_type), device_id};
}
#endif  // __cplusplus
#endif  // TVM_FFI_C_API_H_
