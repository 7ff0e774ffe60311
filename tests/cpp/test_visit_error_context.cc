// SPDX-License-Identifier: Apache-2.0
// test_visit_error_context.cc: visit records collected by the TVM_FFI_VISIT_* macros and the
// access paths FindAccessPaths resolves them to (objects, containers, prefixes, cycles).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_visit_error_context_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::CatchError;

/// testing.TestObjectDerived with the given v_map and v_array.
ObjectRef Derived(Map<Any, Any> map, Array<Any> arr) {
  return Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs")("testing.TestObjectDerived", 0,
                                                                     0.0, String(""), map, arr)
      .cast<ObjectRef>();
}

/// testing.TestIntPair(a, b), an object without object-valued fields.
ObjectRef Pair(int64_t a, int64_t b) {
  return refl::GetMethod("testing.TestIntPair", "__ffi_init__")(a, b).cast<ObjectRef>();
}

/// A context whose records are given innermost first.
VisitErrorContext Context(std::vector<ObjectRef> records) {
  ObjectPtr<VisitErrorContextObj> obj = make_object<VisitErrorContextObj>();
  for (const ObjectRef& record : records) obj->reverse_visit_pattern.push_back(record);
  return VisitErrorContext(std::move(obj));
}

std::vector<std::string> Texts(const Array<refl::AccessPath>& paths) {
  std::vector<std::string> out;
  for (const refl::AccessPath& path : paths) out.push_back(std::string(ReprPrint(path)));
  return out;
}

std::vector<std::string> Find(const ObjectRef& root, std::vector<ObjectRef> records,
                              bool allow_prefix_match = false) {
  return Texts(
      VisitErrorContext::FindAccessPaths(root, Context(std::move(records)), allow_prefix_match));
}

using Paths = std::vector<std::string>;

/// root = Derived({"a": x, "b": y}, [y, x]) with x = Derived({}, [leaf]), y = Derived({}, []).
struct SharedGraph {
  ObjectRef leaf = Pair(1, 2);
  ObjectRef x = Derived({}, Array<Any>{leaf});
  ObjectRef y = Derived({}, {});
  ObjectRef root = Derived(Map<Any, Any>{{String("a"), x}, {String("b"), y}}, Array<Any>{y, x});
  ObjectRef stranger = Derived({}, {});
};

/// A visitor that descends TestObjectDerived v_array items and rejects TestIntPair with a == 0.
void Check(const ObjectRef& node) {
  TVM_FFI_VISIT_BEGIN();
  if (node->type_index() == Pair(0, 0)->type_index()) {
    if (refl::FieldGetter("testing.TestIntPair", "a")(node).cast<int64_t>() == 0) {
      TVM_FFI_VISIT_THROW(ValueError, node) << "a must not be zero";
    }
    return;
  }
  Array<Any> items =
      refl::FieldGetter("testing.TestObjectDerived", "v_array")(node).cast<Array<Any>>();
  for (const Any& item : items) Check(item.cast<ObjectRef>());
  TVM_FFI_VISIT_END(node);
}

Expected<int> CheckExpected(const ObjectRef& node) {
  TVM_FFI_VISIT_BEGIN();
  Check(node);
  return 1;
  TVM_FFI_VISIT_END_RETURN_EXPECTED(node);
}

TEST(VisitErrorContextMacros, NestedVisitsRecordPatternInnermostFirst) {
  ObjectRef bad = Pair(0, 5);
  ObjectRef mid = Derived({}, Array<Any>{Pair(1, 1), bad});
  ObjectRef root = Derived({}, Array<Any>{Pair(2, 2), mid});
  Error err = CatchError([&] { Check(root); });
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "a must not be zero");
  Optional<VisitErrorContext> context = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(context.has_value());
  // The throw site, then the END of its own level, then each enclosing level.
  List<ObjectRef> pattern = (*context)->reverse_visit_pattern;
  ASSERT_EQ(pattern.size(), 4);
  EXPECT_EQ(pattern[0].get(), bad.get());
  EXPECT_EQ(pattern[1].get(), bad.get());
  EXPECT_EQ(pattern[2].get(), mid.get());
  EXPECT_EQ(pattern[3].get(), root.get());
  EXPECT_FALSE((*context)->prev_error_context.has_value());
  EXPECT_EQ(Texts(VisitErrorContext::FindAccessPaths(root, *context)),
            (Paths{"<root>.v_array[1].v_array[1]"}));
}

