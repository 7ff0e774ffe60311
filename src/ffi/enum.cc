// SPDX-License-Identifier: Apache-2.0
// enum.cc: reflection of the enum base types (ffi.EnumState, ffi.Enum, ffi.IntEnum, ffi.StrEnum)
// and the `__ffi_enum__` type attribute column that holds each enum class's registry.
#include <tvm/ffi/enum.h>
#include <tvm/ffi/reflection/registry.h>

namespace tvm {
namespace ffi {

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<EnumStateObj>()
      .def(refl::init<>())
      .def_ro("entries", &EnumStateObj::entries, "Singletons in registration order",
              refl::init(false))
      .def_ro("indexes", &EnumStateObj::indexes, "Canonical indices to singletons",
              refl::init(false))
      .def_ro("attrs", &EnumStateObj::attrs, "Extra attributes keyed by singleton",
              refl::init(false));
  refl::ObjectDef<EnumObj>(refl::init(false))
      .def_ro("_int_index", &EnumObj::_int_index, "Canonical integer index",
              refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("_str_index", &EnumObj::_str_index, "Canonical string index");
  refl::ObjectDef<IntEnumObj>(refl::init(false))
      .def_ro("value", &EnumObj::_int_index, "The integer value", refl::init(false),
              refl::AttachFieldFlag::SEqHashIgnore());
  refl::ObjectDef<StrEnumObj>(refl::init(false))
      .def_ro("value", &EnumObj::_str_index, "The string value", refl::init(false),
              refl::AttachFieldFlag::SEqHashIgnore());
  refl::EnsureTypeAttrColumn(type_attr::kEnumState.name);
}

}  // namespace ffi
}  // namespace tvm
