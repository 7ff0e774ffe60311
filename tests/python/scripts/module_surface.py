# SPDX-License-Identifier: Apache-2.0
"""Print the module surface of the importable ``tvm_ffi`` package as JSON.

For every module of the package (found by walking its folders, imported one by one): each
name it defines, the kind of object bound to it, and for a callable its parameter names.
``test_module_surface.py`` runs this once with Apache's wheel first on the path and once with
ours, and compares the two.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import sys
from typing import Any

# Modules that cannot be imported on their own without a side effect the comparison must not
# trigger (building a torch extension at import).
SKIPPED_MODULE_PREFIXES = ("tvm_ffi._optional_torch_c_dlpack",)


def parameter_names(value: Any) -> list[str] | None:
    """The parameter names of a callable, or None when it has no inspectable signature."""
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return None
    return [p.name for p in signature.parameters.values()]


def kind_of(value: Any) -> str:
    """A coarse kind that both packages agree on for the same name."""
    if inspect.ismodule(value):
        return "module"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "callable"
    return "value"


def origin_of(value: Any) -> str | None:
    """The module a value comes from: a module's own name, a class's or function's
    ``__module__``, or for another value the module of its type when that is not a builtin."""
    if inspect.ismodule(value):
        return value.__name__
    origin = getattr(value, "__module__", None)
    return origin if isinstance(origin, str) else None


def describe(value: Any) -> dict[str, Any]:
    """The kind and origin of a bound value, and the parameter names of a callable (not a class)
    whose signature can be read."""
    entry: dict[str, Any] = {"kind": kind_of(value), "origin": origin_of(value)}
    if inspect.isclass(value):
        entry["members"] = class_members(value)
    elif callable(value):
        entry["params"] = parameter_names(value)
    return entry


def class_members(cls: type) -> list[str]:
    """The attribute names of a class, inherited and private ones included, dunders left out."""
    try:
        names = dir(cls)
    except Exception:  # a metaclass's __dir__ may fail; such a class lists none
        return []
    return sorted(name for name in names if not (name.startswith("__") and name.endswith("__")))


def module_names(package: Any) -> list[str]:
    """Every importable module of ``package``, the package itself first."""
    names = [package.__name__]
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not info.name.startswith(SKIPPED_MODULE_PREFIXES):
            names.append(info.name)
    return sorted(set(names))


def module_surface(name: str) -> dict[str, Any]:
    """The names a module defines (its ``__dict__``, dunders but ``__all__`` left out)."""
    try:
        module = importlib.import_module(name)
    except Exception as err:  # a module that fails to import is reported as such
        return {"error": f"{type(err).__name__}: {err}"}
    names = {}
    for key, value in vars(module).items():
        if key.startswith("__") and key.endswith("__"):
            continue
        names[key] = describe(value)
    return {"names": names, "all": sorted(getattr(module, "__all__", []) or [])}


def main() -> None:
    """Print ``{module: surface}`` for the ``tvm_ffi`` package found first on the path."""
    import tvm_ffi  # imported here, after the caller has set the path

    surface = {name: module_surface(name) for name in module_names(tvm_ffi)}
    json.dump({"file": tvm_ffi.__file__, "modules": surface}, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
