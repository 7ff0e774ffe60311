// SPDX-License-Identifier: Apache-2.0
// test_backtrace.cc: TVMFFIBacktrace output format, frame filtering, limits and lifetime.
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../../src/ffi/backtrace_internal.h"

namespace tvm_ffi_backtrace_test {

std::string BacktraceProbeInner(const char* file, const char* func, int cross);
std::string BacktraceProbeOuter(const char* file, const char* func, int cross);
std::string TVMFFISafeCallBoundaryProbe(int cross);

volatile int g_sink = 0;  // work after each call keeps the probes out of tail calls

__attribute__((noinline)) std::string BacktraceProbeInner(const char* file, const char* func,
                                                          int cross) {
  const TVMFFIByteArray* trace = TVMFFIBacktrace(file, 42, func, cross);
  std::string text(trace->data, trace->size);
  g_sink = g_sink + 1;
  return text;
}

__attribute__((noinline)) std::string BacktraceProbeOuter(const char* file, const char* func,
                                                          int cross) {
  std::string text = BacktraceProbeInner(file, func, cross);
  g_sink = g_sink + 1;
  return text;
}

__attribute__((noinline)) std::string TVMFFISafeCallBoundaryProbe(int cross) {
  std::string text = BacktraceProbeInner(nullptr, nullptr, cross);
  g_sink = g_sink + 1;
  return text;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

bool IsFrameLine(const std::string& line) {
  return ::testing::internal::RE::FullMatch(line, "  File \"[^\"]*\", line [0-9]+, in .+");
}

TEST(Backtrace, EveryLineHasTheFrameFormat) {
  std::string text = BacktraceProbeOuter(nullptr, nullptr, 0);
  std::vector<std::string> lines = SplitLines(text);
  ASSERT_GE(lines.size(), 2u) << text;
  for (const std::string& line : lines) EXPECT_TRUE(IsFrameLine(line)) << line;
  EXPECT_EQ(text.back(), '\n');
}

TEST(Backtrace, StartsAtTheImmediateCaller) {
  std::string text = BacktraceProbeOuter(nullptr, nullptr, 0);
  std::vector<std::string> lines = SplitLines(text);
  ASSERT_GE(lines.size(), 2u) << text;
  EXPECT_NE(lines[0].find("BacktraceProbeInner"), std::string::npos) << text;
  EXPECT_NE(lines[1].find("BacktraceProbeOuter"), std::string::npos) << text;
}

TEST(Backtrace, NeverPrintsItsOwnFrames) {
  std::string text = BacktraceProbeOuter(nullptr, nullptr, 1);
  EXPECT_EQ(text.find("TVMFFIBacktrace"), std::string::npos) << text;
  EXPECT_EQ(text.find("CaptureStack"), std::string::npos) << text;
  EXPECT_EQ(text.find("BuildBacktrace"), std::string::npos) << text;
}

TEST(Backtrace, StopsBeforeMain) {
  std::string text = BacktraceProbeOuter(nullptr, nullptr, 1);
  EXPECT_EQ(text.find(", in main\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("__libc_start"), std::string::npos) << text;
}

TEST(Backtrace, ExplicitLocationIsTheFirstLine) {
  std::string text = BacktraceProbeOuter("my_file.cc", "MyFunc", 0);
  std::vector<std::string> lines = SplitLines(text);
  ASSERT_GE(lines.size(), 2u) << text;
  EXPECT_EQ(lines[0], "  File \"my_file.cc\", line 42, in MyFunc");
  EXPECT_EQ(text.find("BacktraceProbeInner"), std::string::npos) << text;
  EXPECT_NE(lines[1].find("BacktraceProbeOuter"), std::string::npos) << text;
}

TEST(Backtrace, StopsAfterAnFfiBoundaryFrame) {
  std::string text = TVMFFISafeCallBoundaryProbe(0);
  std::vector<std::string> lines = SplitLines(text);
  ASSERT_EQ(lines.size(), 2u) << text;
  EXPECT_NE(lines[1].find("TVMFFISafeCallBoundaryProbe"), std::string::npos) << text;
}

TEST(Backtrace, CrossBoundaryKeepsUnwinding) {
  std::string text = TVMFFISafeCallBoundaryProbe(1);
  EXPECT_GT(SplitLines(text).size(), 2u) << text;
}

TEST(Backtrace, ResultStaysValidUntilTheNextCall) {
  const TVMFFIByteArray* first = TVMFFIBacktrace("a.cc", 1, "A", 0);
  ASSERT_NE(first, nullptr);
  std::string copy(first->data, first->size);
  std::vector<std::string> noise(100, std::string(256, 'x'));  // heap churn must not matter
  EXPECT_EQ(std::string(first->data, first->size), copy);
  const TVMFFIByteArray* second = TVMFFIBacktrace("b.cc", 2, "B", 0);
  EXPECT_EQ(second, first);
  EXPECT_EQ(std::string(second->data, second->size).rfind("  File \"b.cc\", line 2, in B\n", 0),
            0u);
}

TEST(Backtrace, EachThreadHasItsOwnResult) {
  const TVMFFIByteArray* here = TVMFFIBacktrace("main.cc", 1, "Here", 0);
  std::string there_text;
  const TVMFFIByteArray* there = nullptr;
  std::thread worker([&] {
    there = TVMFFIBacktrace("worker.cc", 2, "There", 0);
    there_text.assign(there->data, there->size);
  });
  worker.join();
  EXPECT_NE(here, there);
  EXPECT_EQ(std::string(here->data, here->size).rfind("  File \"main.cc\"", 0), 0u);
  EXPECT_EQ(there_text.rfind("  File \"worker.cc\", line 2, in There\n", 0), 0u);
}

/// Prints the frame count of a trace taken under the inherited TVM_TRACEBACK_LIMIT, then exits.
[[noreturn]] void PrintFrameCountAndExit() {
  std::string text = BacktraceProbeOuter("limit.cc", "Limit", 1);
  std::fprintf(stderr, "frames=%zu;", SplitLines(text).size());
  std::exit(0);
}

/// Runs PrintFrameCountAndExit in a fresh process (the limit is read once per process).
void ExpectFrameCountUnderLimit(const char* limit, const char* expected) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const char* saved = std::getenv("TVM_TRACEBACK_LIMIT");
  std::string saved_value = saved ? saved : "";
  setenv("TVM_TRACEBACK_LIMIT", limit, 1);
  EXPECT_EXIT(PrintFrameCountAndExit(), ::testing::ExitedWithCode(0), expected);
  if (saved) {
    setenv("TVM_TRACEBACK_LIMIT", saved_value.c_str(), 1);
  } else {
    unsetenv("TVM_TRACEBACK_LIMIT");
  }
}

TEST(BacktraceDeathTest, LimitCapsPrintedFrames) { ExpectFrameCountUnderLimit("2", "frames=3;"); }

TEST(BacktraceDeathTest, LimitZeroKeepsOnlyTheExplicitLocation) {
  ExpectFrameCountUnderLimit("0", "frames=1;");
}

TEST(Backtrace, ParseTracebackLimit) {
  using tvm::ffi::details::ParseTracebackLimit;
  EXPECT_EQ(ParseTracebackLimit(nullptr), 512);
  EXPECT_EQ(ParseTracebackLimit("7"), 7);
  EXPECT_EQ(ParseTracebackLimit("0"), 0);
  EXPECT_EQ(ParseTracebackLimit("-3"), 512);
  EXPECT_EQ(ParseTracebackLimit("abc"), 512);
  EXPECT_EQ(ParseTracebackLimit("12x"), 512);
  EXPECT_EQ(ParseTracebackLimit(""), 512);
  EXPECT_EQ(ParseTracebackLimit("99999999999999999999"), tvm::ffi::details::kMaxTracebackLimit);
}

TEST(Backtrace, FrameLineFormat) {
  std::string out;
  tvm::ffi::details::AppendFrameLine("a/b.cc", 12, "ns::F(int)", &out);
  tvm::ffi::details::AppendFrameLine("", 0, "", &out);
  EXPECT_EQ(out,
            "  File \"a/b.cc\", line 12, in ns::F(int)\n"
            "  File \"<unknown>\", line 0, in <unknown>\n");
}

TEST(Backtrace, ClassifyFfiBoundaryFrames) {
  using tvm::ffi::details::ClassifyFrame;
  using tvm::ffi::details::FrameAction;
  for (const char* name : {"TVMFFIFunctionCall", "__tvm_ffi_add_one",
                           "tvm::ffi::details::TVMFFISafeCallBoundary<F>::Call(void*)"}) {
    EXPECT_EQ(ClassifyFrame(name, false), FrameAction::kPrintAndStop) << name;
    EXPECT_EQ(ClassifyFrame(name, true), FrameAction::kPrint) << name;
  }
  EXPECT_EQ(ClassifyFrame("TVMFFIFunctionCallX", false), FrameAction::kPrint);
}

TEST(Backtrace, ClassifyInterpreterAndStartFrames) {
  using tvm::ffi::details::ClassifyFrame;
  using tvm::ffi::details::FrameAction;
  for (const char* name : {"_PyEval_EvalFrameDefault", "PyObject_Call", "__libc_start_main",
                           "__libc_start_call_main", "main", "_start"}) {
    EXPECT_EQ(ClassifyFrame(name, false), FrameAction::kStop) << name;
    EXPECT_EQ(ClassifyFrame(name, true), FrameAction::kStop) << name;
  }
  EXPECT_EQ(ClassifyFrame("mainly", false), FrameAction::kPrint);
  EXPECT_EQ(ClassifyFrame("my_start", false), FrameAction::kPrint);
}

TEST(Backtrace, ClassifyBindingAndInternalFrames) {
  using tvm::ffi::details::ClassifyFrame;
  using tvm::ffi::details::FrameAction;
  EXPECT_EQ(ClassifyFrame("__pyx_f_7tvm_ffi_4core_write_by_setter", false), FrameAction::kStop);
  for (const char* name : {"int tvm::ffi::reflection::details::FieldSetterOf<long>(void*)",
                           "void tvm::ffi::details::ThrowCannotConvert(const TVMFFIAny*)"}) {
    EXPECT_EQ(ClassifyFrame(name, false), FrameAction::kSkip) << name;
  }
  EXPECT_EQ(ClassifyFrame("tvm::ffi::detailsX::F()", false), FrameAction::kPrint);
  EXPECT_EQ(ClassifyFrame("pyx_user_function()", false), FrameAction::kPrint);
}

TEST(Backtrace, ClassifyStandardLibraryFrames) {
  using tvm::ffi::details::ClassifyFrame;
  using tvm::ffi::details::FrameAction;
  for (const char* name :
       {"std::function<void ()>::operator()() const", "__gnu_cxx::__verbose_terminate_handler()",
        "__cxxabiv1::__terminate(void (*)())",
        "void std::__invoke_impl<void, F&>(std::__invoke_other, F&)"}) {
    EXPECT_EQ(ClassifyFrame(name, false), FrameAction::kSkip) << name;
  }
  for (const char* name : {"tvm::ffi::F(std::string)", "(anonymous namespace)::G()",
                           "std_like::H()", "", "<unknown>"}) {
    EXPECT_EQ(ClassifyFrame(name, false), FrameAction::kPrint) << name;
  }
}

}  // namespace tvm_ffi_backtrace_test
