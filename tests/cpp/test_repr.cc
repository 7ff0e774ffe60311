// SPDX-License-Identifier: Apache-2.0
// test_repr.cc: the exact formats of ffi.ReprPrint, hooks and cycles.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
#include <ucontext.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_repr_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;

std::string Repr(const AnyView& value) {
  return std::string(Function::GetGlobalRequired("ffi.ReprPrint")(value).cast<String>());
}

/// An object printed by its own __ffi_repr__ hook.
class HookedObj : public Object {
 public:
  Any inner;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.repr.Hooked", HookedObj, Object);
};

/// An object whose only field is hidden from repr.
class HiddenObj : public Object {
 public:
  int64_t secret = 3;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.repr.Hidden", HiddenObj, Object);
};

/// An enum with the member Red (printed as key.name).
class ColorObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.repr.Color", ColorObj, EnumObj);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<HiddenObj>().def_ro("secret", &HiddenObj::secret, refl::repr(false));
  refl::EnumDef<ColorObj>("Red");
  refl::TypeAttrDef<HookedObj>().def(
      refl::type_attr::kRepr, [](const HookedObj* self, Function printer) -> String {
        return "Hooked<" + std::string(printer(self->inner).cast<String>()) + ">";
      });
}

TEST(Repr, Scalars) {
  EXPECT_EQ(Repr(nullptr), "None");
  EXPECT_EQ(Repr(true), "True");
  EXPECT_EQ(Repr(false), "False");
  EXPECT_EQ(Repr(-42), "-42");
  EXPECT_EQ(Repr(static_cast<void*>(nullptr)), "void*");
}

TEST(Repr, FloatsUseShortestForm) {
  EXPECT_EQ(Repr(10.0), "10");
  EXPECT_EQ(Repr(0.1), "0.1");
  EXPECT_EQ(Repr(1e20), "1e+20");
  EXPECT_EQ(Repr(-0.0), "-0");
  EXPECT_EQ(Repr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(Repr(std::nan("")), "nan");
  EXPECT_EQ(Repr(1.0 / 3), "0.3333333333333333");
}

TEST(Repr, StringsAndBytes) {
  EXPECT_EQ(Repr("hi"), "\"hi\"");
  EXPECT_EQ(Repr(String("a \"quoted\" \\ string")), "\"a \\\"quoted\\\" \\\\ string\"");
  EXPECT_EQ(Repr(Bytes("by", 2)), "b\"by\"");
  EXPECT_EQ(Repr(Bytes("a\x01\"long bytes", 13)), "b\"a\\x01\\\"long bytes\"");
}

TEST(Repr, DeviceAndDataType) {
  EXPECT_EQ(Repr(DLDevice{kDLCUDA, 1}), "cuda:1");
  EXPECT_EQ(Repr(DLDevice{kDLCPU, 0}), "cpu:0");
  EXPECT_EQ(Repr(DLDevice{kDLCUDAManaged, 2}), "cuda_managed:2");
  EXPECT_EQ(Repr(DLDataType{kDLInt, 8, 1}), "int8");
  EXPECT_EQ(Repr(DLDataType{kDLFloat, 32, 4}), "float32x4");
}

TEST(Repr, TensorFromDLTensor) {
  int64_t shape[2] = {2, 3};
  DLTensor tensor{};
  tensor.device = DLDevice{kDLCPU, 0};
  tensor.ndim = 2;
  tensor.dtype = DLDataType{kDLFloat, 32, 1};
  tensor.shape = shape;
  EXPECT_EQ(Repr(&tensor), "float32[2, 3]@cpu:0");
}

TEST(Repr, Sequences) {
  EXPECT_EQ(Repr(Array<Any>{1, 2, 3}), "(1, 2, 3)");
  EXPECT_EQ(Repr(Array<Any>{String("x")}), "(\"x\",)");
  EXPECT_EQ(Repr(Array<Any>{}), "()");
  EXPECT_EQ(Repr(List<Any>{1, 2}), "[1, 2]");
  EXPECT_EQ(Repr(Shape({1, 2})), "Shape(1, 2)");
}

TEST(Repr, Mappings) {
  Map<Any, Any> mp{{String("a"), 1}, {2, String("b")}};
  EXPECT_EQ(Repr(mp), "{\"a\": 1, 2: \"b\"}");
  Dict<Any, Any> d{{String("k"), Array<Any>{1}}};
  EXPECT_EQ(Repr(d), "{\"k\": (1,)}");
}

TEST(Repr, ReflectedObjects) {
  Any pair = refl::GetMethod("testing.TestIntPair", "__ffi_init__")(1, 2);
  EXPECT_EQ(Repr(pair), "testing.TestIntPair(a=1, b=2)");
  Any derived = Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs")(
      "testing.TestObjectDerived", 10, 10.0, "hello", Map<Any, Any>(), Array<Any>{pair});
  EXPECT_EQ(Repr(derived),
            "testing.TestObjectDerived(v_i64=10, v_f64=10, v_str=\"hello\", v_map={}, "
            "v_array=(testing.TestIntPair(a=1, b=2),))");
}

