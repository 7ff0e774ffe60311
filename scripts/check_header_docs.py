# SPDX-License-Identifier: Apache-2.0
"""Measure the doc comments of the public headers (include/tvm/ffi) from one doxygen run.

Reads the XML of one doxygen run over the public headers (docs/doxygen.cfg, plus EXTRACT_ALL
so that undocumented declarations appear too; --doxygen runs it) and checks:

* doxygen itself warned about nothing (its log, when the run was ours);
* every public declaration of the C ABI headers (c_api.h, extra/c_*_api.h) has a doc comment;
* of the public declarations of every other header, at least --threshold percent (90) in
  total have one. Each header's "documented/total (pct)" and the total are printed.

A public declaration is a class, struct or union; a function or method; a field or variable;
a typedef or using alias; an enum or enumerator; a macro, that the headers declare and a user
can name. Left out, because a user does not name them or their meaning is the language's:

* anything inside a namespace (or class) called ``details``, ``detail``, ``internal`` or
  ``*_details`` / ``*_detail``, or in a header under an ``internal/`` folder: the
  implementation's own;
* members of C++ classes whose name starts with ``_`` (``_type_key``, ``_type_index``, ...):
  the object system's metadata, which every object class redeclares with the meaning Object
  documents (the C structs' padding fields still count);
* private members (doxygen does not extract them), and friend declarations, which grant
  access and declare nothing of their own;
* anonymous unions, structs, enums and namespaces;
* destructors, assignment operators, and defaulted or deleted members: the language defines
  what they do;
* macros whose name ends with ``_``, the headers' convention for helpers of other macros,
  and include guards (``*_H``);
* include/dlpack (DLPack's contract, not in doxygen's INPUT).

Exits 0 when every check holds, 1 when one fails, 2 on bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]

#: Headers every public declaration of which must have a doc comment.
C_ABI_HEADERS = (
    "include/tvm/ffi/c_api.h",
    "include/tvm/ffi/extra/c_env_api.h",
    "include/tvm/ffi/extra/c_env_slot_api.h",
    "include/tvm/ffi/extra/c_map_api.h",
)

#: What this run adds to docs/doxygen.cfg: every declaration in the XML, C++ view of the
#: C ABI headers (their inline accessors), and warnings into a log this script reads.
DOXYGEN_SETTINGS = (
    "EXTRACT_ALL = YES",
    "WARN_IF_UNDOCUMENTED = YES",
    "PREDEFINED += __cplusplus=201703L",
    "STRIP_FROM_PATH =",
)

_HIDDEN_SCOPE = re.compile(r"^(details?|internal|\w+_details?)$")


class Declaration(NamedTuple):
    """One public declaration: its header, line, kind, name, and whether it is documented."""

    header: str
    line: int
    kind: str
    name: str
    documented: bool


class Tally(NamedTuple):
    """The documented and total public declarations of one header or group."""

    documented: int
    total: int

    def percent(self) -> float:
        """Documented share in percent; an empty group counts as fully documented."""
        return 100.0 * self.documented / self.total if self.total else 100.0

    def __str__(self) -> str:
        return f"{self.documented}/{self.total} ({self.percent():.1f}%)"


def _has_doc(element: ET.Element) -> bool:
    """Whether an XML element has a non-empty brief or detailed description."""
    for tag in ("briefdescription", "detaileddescription"):
        description = element.find(tag)
        if description is not None and "".join(description.itertext()).strip():
            return True
    return False


def _where(element: ET.Element, root: Path) -> tuple[str, int]:
    """Return the header (relative to root) and line doxygen recorded for an element."""
    location = element.find("location")
    if location is None:
        return "?", 0
    path = Path(location.get("file", "?"))
    if path.is_absolute():
        with contextlib.suppress(ValueError):
            path = path.relative_to(root)
    return path.as_posix(), int(location.get("line", "0") or 0)


def _hidden_scope(qualified: str) -> bool:
    """Whether a qualified name lies in an implementation-only or anonymous scope."""
    parts = re.sub(r"<.*>", "", qualified).split("::")
    return any(_HIDDEN_SCOPE.match(part) or part.startswith("@") for part in parts)


def _language_defined(member: ET.Element) -> bool:
    """Whether a member's meaning is fixed by C++: destructor, assignment, = default/delete."""
    name = member.findtext("name", "")
    args = member.findtext("argsstring", "").replace(" ", "")
    return (
        name.startswith("~")
        or name == "operator="
        or args.endswith("=default")
        or args.endswith("=delete")
    )


def _public_member(member: ET.Element, owner: str) -> bool:
    """Whether a memberdef is a public declaration (see the module docstring)."""
    kind = member.get("kind", "")
    name = member.findtext("name", "")
    if kind == "friend" or member.get("prot") == "private" or not name or name.startswith("@"):
        return False
    if kind == "define":
        return not name.endswith("_") and not name.endswith("_H")
    if name.startswith("_") and owner.startswith("tvm::"):
        return False
    return not _hidden_scope(f"{owner}::{name}") and not _language_defined(member)