TEST(VisitErrorContextMacros, PlainThrowKeepsPreviousExtraContext) {
  ObjectRef payload = Pair(7, 7);
  ObjectRef node = Derived({}, {});
  Error err = CatchError([&] {
    TVM_FFI_VISIT_BEGIN();
    throw Error("TypeError", "boom", "", std::nullopt, payload);
    TVM_FFI_VISIT_END(node);
  });
  EXPECT_EQ(err.kind(), "TypeError");
  Optional<VisitErrorContext> context = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(context.has_value());
  ASSERT_EQ((*context)->reverse_visit_pattern.size(), 1);
  EXPECT_EQ((*context)->reverse_visit_pattern[0].get(), node.get());
  ASSERT_TRUE((*context)->prev_error_context.has_value());
  EXPECT_EQ((*(*context)->prev_error_context).get(), payload.get());
}

TEST(VisitErrorContextMacros, EndReturnExpectedReturnsTheError) {
  ObjectRef bad = Pair(0, 1);
  ObjectRef root = Derived({}, Array<Any>{bad});
  Expected<int> result = CheckExpected(root);
  ASSERT_TRUE(result.is_err());
  Error err = result.error();
  EXPECT_EQ(err.kind(), "ValueError");
  Optional<VisitErrorContext> context = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(context.has_value());
  // bad (throw), bad (END in Check), root (END in Check), root (END in CheckExpected).
  EXPECT_EQ((*context)->reverse_visit_pattern.size(), 4);
  EXPECT_EQ(Texts(VisitErrorContext::FindAccessPaths(root, *context)),
            (Paths{"<root>.v_array[0]"}));
  EXPECT_TRUE(CheckExpected(Derived({}, Array<Any>{Pair(1, 1)})).is_ok());
}

TEST(VisitErrorContextMacros, TryGetFromErrorWithoutContext) {
  EXPECT_FALSE(VisitErrorContext::TryGetFromError(Error("ValueError", "x", "")).has_value());
  Error other("ValueError", "x", "", std::nullopt, Pair(1, 1));
  EXPECT_FALSE(VisitErrorContext::TryGetFromError(other).has_value());
}

TEST(VisitErrorContextMacros, AnyViewOverloadSkipsNonObjects) {
  Error err("ValueError", "x", "");
  details::UpdateVisitErrorContext(err, AnyView(3));
  EXPECT_FALSE(err.extra_context().has_value());
  ObjectRef node = Pair(1, 1);
  details::UpdateVisitErrorContext(err, AnyView(node));
  Optional<VisitErrorContext> context = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(context.has_value());
  EXPECT_EQ((*context)->reverse_visit_pattern[0].get(), node.get());
}

TEST(VisitErrorContextFindAccessPaths, SharedNodeReachedByEveryPath) {
  SharedGraph g;
  EXPECT_EQ(Find(g.root, {g.leaf}),
            (Paths{"<root>.v_map[\"a\"].v_array[0]", "<root>.v_array[1].v_array[0]"}));
  EXPECT_EQ(Find(g.root, {g.x}), (Paths{"<root>.v_map[\"a\"]", "<root>.v_array[1]"}));
  EXPECT_EQ(Find(g.root, {g.y}), (Paths{"<root>.v_map[\"b\"]", "<root>.v_array[0]"}));
  EXPECT_EQ(Find(g.root, {g.root}), (Paths{"<root>"}));
}

TEST(VisitErrorContextFindAccessPaths, RecordsMatchOutermostFirst) {
  SharedGraph g;
  Paths leaf_paths{"<root>.v_map[\"a\"].v_array[0]", "<root>.v_array[1].v_array[0]"};
  EXPECT_EQ(Find(g.root, {g.leaf, g.x}), leaf_paths);
  EXPECT_EQ(Find(g.root, {g.leaf, g.x, g.root}), leaf_paths);
  // Unrecorded levels in between are passed through.
  EXPECT_EQ(Find(g.root, {g.leaf, g.root}), leaf_paths);
  // Consecutive repeats count once.
  EXPECT_EQ(Find(g.root, {g.leaf, g.leaf, g.x, g.x}), leaf_paths);
  // Wrong nesting order, or a record on no path, matches nothing.
  EXPECT_EQ(Find(g.root, {g.x, g.leaf}), Paths{});
  EXPECT_EQ(Find(g.root, {g.leaf, g.y}), Paths{});
  EXPECT_EQ(Find(g.root, {g.leaf, g.stranger, g.x}), Paths{});
  EXPECT_EQ(Find(g.root, {}), Paths{});
}