TEST(Repr, ObjectsWithoutFieldsPrintTheirKey) {
  EXPECT_EQ(Repr(Function::FromTyped([]() {})), "ffi.Function");
  // Every field ReprOff: nothing in parentheses, so no parentheses (Apache's format).
  EXPECT_EQ(Repr(ObjectRef(make_object<HiddenObj>())), "test.repr.Hidden");
}

TEST(Repr, EnumMembersPrintKeyDotName) {
  Enum red = EnumObj::_GetByStrIndex<ColorObj>("Red");
  EXPECT_EQ(Repr(red), "test.repr.Color.Red");
  EXPECT_EQ(Repr(Array<Any>{red}), "(test.repr.Color.Red,)");
}

TEST(Repr, HookIsUsed) {
  ObjectPtr<HookedObj> obj = make_object<HookedObj>();
  obj->inner = Array<Any>{1};
  EXPECT_EQ(Repr(ObjectRef(obj)), "Hooked<(1,)>");
}

TEST(Repr, CyclesPrintEllipsis) {
  List<Any> lst{1};
  lst.push_back(lst);
  EXPECT_EQ(Repr(lst), "[1, ...]");
  Dict<Any, Any> d;
  d.Set(String("self"), d);
  EXPECT_EQ(Repr(d), "{\"self\": ...}");
  lst.clear();
  d.clear();
}

TEST(Repr, SharedButAcyclicValuesPrintTwice) {
  Array<Any> inner{1};
  EXPECT_EQ(Repr(Array<Any>{inner, inner}), "((1,), (1,))");
}

TEST(Repr, NestingDeeperThanTheStackIsAnErrorNotACrash) {
  // The limit follows the stack of the thread that prints.
  tvm_ffi_test::ExpectTooDeepToWalk(
      [](const Any& value) { Repr(value); }, "printing a value",
      [](const Any& shallow) { EXPECT_EQ(Repr(shallow), "({1: ((),)},)"); });
}

TEST(Repr, PrintsOnACoroutineStackOutsideTheThreadStack) {
  // A frame outside the thread's stack bounds is not mistaken for one past their end.
  static std::string printed;
  static ucontext_t caller, coroutine;
  std::vector<char> stack(size_t{512} * 1024);
  ASSERT_EQ(getcontext(&coroutine), 0);
  coroutine.uc_stack.ss_sp = stack.data();
  coroutine.uc_stack.ss_size = stack.size();
  coroutine.uc_link = &caller;
  makecontext(&coroutine, [] { printed = Repr(tvm_ffi_test::NestedContainers(3)); }, 0);
  ASSERT_EQ(swapcontext(&caller, &coroutine), 0);
  EXPECT_EQ(printed, "({1: ((),)},)");
}

