# SPDX-License-Identifier: Apache-2.0
"""Every module path and name of Apache's wheel (the matched release) exists in ours.

``scripts/module_surface.py`` lists, for every module of the importable ``tvm_ffi``, the names it
defines with their kind, origin and (for functions) parameter names. It runs once with Apache's
wheel first on the path and once with ours. A name counts when it is defined in ``tvm_ffi`` (a
class or function whose ``__module__`` is one of the package's, or any other value but the
typing helpers a module imports); names the module merely imports from the standard library do
not. Each counted name must exist in ours with the same kind, a callable of Apache's with
the same parameter names and a class with at least its members (dunders aside), unless
``surface_omissions.txt`` lists it (``module | name | reason``, the name ``*`` for a whole
module, ``Class.member`` for a member) with its reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import environment_with_path_first
from pinned_versions import MATCHED_VERSION
from reference_wheels import install_reference_package, run_json_script

SCRIPT = Path(__file__).parent / "scripts" / "module_surface.py"
OMISSIONS_FILE = Path(__file__).with_name("surface_omissions.txt")
# Values of these origins are typing helpers a module imports (TypeVar, Optional, ...), and
# TYPE_CHECKING is typing's flag: neither is part of a module's own surface.
IMPORTED_VALUE_ORIGINS = frozenset({"typing", "typing_extensions", "__future__", "collections.abc"})

Surface = dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def surfaces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Surface]:
    """``{"apache": ..., "ours": ...}``: module name -> ``{"names": ..., "all": ...}``."""
    work = tmp_path_factory.mktemp("surface")
    site = install_reference_package(MATCHED_VERSION, work)
    apache = run_json_script(SCRIPT, cwd=work, env=environment_with_path_first(site))
    assert apache["file"].startswith(str(site)), apache["file"]
    ours = run_json_script(SCRIPT, cwd=work)
    assert not ours["file"].startswith(str(site)), ours["file"]
    return {"apache": apache["modules"], "ours": ours["modules"]}


def read_omissions(path: Path) -> dict[tuple[str, str], str]:
    """``{(module, name): reason}``; the name ``*`` stands for the whole module."""
    omissions = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        module, name, reason = (part.strip() for part in line.split("|", 2))
        assert reason, f"omission {module}.{name} has no reason"
        omissions[(module, name)] = reason
    return omissions


OMISSIONS = read_omissions(OMISSIONS_FILE)


def counts(name: str, entry: dict[str, Any]) -> bool:
    """Whether a name of Apache's module is part of its own surface (see the module doc)."""
    origin = entry.get("origin") or ""
    if entry["kind"] == "module":
        return False
    if entry["kind"] in ("class", "callable"):
        return origin.startswith("tvm_ffi")
    return origin not in IMPORTED_VALUE_ORIGINS and name != "TYPE_CHECKING"


def omitted(module: str, name: str) -> bool:
    return (module, "*") in OMISSIONS or (module, name) in OMISSIONS


def surface_differences(apache: Surface, ours: Surface) -> list[str]:
    """One line per module or name of Apache's that ours lacks or has in another form."""
    problems = []
    for module, surface in sorted(apache.items()):
        if "error" in surface:
            problems.append(f"{module}: Apache's module does not import here ({surface['error']})")
            continue
        if omitted(module, "*"):
            continue
        mine = ours.get(module)
        if mine is None or "error" in mine:
            why = "missing" if mine is None else f"fails to import ({mine['error']})"
            problems.append(f"{module}: module {why}")
            continue
        for name, entry in sorted(surface["names"].items()):
            if counts(name, entry) and not omitted(module, name):
                problems.extend(name_difference(module, name, entry, mine["names"].get(name)))
    return problems


def name_difference(
    module: str, name: str, apache: dict[str, Any], ours: dict[str, Any] | None
) -> list[str]:
    where = f"{module}.{name}"
    if ours is None:
        return [f"{where}: missing ({apache['kind']})"]
    if ours["kind"] != apache["kind"]:
        return [f"{where}: a {ours['kind']} here, a {apache['kind']} in Apache's"]
    theirs, mine = apache.get("params"), ours.get("params")
    if theirs is not None and mine is not None and theirs != mine:
        return [f"{where}: parameters {mine}, Apache's {theirs}"]
    lacking = sorted(set(apache.get("members", [])) - set(ours.get("members", [])))
    lacking = [member for member in lacking if not omitted(module, f"{name}.{member}")]
    if lacking:
        return [f"{where}: lacks the members {lacking}"]
    return []


