// SPDX-License-Identifier: Apache-2.0
// test_access_path.cc: AccessStep / AccessPath building, comparison, steps, reflection and repr.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

namespace tvm_ffi_access_path_test {

using namespace tvm::ffi;  // NOLINT(*)
using reflection::AccessKind;
using reflection::AccessPath;
using reflection::AccessStep;
namespace refl = tvm::ffi::reflection;

std::string Repr(const Any& value) {
  return std::string(Function::GetGlobalRequired("ffi.ReprPrint")(value).cast<String>());
}

TEST(AccessPath, RootHasNoParentStepOrDepth) {
  AccessPath root = AccessPath::Root();
  EXPECT_EQ(root->depth, 0);
  EXPECT_FALSE(root->parent.has_value());
  EXPECT_FALSE(root->step.has_value());
  EXPECT_FALSE(root->GetParent().has_value());
  EXPECT_EQ(root->ToSteps().size(), 0U);
}

TEST(AccessPath, ExtendBuildsStepsInOrder) {
  AccessPath path = AccessPath::Root()->Attr("a")->ArrayItem(2)->MapItem(String("k"));
  EXPECT_EQ(path->depth, 3);
  Array<AccessStep> steps = path->ToSteps();
  ASSERT_EQ(steps.size(), 3U);
  EXPECT_EQ(steps[0]->kind, AccessKind::kAttr);
  EXPECT_EQ(steps[0]->key.cast<String>(), "a");
  EXPECT_EQ(steps[1]->kind, AccessKind::kArrayItem);
  EXPECT_EQ(steps[1]->key.cast<int64_t>(), 2);
  EXPECT_EQ(steps[2]->kind, AccessKind::kMapItem);
  EXPECT_EQ(steps[2]->key.cast<String>(), "k");
  ASSERT_TRUE(path->GetParent().has_value());
  EXPECT_EQ((*path->GetParent())->depth, 2);
  EXPECT_TRUE(AccessPath::FromSteps(steps)->PathEqual(path));
}

TEST(AccessPath, MissingStepKinds) {
  EXPECT_EQ(AccessStep::AttrMissing("x")->kind, AccessKind::kAttrMissing);
  EXPECT_EQ(AccessStep::ArrayItemMissing(4)->kind, AccessKind::kArrayItemMissing);
  EXPECT_EQ(AccessStep::MapItemMissing()->kind, AccessKind::kMapItemMissing);
  EXPECT_EQ(AccessStep::MapItemMissing()->key, nullptr);
  EXPECT_EQ(static_cast<int>(AccessKind::kMapItemMissing), 5);
}

TEST(AccessPath, StepEqualComparesKindAndKey) {
  EXPECT_TRUE(AccessStep::Attr("a")->StepEqual(AccessStep::Attr("a")));
  EXPECT_FALSE(AccessStep::Attr("a")->StepEqual(AccessStep::Attr("b")));
  EXPECT_FALSE(AccessStep::Attr("a")->StepEqual(AccessStep::AttrMissing("a")));
  EXPECT_TRUE(AccessStep::ArrayItem(1)->StepEqual(AccessStep::ArrayItem(1)));
  EXPECT_FALSE(AccessStep::ArrayItem(1)->StepEqual(AccessStep::MapItem(1)));
}

TEST(AccessPath, PathEqualAndPrefix) {
  AccessPath root = AccessPath::Root();
  AccessPath a1 = root->Attr("a")->ArrayItem(1);
  AccessPath a1_again = AccessPath::Root()->Attr("a")->ArrayItem(1);
  AccessPath a2 = root->Attr("a")->ArrayItem(2);
  EXPECT_TRUE(a1->PathEqual(a1_again));
  EXPECT_FALSE(a1->PathEqual(a2));
  EXPECT_FALSE(a1->PathEqual(root->Attr("a")));
  EXPECT_TRUE(root->IsPrefixOf(a1));
  EXPECT_TRUE(root->Attr("a")->IsPrefixOf(a2));
  EXPECT_TRUE(a1->IsPrefixOf(a1_again));
  EXPECT_FALSE(a1->IsPrefixOf(a2));
  EXPECT_FALSE(a1->IsPrefixOf(root));
  EXPECT_FALSE(root->Attr("b")->IsPrefixOf(a1));
}

TEST(AccessPath, ReprFormatsEveryStepKind) {
  AccessPath path = AccessPath::Root()
                        ->Attr("a")
                        ->ArrayItem(1)
                        ->MapItem(String("k"))
                        ->MapItem(3)
                        ->AttrMissing("b")
                        ->ArrayItemMissing(2)
                        ->MapItemMissing(String("z"))
                        ->MapItemMissing(nullptr);
  EXPECT_EQ(Repr(path),
            "<root>.a[1][\"k\"][3][<missing:\"b\">][<missing:2>][<missing:\"z\">]"
            "[<missing:None>]");
  EXPECT_EQ(Repr(AccessPath::Root()), "<root>");
  EXPECT_EQ(Repr(AccessStep::Attr("x")), ".x");
}

TEST(AccessPath, ReflectionTypeKeysFieldsAndMethods) {
  AccessPath path = AccessPath::Root()->Attr("a");
  EXPECT_EQ(path->GetTypeKey(), "ffi.reflection.AccessPath");
  EXPECT_EQ((*path->step)->GetTypeKey(), "ffi.reflection.AccessStep");
  EXPECT_EQ(refl::FieldGetter("ffi.reflection.AccessPath", "depth")(path).cast<int64_t>(), 1);
  EXPECT_EQ(refl::FieldGetter("ffi.reflection.AccessStep", "kind")(*path->step).cast<int64_t>(), 0);
  Any root = refl::GetMethod("ffi.reflection.AccessPath", "_root")();
  Any built = refl::GetMethod("ffi.reflection.AccessPath", "_attr")(root, "a");
  built = refl::GetMethod("ffi.reflection.AccessPath", "_array_item")(built, 3);
  built = refl::GetMethod("ffi.reflection.AccessPath", "_map_item_missing")(built, "q");
  EXPECT_EQ(Repr(built), "<root>.a[3][<missing:\"q\">]");
  EXPECT_TRUE(
      refl::GetMethod("ffi.reflection.AccessPath", "_path_equal")(built, built).cast<bool>());
  EXPECT_TRUE(
      refl::GetMethod("ffi.reflection.AccessPath", "_is_prefix_of")(path, built).cast<bool>());
  Any steps = refl::GetMethod("ffi.reflection.AccessPath", "_to_steps")(built);
  EXPECT_EQ(steps.cast<Array<AccessStep>>().size(), 3U);
  Any extended =
      refl::GetMethod("ffi.reflection.AccessPath", "_extend")(root, AccessStep::ArrayItem(0));
  EXPECT_EQ(Repr(extended), "<root>[0]");
}

}  // namespace tvm_ffi_access_path_test
