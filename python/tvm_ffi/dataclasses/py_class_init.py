# SPDX-License-Identifier: Apache-2.0
"""The generated ``__init__`` of ``@py_class`` types whose fields are all defined in Python.

Like ``dataclasses``, the function is written for the class: one parameter per init field
(positional ones required first, as the native ``__ffi_init__`` binds them). One native call,
``core._py_class_init``, allocates the object and converts and stores every value and default
in place. Called through ``super().__init__()`` on an object that is already allocated (from a
user-written ``__init__``), it does nothing.
"""

from __future__ import annotations

from typing import Any, Callable

from .. import core
from .._dunder import _collect_init_property_funcs as init_property_funcs
from .._dunder import _make_init_signature as init_signature
from .._dunder import all_type_fields


def can_generate_init(info: Any) -> bool:
    """Whether every field of the type (inherited ones included) is defined in Python."""
    return all(type_field.py_converter is not None for type_field in all_type_fields(info))


def make_py_class_init(cls: type, info: Any) -> Callable[..., None]:
    """Write and compile the ``__init__`` of ``cls``."""
    type_fields = all_type_fields(info)
    positional = sorted(
        (f for f in type_fields if f.c_init and not f.c_kw_only), key=lambda f: f.c_has_default
    )
    keyword = [f for f in type_fields if f.c_init and f.c_kw_only]
    others = [f for f in type_fields if not f.c_init and f.c_has_default]
    allocator = core._PyClassAllocator(
        core._lookup_type_attr(info.type_index, "__ffi_new__"), info.type_index, info.total_size
    )
    plan = core._PyClassInitPlan(
        allocator, info.type_key, [_plan_entry(cls, f) for f in positional + keyword],
        [_plan_entry(cls, f) for f in others],
    )  # fmt: skip
    names = [f.name for f in positional + keyword]
    params = [f"{f.name}=_MISSING" for f in positional]
    if keyword:
        params += ["*"] + [f"{f.name}=_MISSING" for f in keyword]
    lines = [
        f"def __init__(self, {', '.join(params)}):",
        f"    if _init(self, _plan, ({''.join(name + ', ' for name in names)})):",
        "        return",
    ]
    stored = init_property_funcs(cls)
    if stored:
        lines += ["    for name, func in _stored:",
                  "        getattr(_cls, name).set(self, func(self))"]  # fmt: skip
    if getattr(cls, "__post_init__", None) is not None:
        lines.append("    self.__post_init__()")
    namespace: dict[str, Any] = {
        "_MISSING": core.MISSING, "_init": core._py_class_init, "_plan": plan,
        "_stored": stored, "_cls": cls,
    }  # fmt: skip
    exec("\n".join(lines) + "\n", namespace)
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    setattr(init, "__signature__", init_signature(info))  # noqa: B010 - unknown to mypy
    return init


def _plan_entry(cls: type, type_field: Any) -> tuple[Any, Any, Any, bool]:
    return (
        getattr(cls, type_field.name), type_field.c_default, type_field.c_default_factory,
        bool(type_field.c_kw_only),
    )  # fmt: skip
