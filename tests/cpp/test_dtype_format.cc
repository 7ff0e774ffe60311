// SPDX-License-Identifier: Apache-2.0
// test_dtype_format.cc: dtype string parsing and printing (details::ParseDataType/FormatDataType).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

// The functions under test are hidden inside libtvm_ffi.so; dtype_format.cc depends only on the
// standard library and dlpack.h, so this test compiles its own copy.
#include "../../src/ffi/dtype_format.cc"  // NOLINT(bugprone-suspicious-include)

namespace tvm_ffi_dtype_test {

using tvm::ffi::details::FormatDataType;
using tvm::ffi::details::ParseDataType;

constexpr uint8_t kPositCode = 130;

bool LookupCode(std::string_view name, uint8_t* out_code) {
  if (name != "posit") return false;
  *out_code = kPositCode;
  return true;
}

bool LookupName(uint8_t code, std::string* out_name) {
  if (code != kPositCode) return false;
  *out_name = "posit";
  return true;
}

DLDataType Parse(std::string_view text) {
  DLDataType dtype{255, 255, 255};
  std::string error;
  EXPECT_TRUE(ParseDataType(text, &dtype, &error, LookupCode)) << text << ": " << error;
  return dtype;
}

std::string ParseError(std::string_view text) {
  DLDataType dtype{255, 255, 255};
  std::string error;
  EXPECT_FALSE(ParseDataType(text, &dtype, &error, LookupCode)) << "accepted '" << text << "'";
  EXPECT_EQ(dtype.code, 255) << "output written on failure for '" << text << "'";
  return error;
}

std::string Format(uint8_t code, uint8_t bits, uint16_t lanes) {
  std::string out = "unset";
  std::string error;
  EXPECT_TRUE(FormatDataType(DLDataType{code, bits, lanes}, &out, &error, LookupName)) << error;
  return out;
}

std::string FormatError(uint8_t code, uint8_t bits, uint16_t lanes) {
  std::string out;
  std::string error;
  EXPECT_FALSE(FormatDataType(DLDataType{code, bits, lanes}, &out, &error, LookupName));
  return error;
}

::testing::AssertionResult Is(DLDataType dtype, uint8_t code, uint8_t bits, uint16_t lanes) {
  if (dtype.code == code && dtype.bits == bits && dtype.lanes == lanes) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got {" << int{dtype.code} << ", " << int{dtype.bits} << ", " << dtype.lanes << "}";
}

constexpr const char* kCanonicalNames[] = {
    "int32",          "uint8",
    "float16",        "handle",
    "bfloat16",       "complex128",
    "bool",           "float8_e3m4",
    "float8_e4m3",    "float8_e4m3b11fnuz",
    "float8_e4m3fn",  "float8_e4m3fnuz",
    "float8_e5m2",    "float8_e5m2fnuz",
    "float8_e8m0fnu", "float6_e2m3fn",
    "float6_e3m2fn",  "float4_e2m1fn",
};

TEST(DTypeFormat, ParseDefaults) {
  EXPECT_TRUE(Is(Parse("int"), kDLInt, 32, 1));
  EXPECT_TRUE(Is(Parse("uint"), kDLUInt, 32, 1));
  EXPECT_TRUE(Is(Parse("float"), kDLFloat, 32, 1));
  EXPECT_TRUE(Is(Parse("bfloat"), kDLBfloat, 16, 1));
  EXPECT_TRUE(Is(Parse("complex"), kDLComplex, 64, 1));
  EXPECT_TRUE(Is(Parse("handle"), kDLOpaqueHandle, 64, 1));
  EXPECT_TRUE(Is(Parse("bool"), kDLBool, 8, 1));
}

TEST(DTypeFormat, ParseVoid) {
  EXPECT_TRUE(Is(Parse(""), kDLOpaqueHandle, 0, 0));
  EXPECT_TRUE(Is(Parse("void"), kDLOpaqueHandle, 0, 0));
}

TEST(DTypeFormat, ParseBits) {
  EXPECT_TRUE(Is(Parse("int8"), kDLInt, 8, 1));
  EXPECT_TRUE(Is(Parse("uint1"), kDLUInt, 1, 1));
  EXPECT_TRUE(Is(Parse("float64"), kDLFloat, 64, 1));
  EXPECT_TRUE(Is(Parse("bfloat16"), kDLBfloat, 16, 1));
  EXPECT_TRUE(Is(Parse("complex128"), kDLComplex, 128, 1));
  EXPECT_TRUE(Is(Parse("int255"), kDLInt, 255, 1));
}

TEST(DTypeFormat, ParseLanes) {
  EXPECT_TRUE(Is(Parse("float32x4"), kDLFloat, 32, 4));
  EXPECT_TRUE(Is(Parse("int8x1"), kDLInt, 8, 1));
  EXPECT_TRUE(Is(Parse("uint16x65535"), kDLUInt, 16, 65535));
  EXPECT_TRUE(Is(Parse("boolx4"), kDLBool, 8, 4));
  EXPECT_TRUE(Is(Parse("intx8"), kDLInt, 32, 8));
  EXPECT_TRUE(Is(Parse("float8_e4m3fnx4"), kDLFloat8_e4m3fn, 8, 4));
}

TEST(DTypeFormat, ParseScalableLanes) {
  EXPECT_TRUE(Is(Parse("float32xvscalex4"), kDLFloat, 32, static_cast<uint16_t>(-4)));
  EXPECT_TRUE(Is(Parse("int8xvscalex1"), kDLInt, 8, 0xFFFF));
  EXPECT_TRUE(Is(Parse("int8xvscalex32768"), kDLInt, 8, 0x8000));
}

TEST(DTypeFormat, ParseShorthands) {
  EXPECT_TRUE(Is(Parse("i8"), kDLInt, 8, 1));
  EXPECT_TRUE(Is(Parse("u16"), kDLUInt, 16, 1));
  EXPECT_TRUE(Is(Parse("f32"), kDLFloat, 32, 1));
  EXPECT_TRUE(Is(Parse("bf16"), kDLBfloat, 16, 1));
  EXPECT_TRUE(Is(Parse("i32x4"), kDLInt, 32, 4));
  EXPECT_TRUE(Is(Parse("fp8_e4m3fn"), kDLFloat8_e4m3fn, 8, 1));
  EXPECT_TRUE(Is(Parse("fp8_e5m2x2"), kDLFloat8_e5m2, 8, 2));
  EXPECT_TRUE(Is(Parse("fp6_e2m3fn"), kDLFloat6_e2m3fn, 6, 1));
  EXPECT_TRUE(Is(Parse("fp4_e2m1fn"), kDLFloat4_e2m1fn, 4, 1));
  EXPECT_TRUE(Is(Parse("f8_e4m3fn"), kDLFloat8_e4m3fn, 8, 1));
  EXPECT_TRUE(Is(Parse("f6_e2m3fn"), kDLFloat6_e2m3fn, 6, 1));
  EXPECT_TRUE(Is(Parse("f4_e2m1fn"), kDLFloat4_e2m1fn, 4, 1));
}

TEST(DTypeFormat, ParseUnderscoreLanesAfterNamesWithoutBits) {
  EXPECT_TRUE(Is(Parse("float4_e2m1fn_x2"), kDLFloat4_e2m1fn, 4, 2));
  EXPECT_TRUE(Is(Parse("f4_e2m1fn_x2"), kDLFloat4_e2m1fn, 4, 2));
  EXPECT_TRUE(Is(Parse("fp4_e2m1fn_x2"), kDLFloat4_e2m1fn, 4, 2));
  EXPECT_FALSE(ParseError("int32_x2").empty());
}

TEST(DTypeFormat, ParseNarrowFloatFamilies) {
  for (uint8_t code = kDLFloat8_e3m4; code <= kDLFloat4_e2m1fn; ++code) {
    uint8_t bits = code >= kDLFloat4_e2m1fn ? 4 : (code >= kDLFloat6_e2m3fn ? 6 : 8);
    EXPECT_TRUE(Is(Parse(kCanonicalNames[code]), code, bits, 1)) << kCanonicalNames[code];
  }
}

TEST(DTypeFormat, ParseCustom) {
  EXPECT_TRUE(Is(Parse("custom[posit]16"), kPositCode, 16, 1));
  EXPECT_TRUE(Is(Parse("custom[posit]8x2"), kPositCode, 8, 2));
}

TEST(DTypeFormat, ParseCustomDefaultsTo32Bits) {
  EXPECT_TRUE(Is(Parse("custom[posit]"), kPositCode, 32, 1));
  EXPECT_TRUE(Is(Parse("custom[posit]x4"), kPositCode, 32, 4));
}

TEST(DTypeFormat, ParseCustomErrors) {
  EXPECT_NE(ParseError("custom[]8").find("'custom[]8'"), std::string::npos);
  EXPECT_NE(ParseError("custom[nope]8").find("'nope'"), std::string::npos);
  EXPECT_NE(ParseError("custom[posit8").find("']'"), std::string::npos);
  EXPECT_FALSE(ParseError("custom[posit]16y").empty());
  DLDataType dtype{};
  std::string error;
  EXPECT_FALSE(ParseDataType("custom[posit]16", &dtype, &error, nullptr));
}

TEST(DTypeFormat, ParseUnknownNameMessage) {
  EXPECT_EQ(ParseError("abc"), "unknown dtype `abc`");
  EXPECT_EQ(ParseError("x4"), "unknown dtype `x4`");
  EXPECT_EQ(ParseError("int32x4xvscale"),
            "unknown dtype `int32x4xvscale`: unexpected trailing characters 'xvscale'");
}

TEST(DTypeFormat, ParseMalformedStrings) {
  for (const char* text : {"int0",
                           "int256",
                           "int1000",
                           "intx",
                           "float8_e4m3fn16",
                           "x4",
                           "uint8x0",
                           "abc",
                           "i",
                           "u",
                           "f",
                           "bf",
                           "int32abc",
                           "float3 2",
                           "int-8",
                           "int+8",
                           " int8",
                           "int8 ",
                           "int8x",
                           "int8x65536",
                           "int8xvscalex0",
                           "int8xvscalex",
                           "int8xvscalex32769",
                           "float32x4x2",
                           "fp8_bogus",
                           "fp16",
                           "INT8",
                           "void8",
                           "handle0",
                           "float8_e4m3fnx0"}) {
    std::string error = ParseError(text);
    bool quoted = error.find("'" + std::string(text) + "'") != std::string::npos ||
                  error.find("`" + std::string(text) + "`") != std::string::npos;
    EXPECT_TRUE(quoted) << error;
  }
}

TEST(DTypeFormat, ParseSpecificMessages) {
  EXPECT_NE(ParseError("int0").find("invalid bits"), std::string::npos);
  EXPECT_NE(ParseError("uint8x0").find("Invalid lanes specification"), std::string::npos);
  EXPECT_NE(ParseError("float8_e4m3fn16").find("bits"), std::string::npos);
  EXPECT_NE(ParseError("int32abc").find("trailing"), std::string::npos);
}

TEST(DTypeFormat, FormatSpecialNames) {
  EXPECT_EQ(Format(kDLBool, 8, 1), "bool");
  EXPECT_EQ(Format(kDLBool, 8, 4), "boolx4");
  EXPECT_EQ(Format(kDLOpaqueHandle, 0, 0), "");
  EXPECT_EQ(Format(kDLOpaqueHandle, 64, 1), "handle");
}

TEST(DTypeFormat, FormatBitsAndLanes) {
  EXPECT_EQ(Format(kDLInt, 32, 1), "int32");
  EXPECT_EQ(Format(kDLUInt, 8, 1), "uint8");
  EXPECT_EQ(Format(kDLFloat, 16, 4), "float16x4");
  EXPECT_EQ(Format(kDLBfloat, 16, 1), "bfloat16");
  EXPECT_EQ(Format(kDLComplex, 64, 2), "complex64x2");
  EXPECT_EQ(Format(kDLFloat8_e4m3fn, 8, 1), "float8_e4m3fn");
  EXPECT_EQ(Format(kDLFloat4_e2m1fn, 4, 8), "float4_e2m1fnx8");
}

TEST(DTypeFormat, FormatScalableLanes) {
  EXPECT_EQ(Format(kDLFloat, 32, static_cast<uint16_t>(-4)), "float32xvscalex4");
  EXPECT_EQ(Format(kDLInt, 8, 0x8000), "int8xvscalex32768");
}

TEST(DTypeFormat, FormatCustom) {
  EXPECT_EQ(Format(kPositCode, 16, 1), "custom[posit]16");
  EXPECT_EQ(Format(kPositCode, 8, 2), "custom[posit]8x2");
  EXPECT_NE(FormatError(131, 8, 1).find("131"), std::string::npos);
  std::string out;
  std::string error;
  EXPECT_FALSE(FormatDataType(DLDataType{kPositCode, 16, 1}, &out, &error, nullptr));
}

TEST(DTypeFormat, FormatUnknownCodes) {
  for (int code = 18; code <= 128; ++code) {
    EXPECT_NE(FormatError(static_cast<uint8_t>(code), 8, 1).find(std::to_string(code)),
              std::string::npos);
  }
}

TEST(DTypeFormat, RoundTripEveryCode) {
  for (const char* name : kCanonicalNames) {
    std::string text(name);
    for (const char* lanes : {"", "x4", "xvscalex2"}) {
      std::string input = text + lanes;
      EXPECT_EQ(Format(Parse(input).code, Parse(input).bits, Parse(input).lanes), input);
    }
  }
  for (const char* name : {"", "custom[posit]16", "custom[posit]8x4", "bool", "handle", "int1"}) {
    DLDataType dtype = Parse(name);
    EXPECT_EQ(Format(dtype.code, dtype.bits, dtype.lanes), name);
  }
}

TEST(DTypeFormat, RoundTripFromDataType) {
  for (uint8_t code = 0; code <= kDLFloat4_e2m1fn; ++code) {
    DLDataType dtype = Parse(kCanonicalNames[code]);
    dtype.lanes = 16;
    DLDataType again = Parse(Format(dtype.code, dtype.bits, dtype.lanes));
    EXPECT_TRUE(Is(again, dtype.code, dtype.bits, dtype.lanes)) << kCanonicalNames[code];
  }
}

}  // namespace tvm_ffi_dtype_test
