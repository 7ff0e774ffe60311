// SPDX-License-Identifier: Apache-2.0
// access_path.cc: reflection of ffi.reflection.AccessStep and ffi.reflection.AccessPath (fields,
// the `_root`, `_attr`, ... methods frontends build paths with, and their `__ffi_repr__`).
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

namespace tvm {
namespace ffi {
namespace reflection {
namespace {

/// The repr of value through the printer the repr hook receives.
std::string ReprOf(const Function& repr, const Any& value) {
  return std::string(repr(value).cast<String>());
}

/// One step as a path fragment: `.name`, `[1]`, `["k"]`, `[<missing:"k">]`.
std::string StepRepr(const AccessStepObj* step, const Function& repr) {
  switch (step->kind) {
    case AccessKind::kAttr:
      return "." + std::string(step->key.cast<String>());
    case AccessKind::kArrayItem:
      return "[" + std::to_string(step->key.cast<int64_t>()) + "]";
    case AccessKind::kMapItem:
      return "[" + ReprOf(repr, step->key) + "]";
    case AccessKind::kArrayItemMissing:
      return "[<missing:" + std::to_string(step->key.cast<int64_t>()) + ">]";
    case AccessKind::kAttrMissing:
    case AccessKind::kMapItemMissing:
      return "[<missing:" + ReprOf(repr, step->key) + ">]";
  }
  TVM_FFI_THROW(ValueError) << "AccessPath.__repr__: unknown access kind "
                            << static_cast<int32_t>(step->kind);
  TVM_FFI_UNREACHABLE();
}

/// The whole path: `<root>` followed by every step's fragment.
std::string PathRepr(const AccessPathObj* path, const Function& repr) {
  std::string out = "<root>";
  for (const AccessStep& step : path->ToSteps()) out += StepRepr(step.get(), repr);
  return out;
}

void RegisterAccessStep() {
  ObjectDef<AccessStepObj>(init(false))
      .def_ro("kind", &AccessStepObj::kind)
      .def_ro("key", &AccessStepObj::key);
  TypeAttrDef<AccessStepObj>().def(type_attr::kRepr, [](const Object* self, const Function& repr) {
    return String(StepRepr(static_cast<const AccessStepObj*>(self), repr));
  });
}

void RegisterAccessPath() {
  ObjectDef<AccessPathObj>(init(false))
      .def_ro("parent", &AccessPathObj::parent)
      .def_ro("step", &AccessPathObj::step)
      .def_ro("depth", &AccessPathObj::depth)
      .def_static("_root", &AccessPath::Root)
      .def("_extend", &AccessPathObj::Extend)
      .def("_attr", &AccessPathObj::Attr)
      .def("_array_item", &AccessPathObj::ArrayItem)
      .def("_map_item", &AccessPathObj::MapItem)
      .def("_attr_missing", &AccessPathObj::AttrMissing)
      .def("_array_item_missing", &AccessPathObj::ArrayItemMissing)
      .def("_map_item_missing", &AccessPathObj::MapItemMissing)
      .def("_is_prefix_of", &AccessPathObj::IsPrefixOf)
      .def("_to_steps", &AccessPathObj::ToSteps)
      .def("_path_equal", &AccessPathObj::PathEqual);
  TypeAttrDef<AccessPathObj>().def(type_attr::kRepr, [](const Object* self, const Function& repr) {
    return String(PathRepr(static_cast<const AccessPathObj*>(self), repr));
  });
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterAccessStep();
  RegisterAccessPath();
}

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
