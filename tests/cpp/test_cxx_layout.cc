// SPDX-License-Identifier: Apache-2.0
// test_cxx_layout.cc: our C++ classes have Apache TVM FFI's sizes and alignments (pinned with
// static_assert in tests/compat/cxx_layout.h), and Optional values are the Any cells hosts read.
#include <gtest/gtest.h>

#include "../compat/cxx_layout.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::Optional;
using tvm::ffi::String;

TEST(CxxLayout, OptionalValuesAreAnyCells) {
  // A host reads an Optional<String>/Optional<int> returned by the runtime as one Any cell.
  Optional<String> none;
  Optional<String> text = String("a string long enough to be a heap object");
  Optional<int> number = 7;
  EXPECT_EQ(reinterpret_cast<const Any*>(&none)->type_index(), tvm::ffi::TypeIndex::kTVMFFINone);
  EXPECT_EQ(reinterpret_cast<const Any*>(&text)->cast<String>(), *text);
  EXPECT_EQ(reinterpret_cast<const Any*>(&number)->cast<int>(), 7);
}

}  // namespace
