// SPDX-License-Identifier: Apache-2.0
// test_utils.h: small header-only helpers shared by the C++ test files.
#ifndef TVM_FFI_TESTS_CPP_TEST_UTILS_H_
#define TVM_FFI_TESTS_CPP_TEST_UTILS_H_

#include <gtest/gtest.h>
#include <pthread.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace tvm_ffi_test {

/// Runs body and returns the thrown Error as "<kind>: <message>", or "no error".
inline std::string ErrorText(const std::function<void()>& body) {
  try {
    body();
  } catch (const tvm::ffi::Error& err) {
    return err.kind() + ": " + err.message();
  }
  return "no error";
}

/// Runs f and returns the Error it throws; records a failure when nothing is thrown.
template <typename F>
tvm::ffi::Error CatchError(F&& f) {
  try {
    f();
  } catch (const tvm::ffi::Error& err) {
    return err;
  }
  ADD_FAILURE() << "expected a tvm::ffi::Error";
  return tvm::ffi::Error("NoError", "", "");
}

/// Takes the error raised into this thread's slot (nullopt when the slot is empty).
inline std::optional<tvm::ffi::Error> TakeRaised() {
  using tvm::ffi::details::ObjectUnsafe;
  TVMFFIObjectHandle handle = nullptr;
  TVMFFIErrorMoveFromRaised(&handle);
  if (handle == nullptr) return std::nullopt;
  return ObjectUnsafe::ObjectRefFromObjectPtr<tvm::ffi::Error>(
      ObjectUnsafe::ObjectPtrFromOwned<tvm::ffi::Object>(handle));
}

/// Checks that the slot holds an error of `kind` whose message contains `part`.
inline void ExpectRaised(const char* kind, const std::string& part) {
  std::optional<tvm::ffi::Error> err = TakeRaised();
  ASSERT_TRUE(err.has_value()) << "no error was raised";
  EXPECT_EQ(err->kind(), kind);
  EXPECT_NE(err->message().find(part), std::string::npos) << err->message();
}

/// The object header's combined reference count word (strong count low, weak count high).
inline uint64_t RefCountWord(const tvm::ffi::Object* obj) {
  return tvm::ffi::details::ObjectUnsafe::GetHeader(obj)->combined_ref_count;
}

/// A TVMFFIByteArray viewing a NUL-terminated C string.
inline TVMFFIByteArray ByteArray(const char* text) {
  return TVMFFIByteArray{text, std::strlen(text)};
}

/// Copies a TVMFFIByteArray into a std::string.
inline std::string ToStdString(const TVMFFIByteArray& arr) {
  return std::string(arr.data, arr.size);
}

/// A None cell with all payload bytes zero.
inline TVMFFIAny NoneCell() {
  TVMFFIAny cell{};
  cell.type_index = kTVMFFINone;
  return cell;
}

/// An int cell holding value.
inline TVMFFIAny IntCell(int64_t value) {
  TVMFFIAny cell{};
  cell.type_index = kTVMFFIInt;
  cell.v_int64 = value;
  return cell;
}

/// A float cell holding value.
inline TVMFFIAny FloatCell(double value) {
  TVMFFIAny cell{};
  cell.type_index = kTVMFFIFloat;
  cell.v_float64 = value;
  return cell;
}

/// Runs body on a new thread with a stack of `stack_bytes` and waits for it.
inline void RunOnThreadWithStack(size_t stack_bytes, std::function<void()> body) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, stack_bytes), 0);
  pthread_t thread;
  auto run = [](void* arg) -> void* {
    (*static_cast<std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, run, &body), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

/// Arrays and Maps nested `depth` deep, alternating.
inline tvm::ffi::Any NestedContainers(int depth) {
  tvm::ffi::Any chain = tvm::ffi::Array<tvm::ffi::Any>();
  for (int i = 0; i < depth; ++i) {
    if (i % 2 == 0) {
      chain = tvm::ffi::Array<tvm::ffi::Any>{std::move(chain)};
    } else {
      chain = tvm::ffi::Map<tvm::ffi::Any, tvm::ffi::Any>{{1, std::move(chain)}};
    }
  }
  return chain;
}

/// Checks a recursive walk over values: on a million-deep value it raises RecursionError
/// "... while <doing>", both here and on a thread with a 4 MiB stack, where `check_shallow` also
/// runs it on a three-deep value.
inline void ExpectTooDeepToWalk(const std::function<void(const tvm::ffi::Any&)>& walk,
                                const std::string& doing,
                                const std::function<void(const tvm::ffi::Any&)>& check_shallow) {
  tvm::ffi::Any deep = NestedContainers(1000000);
  std::string expected = "RecursionError: maximum recursion depth exceeded while " + doing;
  EXPECT_EQ(ErrorText([&] { walk(deep); }), expected);
  tvm::ffi::Any shallow = NestedContainers(3);
  // Far too small for the deep value, yet room for ThreadSanitizer's thread-local state,
  // which glibc places in the same allocation (about 800 KiB).
  RunOnThreadWithStack(4 << 20, [&] {
    check_shallow(shallow);
    EXPECT_EQ(ErrorText([&] { walk(deep); }), expected);
  });
}

}  // namespace tvm_ffi_test

#endif  // TVM_FFI_TESTS_CPP_TEST_UTILS_H_