/// Sets TVM_FFI_REPR_WITH_ADDR=1 for the scope and restores its absence.
class WithAddress {
 public:
  WithAddress() { setenv("TVM_FFI_REPR_WITH_ADDR", "1", 1); }
  ~WithAddress() { unsetenv("TVM_FFI_REPR_WITH_ADDR"); }
  WithAddress(const WithAddress&) = delete;
  WithAddress& operator=(const WithAddress&) = delete;
};

/// "@0x<hex>" of an object.
std::string At(const ObjectRef& obj) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "@0x%llx",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(obj.get())));  // NOLINT
  return buf;
}

struct PlainAlloc {
  void AllocData(DLTensor* tensor) { tensor->data = std::malloc(GetDataSize(*tensor) + 1); }
  void FreeData(DLTensor* tensor) { std::free(tensor->data); }
};

TEST(Repr, WithAddressObjectsAndContainers) {
  WithAddress scope;
  Any pair = refl::GetMethod("testing.TestIntPair", "__ffi_init__")(1, 2);
  ObjectRef pair_ref = pair.cast<ObjectRef>();
  EXPECT_EQ(Repr(pair), "testing.TestIntPair" + At(pair_ref) + "(a=1, b=2)");
  Function fn = Function::FromTyped([]() {});
  EXPECT_EQ(Repr(fn), "ffi.Function" + At(fn));
  Array<Any> arr{1, pair};
  EXPECT_EQ(Repr(arr), "(1, testing.TestIntPair" + At(pair_ref) + "(a=1, b=2))" + At(arr));
  Array<Any> one{1};
  EXPECT_EQ(Repr(one), "(1,)" + At(one));
  List<Any> lst{1};
  EXPECT_EQ(Repr(lst), "[1]" + At(lst));
  Map<Any, Any> mp{{String("a"), lst}};
  EXPECT_EQ(Repr(mp), "{\"a\": [1]" + At(lst) + "}" + At(mp));
  Dict<Any, Any> d{{String("k"), 1}};
  EXPECT_EQ(Repr(d), "{\"k\": 1}" + At(d));
  // Shared (DAG): each occurrence shows the same address.
  Array<Any> dag{lst, lst};
  EXPECT_EQ(Repr(dag), "([1]" + At(lst) + ", [1]" + At(lst) + ")" + At(dag));
}

TEST(Repr, WithAddressLeavesCyclesTensorsEnumsAndHooks) {
  WithAddress scope;
  // Strings, bytes, shapes and POD values have no address.
  EXPECT_EQ(Repr(String(std::string(40, 'x'))), "\"" + std::string(40, 'x') + "\"");
  EXPECT_EQ(Repr(Shape({1, 2})), "Shape(1, 2)");
  List<Any> lst{1};
  lst.push_back(lst);
  EXPECT_EQ(Repr(lst), "[1, ..." + At(lst) + "]" + At(lst));
  lst.clear();
  Tensor tensor =
      Tensor::FromNDAlloc(PlainAlloc{}, {2, 3}, DLDataType{kDLFloat, 32, 1}, DLDevice{kDLCPU, 0});
  EXPECT_EQ(Repr(tensor), "float32[2, 3]@cpu:0" + At(tensor));
  Enum red = EnumObj::_GetByStrIndex<ColorObj>("Red");
  EXPECT_EQ(Repr(red), "test.repr.Color.Red" + At(red));
  ObjectPtr<HookedObj> hooked = make_object<HookedObj>();
  Array<Any> inner{1};
  hooked->inner = inner;
  EXPECT_EQ(Repr(ObjectRef(hooked)), "Hooked<(1,)" + At(inner) + ">");
}

TEST(Repr, WithoutTheFlagNoAddress) {
  setenv("TVM_FFI_REPR_WITH_ADDR", "0", 1);
  EXPECT_EQ(Repr(Array<Any>{1}), "(1,)");
  unsetenv("TVM_FFI_REPR_WITH_ADDR");
  EXPECT_EQ(Repr(List<Any>{1}), "[1]");
}

}  // namespace tvm_ffi_repr_test