TEST(VisitErrorContextFindAccessPaths, PrefixMatchReportsDeadEnds) {
  SharedGraph g;
  // y matched, then the walk ran out of objects at y itself.
  EXPECT_EQ(Find(g.root, {g.leaf, g.y}, true), (Paths{"<root>.v_map[\"b\"]", "<root>.v_array[0]"}));
  // x matched, the stranger never appears: the walk ends at x's leaf.
  EXPECT_EQ(Find(g.root, {g.stranger, g.x}, true),
            (Paths{"<root>.v_map[\"a\"].v_array[0]", "<root>.v_array[1].v_array[0]"}));
  EXPECT_EQ(Find(g.root, {g.leaf, g.stranger, g.x}, true),
            (Paths{"<root>.v_map[\"a\"].v_array[0]", "<root>.v_array[1].v_array[0]"}));
  // Nothing matched at all: no path.
  EXPECT_EQ(Find(g.root, {g.stranger}, true), Paths{});
  // A full match is reported as usual.
  EXPECT_EQ(Find(g.root, {g.x}, true), (Paths{"<root>.v_map[\"a\"]", "<root>.v_array[1]"}));
}

TEST(VisitErrorContextFindAccessPaths, PrefixMatchReportsEveryBranchEnd) {
  ObjectRef leaf = Pair(1, 2);
  ObjectRef empty = Derived({}, {});
  ObjectRef ints = Derived({}, Array<Any>{1, 2});
  ObjectRef strings = Derived(Map<Any, Any>{{String("s"), String(std::string(80, 's'))}}, {});
  ObjectRef mid = Derived({}, Array<Any>{leaf, empty, ints, strings, Array<Any>{}});
  ObjectRef root = Derived({}, Array<Any>{mid});
  ObjectRef stranger = Derived({}, {});
  // Ints, strings and empty containers are not objects to walk into.
  EXPECT_EQ(Find(root, {stranger, mid}, true),
            (Paths{"<root>.v_array[0].v_array[0]", "<root>.v_array[0].v_array[1]",
                   "<root>.v_array[0].v_array[2]", "<root>.v_array[0].v_array[3]"}));
}

TEST(VisitErrorContextFindAccessPaths, WalksNestedContainers) {
  ObjectRef leaf = Pair(1, 2);
  ObjectRef x = Derived({}, Array<Any>{leaf});
  Array<Any> inner{leaf};
  List<Any> list{x};
  Dict<Any, Any> dict{{String("q"), x}};
  ObjectRef root = Derived(Map<Any, Any>{{String("m"), inner}, {String("d"), dict}},
                           Array<Any>{inner, Array<Any>{list}, Map<Any, Any>{{int64_t{5}, leaf}}});
  EXPECT_EQ(Find(root, {leaf}),
            (Paths{"<root>.v_map[\"m\"][0]", "<root>.v_map[\"d\"][\"q\"].v_array[0]",
                   "<root>.v_array[0][0]", "<root>.v_array[1][0][0].v_array[0]",
                   "<root>.v_array[2][5]"}));
  // Containers are never matched: records of them (a rewrite makes them) are left out.
  EXPECT_EQ(Find(root, {inner}), Paths{});
  EXPECT_EQ(Find(root, {leaf, inner}), Find(root, {leaf}));
}

TEST(VisitErrorContextFindAccessPaths, MapKeysAreNotWalked) {
  ObjectRef x = Derived({}, {});
  ObjectRef root = Derived(Map<Any, Any>{{x, 1}}, {});
  EXPECT_EQ(Find(root, {x}), Paths{});
}

