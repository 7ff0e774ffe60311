// SPDX-License-Identifier: Apache-2.0
// cxx_layout.h: the size and alignment of every C++ class that crosses a library boundary by
// value, is returned by an exported C++ function or is subclassed by clients. The numbers are
// measured on Apache TVM FFI 0.1.13.post2 and 0.1.15.post2 (g++, x86-64); the same file compiles
// against their headers and ours (test_module_compat.py, test_cxx_layout.cc).
#ifndef TVM_FFI_TESTS_COMPAT_CXX_LAYOUT_H_
#define TVM_FFI_TESTS_COMPAT_CXX_LAYOUT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstddef>
#include <cstdint>

namespace compat_layout {

using namespace tvm::ffi;  // NOLINT(build/namespaces)

template <typename T, size_t kSize, size_t kAlign = 8>
constexpr bool kHasLayout = sizeof(T) == kSize && alignof(T) == kAlign;

// Values held inline: two words.
static_assert(kHasLayout<String, 16>, "String");
static_assert(kHasLayout<Bytes, 16>, "Bytes");
static_assert(kHasLayout<Any, 16>, "Any");
static_assert(kHasLayout<AnyView, 16>, "AnyView");
static_assert(kHasLayout<Error, 16>, "Error");
static_assert(kHasLayout<TensorView, 48>, "TensorView");

// References: one pointer.
static_assert(kHasLayout<ObjectRef, 8>, "ObjectRef");
static_assert(kHasLayout<ObjectPtr<Object>, 8>, "ObjectPtr");
static_assert(kHasLayout<Function, 8>, "Function");
static_assert(kHasLayout<Array<Any>, 8>, "Array");
static_assert(kHasLayout<Map<Any, Any>, 8>, "Map");
static_assert(kHasLayout<Shape, 8>, "Shape");
static_assert(kHasLayout<Tensor, 8>, "Tensor");
static_assert(kHasLayout<Module, 8>, "Module");

// Optional: a null pointer for object references, an Any cell (None = nothing) for values that
// an Any holds, std::optional otherwise.
static_assert(kHasLayout<Optional<ObjectRef>, 8>, "Optional<ObjectRef>");
static_assert(kHasLayout<Optional<Function>, 8>, "Optional<Function>");
static_assert(kHasLayout<Optional<Array<Any>>, 8>, "Optional<Array>");
static_assert(kHasLayout<Optional<String>, 16>, "Optional<String>");
static_assert(kHasLayout<Optional<Bytes>, 16>, "Optional<Bytes>");
static_assert(kHasLayout<Optional<int>, 16>, "Optional<int>");
static_assert(kHasLayout<Optional<int64_t>, 16>, "Optional<int64_t>");
static_assert(kHasLayout<Optional<double>, 16>, "Optional<double>");
static_assert(kHasLayout<Optional<bool>, 16>, "Optional<bool>");
static_assert(kHasLayout<Optional<DLDataType>, 16>, "Optional<DLDataType>");
static_assert(kHasLayout<Optional<DLDevice>, 16>, "Optional<DLDevice>");
static_assert(kHasLayout<Optional<Any>, 24>, "Optional<Any>");

// ModuleObj: vtable pointer, object header, imports, import lookup cache (test_module.cc).
static_assert(kHasLayout<ModuleObj, 48>, "ModuleObj");

}  // namespace compat_layout

#endif  // TVM_FFI_TESTS_COMPAT_CXX_LAYOUT_H_