def declarations(xml_dir: Path, root: Path = ROOT) -> Iterator[Declaration]:
    """Every public declaration in doxygen's XML directory, each once."""
    index = ET.parse(xml_dir / "index.xml").getroot()
    seen: set[str] = set()
    for compound in index.iter("compound"):
        kind = compound.get("kind", "")
        if kind not in ("file", "namespace", "class", "struct", "union"):
            continue
        definition = (
            ET.parse(xml_dir / f"{compound.get('refid')}.xml").getroot().find("compounddef")
        )
        if definition is None:
            continue
        owner = definition.findtext("compoundname", "")
        if kind in ("class", "struct", "union"):
            header, line = _where(definition, root)
            if _hidden_scope(owner) or "/internal/" in header:
                continue
            yield Declaration(header, line, kind, owner, _has_doc(definition))
        for member in definition.iter("memberdef"):
            if member.get("id") in seen or not _public_member(member, owner):
                continue
            seen.add(member.get("id", ""))
            header, line = _where(member, root)
            if "/internal/" in header:
                continue
            name = member.findtext("name", "")
            qualified = name if kind == "file" else f"{owner}::{name}"
            yield Declaration(header, line, member.get("kind", ""), qualified, _has_doc(member))
            scope = qualified if member.get("strong") == "yes" else qualified.rpartition("::")[0]
            for value in member.iter("enumvalue"):
                value_name = "::".join(filter(None, (scope, value.findtext("name", ""))))
                yield Declaration(header, line, "enumvalue", value_name, _has_doc(value))


def tally(items: Iterable[Declaration]) -> Tally:
    """Count the documented and total declarations of items."""
    items = list(items)
    return Tally(sum(item.documented for item in items), len(items))


def run_doxygen(output_dir: Path, root: Path = ROOT) -> tuple[Path, str]:
    """Run doxygen once over the public headers; return its XML folder and its warnings."""
    output_dir.mkdir(parents=True, exist_ok=True)
    log = output_dir / "warnings.log"
    config = (root / "docs" / "doxygen.cfg").read_text(encoding="utf-8")
    settings = [*DOXYGEN_SETTINGS, f"OUTPUT_DIRECTORY = {output_dir}", f"WARN_LOGFILE = {log}"]
    subprocess.run(
        ["doxygen", "-"], input=config + "\n".join(settings) + "\n", text=True, check=True, cwd=root
    )
    return output_dir / "xml", log.read_text(encoding="utf-8").strip()


def _selected(header: str, paths: list[str]) -> bool:
    """Whether a header is one of paths or lies under one of them (all when paths is empty)."""
    return not paths or any(header == p or header.startswith(p.rstrip("/") + "/") for p in paths)


def _relative(path: str, root: Path) -> str:
    """Return a path as the XML names headers: relative to root when under it."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return Path(path).as_posix()


def report(items: list[Declaration], threshold: float, show_missing: bool) -> bool:
    """Print the per-header and total counts (and the undocumented ones); whether all holds."""
    ok = True
    headers = sorted({item.header for item in items})
    strict = [item for item in items if item.header in C_ABI_HEADERS]
    measured = [item for item in items if item.header not in C_ABI_HEADERS]
    for header in headers:
        mine = [item for item in items if item.header == header]
        label = " (C ABI: every declaration)" if header in C_ABI_HEADERS else ""
        print(f"{header}: {tally(mine)}{label}")
    for item in strict if not show_missing else items:
        if not item.documented:
            stream = sys.stdout if show_missing else sys.stderr
            print(f"{item.header}:{item.line}: undocumented {item.kind} {item.name}", file=stream)
    if any(not item.documented for item in strict):
        print(
            "check_header_docs: the C ABI headers must document every declaration", file=sys.stderr
        )
        ok = False
    total = tally(measured)
    print(f"total (other headers): {total}, required {threshold:g}%")
    if total.percent() < threshold:
        print(
            f"check_header_docs: {total.percent():.1f}% of public declarations documented, "
            f"below {threshold:g}%",
            file=sys.stderr,
        )
        ok = False
    return ok


def main(argv: list[str] | None = None) -> int:
    """Run (or read) doxygen, then check and print the header documentation counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--xml", type=Path, metavar="DIR", help="doxygen's XML output to read")
    source.add_argument("--doxygen", action="store_true", help="run doxygen first (see --out)")
    parser.add_argument("--out", type=Path, help="doxygen's output folder (default: temporary)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree with docs/, include/")
    parser.add_argument("--list", action="store_true", help="list every undocumented declaration")
    parser.add_argument("--threshold", type=float, default=90.0, help="required percent (90)")
    parser.add_argument("paths", nargs="*", help="report only these headers or folders")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    warnings = ""
    with tempfile.TemporaryDirectory(prefix="check_header_docs-") as scratch:
        if args.doxygen:
            xml_dir, warnings = run_doxygen((args.out or Path(scratch)).resolve(), root)
        else:
            xml_dir = args.xml
        if not (xml_dir / "index.xml").is_file():
            print(f"check_header_docs: no index.xml in {xml_dir}", file=sys.stderr)
            return 2
        paths = [_relative(path, root) for path in args.paths]
        items = [item for item in declarations(xml_dir, root) if _selected(item.header, paths)]
    if warnings:
        print(warnings, file=sys.stderr)
        print("check_header_docs: doxygen warned (above)", file=sys.stderr)
    ok = report(items, args.threshold, args.list)
    return 0 if ok and not warnings else 1


if __name__ == "__main__":
    sys.exit(main())