TEST(VisitErrorContextFindAccessPaths, ContainerRootFindsNothing) {
  ObjectRef leaf = Pair(1, 2);
  ObjectRef x = Derived({}, Array<Any>{leaf});
  Array<Any> arr{x, leaf};
  EXPECT_EQ(Find(arr, {leaf}), Paths{});
  EXPECT_EQ(Find(arr, {arr}), Paths{});
  EXPECT_EQ(Find(Map<Any, Any>{{String("k"), x}}, {x}), Paths{});
  EXPECT_EQ(Find(leaf, {leaf}), (Paths{"<root>"}));
}

TEST(VisitErrorContextFindAccessPaths, CyclesTerminate) {
  ObjectRef leaf = Pair(1, 2);
  ObjectRef x = Derived({}, Array<Any>{leaf});
  List<Any> loop;
  loop.push_back(loop);
  loop.push_back(x);
  ObjectRef root = Derived({}, Array<Any>{loop});
  refl::FieldSetter set_array("testing.TestObjectDerived", "v_array");
  // x's array now leads back to root as well: root -> loop -> x -> root -> ...
  set_array(x, Array<Any>{root, leaf});
  ObjectRef stranger = Derived({}, {});
  EXPECT_EQ(Find(root, {leaf}), (Paths{"<root>.v_array[0][1].v_array[1]"}));
  EXPECT_EQ(Find(root, {stranger}, true), Paths{});
  EXPECT_EQ(Find(root, {leaf, x, root}), (Paths{"<root>.v_array[0][1].v_array[1]"}));
  EXPECT_EQ(Find(root, {stranger, x}, true), (Paths{"<root>.v_array[0][1].v_array[1]"}));
  // Break the reference cycles so the objects are freed.
  set_array(x, Array<Any>{});
  loop.clear();
}

TEST(VisitErrorContextFindAccessPaths, DiamondChainStaysFast) {
  // 40 levels of two arrays pointing at the same next level: 2^40 paths, none matching.
  ObjectRef level = Pair(1, 2);
  for (int i = 0; i < 40; ++i) level = Derived({}, Array<Any>{level, level});
  EXPECT_EQ(Find(level, {Derived({}, {})}), Paths{});
}

TEST(VisitErrorContextFindAccessPaths, BadInput) {
  ObjectRef leaf = Pair(1, 2);
  // A None root has no paths.
  EXPECT_EQ(Find(ObjectRef(), {leaf}), Paths{});
  Function find = Function::GetGlobalRequired("ffi.VisitErrorContext.FindAccessPaths");
  Error not_object = CatchError([&] { find(3, Context({leaf}), false); });
  EXPECT_EQ(not_object.kind(), "TypeError");
  Error no_context = CatchError([&] { find(leaf, nullptr, false); });
  EXPECT_EQ(no_context.kind(), "TypeError");
  Error wrong_context = CatchError([&] { find(leaf, leaf, false); });
  EXPECT_EQ(wrong_context.kind(), "TypeError");
}

TEST(VisitErrorContextReflection, GlobalAndFields) {
  ObjectRef leaf = Pair(1, 2);
  ObjectRef root = Derived({}, Array<Any>{leaf});
  VisitErrorContext context = Context({leaf});
  EXPECT_EQ(context->GetTypeKey(), "ffi.VisitErrorContext");
  Function find = Function::GetGlobalRequired("ffi.VisitErrorContext.FindAccessPaths");
  EXPECT_EQ(Texts(find(root, context, false).cast<Array<refl::AccessPath>>()),
            (Paths{"<root>.v_array[0]"}));
  Any pattern = refl::FieldGetter("ffi.VisitErrorContext", "reverse_visit_pattern")(context);
  EXPECT_EQ(pattern.cast<List<ObjectRef>>()[0].get(), leaf.get());
  Any prev = refl::FieldGetter("ffi.VisitErrorContext", "prev_error_context")(context);
  EXPECT_EQ(prev.type_index(), TypeIndex::kTVMFFINone);
  const TVMFFIFieldInfo* field =
      refl::GetFieldInfo("ffi.VisitErrorContext", "reverse_visit_pattern");
  EXPECT_EQ(field->flags & kTVMFFIFieldFlagBitMaskWritable, 0);
}

}  // namespace tvm_ffi_visit_error_context_test