def test_every_module_and_name_of_apache_exists(surfaces: dict[str, Surface]) -> None:
    problems = surface_differences(surfaces["apache"], surfaces["ours"])
    assert problems == [], "\n".join(problems)


def test_every_omission_is_still_needed(surfaces: dict[str, Surface]) -> None:
    apache, ours = surfaces["apache"], surfaces["ours"]
    stale = []
    for module, name in OMISSIONS:
        if name == "*":
            if module not in apache or module in ours:
                stale.append(f"{module}: listed as omitted, but ours has it or Apache's has not")
            continue
        if "." in name:
            stale.extend(stale_member_omission(apache, ours, module, name))
            continue
        # A name Apache's module has only with an optional package installed (torch) is not
        # stale where that package is missing: only a name ours has now is.
        entry = apache.get(module, {}).get("names", {}).get(name)
        mine = ours.get(module, {}).get("names", {}).get(name)
        if (
            entry is not None
            and counts(name, entry)
            and not name_difference(module, name, entry, mine)
        ):
            stale.append(f"{module}.{name}: listed as omitted, but ours has it")
    assert stale == [], "\n".join(stale)


def stale_member_omission(apache: Surface, ours: Surface, module: str, name: str) -> list[str]:
    cls, member = name.split(".", 1)
    theirs = apache.get(module, {}).get("names", {}).get(cls, {}).get("members", [])
    mine = ours.get(module, {}).get("names", {}).get(cls, {}).get("members", [])
    if member not in theirs:
        return [f"{module}.{name}: listed as omitted, but Apache's class has no such member"]
    if member in mine:
        return [f"{module}.{name}: listed as omitted, but ours has it"]
    return []


def test_public_all_lists_match(surfaces: dict[str, Surface]) -> None:
    """Names Apache's modules export with ``__all__`` are exported by ours too."""
    missing = []
    for module, surface in sorted(surfaces["apache"].items()):
        mine = surfaces["ours"].get(module, {})
        if "all" not in surface or "all" not in mine or omitted(module, "*"):
            continue
        lacking = sorted(set(surface["all"]) - set(mine["all"]))
        lacking = [name for name in lacking if not omitted(module, name)]
        if lacking:
            missing.append(f"{module}.__all__ lacks {lacking}")
    assert missing == [], "\n".join(missing)


def test_the_comparison_finds_a_missing_name() -> None:
    apache = {"tvm_ffi.x": {"names": {"f": {"kind": "callable", "origin": "tvm_ffi.x"}}}}
    ours: Surface = {"tvm_ffi.x": {"names": {}}}
    assert surface_differences(apache, ours) == ["tvm_ffi.x.f: missing (callable)"]
    ours["tvm_ffi.x"]["names"]["f"] = {"kind": "class", "origin": "tvm_ffi.x"}
    assert surface_differences(apache, ours) == [
        "tvm_ffi.x.f: a class here, a callable in Apache's"
    ]


def test_the_comparison_ignores_imported_helpers() -> None:
    apache = {
        "tvm_ffi.x": {
            "names": {
                "Any": {"kind": "class", "origin": "typing"},
                "TYPE_CHECKING": {"kind": "value", "origin": "builtins"},
                "_T": {"kind": "value", "origin": "typing"},
                "os": {"kind": "module", "origin": "os"},
            }
        }
    }
    assert surface_differences(apache, {"tvm_ffi.x": {"names": {}}}) == []


def test_the_comparison_checks_class_members() -> None:
    entry = {"kind": "class", "origin": "tvm_ffi.x", "members": ["a", "b"]}
    apache = {"tvm_ffi.x": {"names": {"C": entry}}}
    ours = {"tvm_ffi.x": {"names": {"C": dict(entry, members=["a", "c"])}}}
    assert surface_differences(apache, ours) == ["tvm_ffi.x.C: lacks the members ['b']"]


def test_the_comparison_checks_parameter_names() -> None:
    entry = {"kind": "callable", "origin": "tvm_ffi.x", "params": ["a", "b"]}
    apache = {"tvm_ffi.x": {"names": {"f": entry}}}
    ours = {"tvm_ffi.x": {"names": {"f": dict(entry, params=["a"])}}}
    expected = ["tvm_ffi.x.f: parameters ['a'], Apache's ['a', 'b']"]
    assert surface_differences(apache, ours) == expected
